#!/bin/bash
# effbatch fixture shaped like MaxText docs/run scripts (AI-Hypercomputer/maxtext@e591f30)
# effbatch-world: 8 chips, 1 slice(s)  (v5e-8; TP chips still count as devices)
python3 -m maxtext.trainers.pre_train.train src/maxtext/configs/base.yml run_name=$RUN_NAME dataset_type=synthetic steps=100 per_device_batch_size=2 ici_tensor_parallelism=4 ici_fsdp_parallelism=-1 max_target_length=4096

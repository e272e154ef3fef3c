#!/bin/bash
# effbatch fixture shaped like MaxText docs/run scripts (AI-Hypercomputer/maxtext@e591f30)
# effbatch-world: 32 chips, 2 slice(s)  (2 slices x v5e-16; dcn_data_parallelism=-1 (base.yml default))
python3 -m maxtext.trainers.pre_train.train src/maxtext/configs/base.yml run_name=$RUN_NAME dataset_type=synthetic steps=100 per_device_batch_size=4 gradient_accumulation_steps=2 max_target_length=2048

#!/bin/bash
# effbatch fixture shaped like MaxText docs/run scripts (AI-Hypercomputer/maxtext@e591f30)
# effbatch-world: 16 chips, 1 slice(s)  (v5p-32 (16 chips); per_device_batch_size < 1)
python3 -m maxtext.trainers.pre_train.train src/maxtext/configs/base.yml run_name=$RUN_NAME dataset_type=synthetic steps=100 per_device_batch_size=0.25 gradient_accumulation_steps=4 max_target_length=8192

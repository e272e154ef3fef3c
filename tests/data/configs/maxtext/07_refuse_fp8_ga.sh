#!/bin/bash
# effbatch fixture shaped like MaxText docs/run scripts (AI-Hypercomputer/maxtext@e591f30)
# effbatch-world: 8 chips, 1 slice(s)  (v5e-8; fp8 + accumulation)
python3 -m maxtext.trainers.pre_train.train src/maxtext/configs/base.yml run_name=$RUN_NAME dataset_type=synthetic steps=100 per_device_batch_size=2 gradient_accumulation_steps=4 quantization=fp8

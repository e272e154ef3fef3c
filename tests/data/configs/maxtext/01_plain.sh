#!/bin/bash
# effbatch fixture shaped like MaxText docs/run scripts (AI-Hypercomputer/maxtext@e591f30)
# effbatch-world: 8 chips, 1 slice(s)  (v5e-8 / one host)
python3 -m maxtext.trainers.pre_train.train src/maxtext/configs/base.yml run_name=$RUN_NAME base_output_directory=gs://bucket dataset_type=synthetic steps=100 per_device_batch_size=4 max_target_length=2048

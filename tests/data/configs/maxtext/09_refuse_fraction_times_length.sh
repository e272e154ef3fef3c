#!/bin/bash
# effbatch fixture shaped like MaxText docs/run scripts (AI-Hypercomputer/maxtext@e591f30)
# effbatch-world: 8 chips, 1 slice(s)  (v5e-8; 1.3 * 2048 = 2662.4 is not an integer)
python3 -m MaxText.train MaxText/configs/base.yml run_name=$RUN_NAME dataset_type=synthetic steps=100 per_device_batch_size=1.3 max_target_length=2048

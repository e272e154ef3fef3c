#!/bin/bash
# effbatch fixture shaped like MaxText docs/run scripts (old CLI form, MaxText/ paths before the src/maxtext move)
# effbatch-world: 4 chips, 1 slice(s)  (v4-8 = 4 chips; int() floors 4*1.125 = 4.5 to 4)
python3 -m MaxText.train MaxText/configs/base.yml run_name=$RUN_NAME dataset_type=synthetic steps=100 per_device_batch_size=1.125 max_target_length=2048

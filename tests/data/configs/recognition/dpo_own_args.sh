#!/bin/bash
accelerate launch --num_processes 8 dpo_own_args.py --output_dir out --per_device_train_batch_size 2

#!/bin/bash
accelerate launch --num_processes 8 acc_own_loop.py --output_dir out --per_device_train_batch_size 2

#!/bin/bash
accelerate launch --num_processes 8 acc_with_trainer.py --output_dir out --per_device_train_batch_size 2 --gradient_accumulation_steps 4

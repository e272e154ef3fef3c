#!/bin/bash
# a training script launched with an accelerate config, the batch as TrainingArguments flags
accelerate launch --config_file 02_floor_processes_per_machine.yaml train.py \
    --per_device_train_batch_size 4 --gradient_accumulation_steps 2

#!/bin/bash
NGPUS=8
torchrun --nnodes 1 --nproc_per_node $NGPUS run_clm.py \
    --output_dir out \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 2 \
    --block_size 1024

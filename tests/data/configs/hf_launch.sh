#!/bin/bash
# A Trainer script launched by torchrun, with a DeepSpeed config beside it (examples/pytorch/language-modeling)
torchrun --nnodes 2 --nproc_per_node 8 run_clm.py \
  --model_name_or_path gpt2 \
  --per_device_train_batch_size 4 \
  --gradient_accumulation_steps 2 \
  --deepspeed ds_auto.json \
  --output_dir /tmp/out

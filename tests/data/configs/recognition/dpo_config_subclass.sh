#!/bin/bash
torchrun --nproc_per_node 4 --nnodes 2 dpo_config_subclass.py --output_dir out

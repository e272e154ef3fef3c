#!/bin/bash
# one node, 4 of its GPUs
FORCE_TORCHRUN=1 NPROC_PER_NODE=4 llamafactory-cli train "${1:-examples/train_lora/qwen3_lora_pretrain.yaml}"

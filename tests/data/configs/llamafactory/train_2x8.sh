#!/bin/bash
# as LLaMA-Factory's README launches multi-node training (launcher.py:57-66: torchrun with NNODES x NPROC_PER_NODE)
FORCE_TORCHRUN=1 NNODES=2 NPROC_PER_NODE=8 llamafactory-cli train "${1:-examples/train_lora/qwen3_lora_sft.yaml}"

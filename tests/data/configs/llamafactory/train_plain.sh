#!/bin/bash
# no environment: llamafactory-cli starts torchrun with every GPU the machine sees (launcher.py:57-66)
llamafactory-cli train "${1:-examples/train_full/qwen3_full_sft.yaml}"

#!/bin/bash
# a Megatron-Bridge YAML started without USE_MEGATRON_BRIDGE=1: HfArgumentParser meets its keys
FORCE_TORCHRUN=1 NPROC_PER_NODE=8 llamafactory-cli train "${1:-examples/megatron_bridge/llama3_sft.yaml}"

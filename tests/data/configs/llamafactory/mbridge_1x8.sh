#!/bin/bash
# examples/megatron_bridge/README: the Megatron-Bridge path is chosen by the environment
USE_MEGATRON_BRIDGE=1 NPROC_PER_NODE=8 llamafactory-cli train "${1:-examples/megatron_bridge/llama3_sft.yaml}"

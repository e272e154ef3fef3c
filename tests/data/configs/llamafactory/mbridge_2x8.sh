#!/bin/bash
USE_MEGATRON_BRIDGE=1 NNODES=2 NPROC_PER_NODE=8 llamafactory-cli train "${1:-examples/megatron_bridge/llama3_sft.yaml}"

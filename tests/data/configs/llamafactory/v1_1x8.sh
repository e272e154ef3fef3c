#!/bin/bash
# the v1 trainer (cli.py:19-22)
USE_V1=1 FORCE_TORCHRUN=1 NPROC_PER_NODE=8 llamafactory-cli train "${1:-examples/v1/train_full/train_full_fsdp2.yaml}"

#!/bin/bash
# TRL's sft.py run by accelerate itself (trl/scripts/sft.py reads --config with TrlParser)
accelerate launch --config_file deepspeed_zero3.yaml trl/scripts/sft.py --config "${1:-sft.yaml}"

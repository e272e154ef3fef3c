#!/usr/bin/env bash
export HF_HOME=/scratch/hf
export NCCL_IB_DISABLE=1
module load cuda/12.1
source .venv/bin/activate
pip install -r requirements.txt

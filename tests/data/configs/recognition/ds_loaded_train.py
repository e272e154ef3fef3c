"""The config read at run time and its batch keys overwritten before deepspeed.initialize (shaped like
liucongg/ChatGLM-Finetuning train.py)."""
import argparse
import json

import deepspeed
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--per_device_train_batch_size", type=int, default=16)
parser.add_argument("--ds_file", type=str, default="ds_args.json")
args = parser.parse_args()
with open(args.ds_file) as fh:
    ds_config = json.load(fh)
ds_config["train_micro_batch_size_per_gpu"] = args.per_device_train_batch_size
model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(model=model, config=ds_config)

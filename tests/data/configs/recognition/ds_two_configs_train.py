"""A config passed twice: in the call and through --deepspeed_config."""
import argparse

import deepspeed
import torch

parser = argparse.ArgumentParser()
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()
model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(args=args, model=model, config={"train_batch_size": 8})

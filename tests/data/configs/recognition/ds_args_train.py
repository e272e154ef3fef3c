"""A nanoGPT-style trainer that hands its batch to DeepSpeed (shaped like DeepSpeedExamples' training/cifar
cifar10_deepspeed.py: argparse, deepspeed.add_config_arguments, deepspeed.initialize(args=…))."""
import argparse
import os

import deepspeed
import torch

parser = argparse.ArgumentParser(description="GPT training with DeepSpeed")
parser.add_argument("--local_rank", type=int, default=-1)
parser.add_argument("--batch_size", type=int, default=12)
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()

ddp_world_size = int(os.environ.get("WORLD_SIZE", 1))
batch_size = args.batch_size
block_size = 1024
gradient_accumulation_steps = 5 * 8
model = torch.nn.Linear(block_size, block_size)
engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())

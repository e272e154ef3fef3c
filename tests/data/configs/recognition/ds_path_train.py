"""The config handed over by its path, under the old keyword (``config_params``, kept by DeepSpeed for backwards
compatibility)."""
import deepspeed
import torch

model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(model=model, config_params="configs/ds_args.json")

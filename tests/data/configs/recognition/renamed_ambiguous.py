"""A renamed nanoGPT-style trainer whose micro-batch is drawn by a helper of another module: the accumulation loop
decides a, but no line of the script says which name is the micro-batch."""
import os

import torch
from torch.distributed import init_process_group

from data import next_batch

micro_bs = 16
accum = 32
init_process_group(backend="nccl")
ddp_world_size = int(os.environ["WORLD_SIZE"])
assert accum % ddp_world_size == 0
accum //= ddp_world_size
model = torch.nn.Linear(8, 8)
optimizer = torch.optim.AdamW(model.parameters())
for it in range(1000):
    for micro_step in range(accum):
        loss = model(next_batch()).mean() / accum
        loss.backward()
    optimizer.step()

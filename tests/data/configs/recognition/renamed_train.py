"""A nanoGPT-derived trainer that renamed its arithmetic (shaped like karpathy/nanoGPT train.py at 3adf61e with the
batch names changed, as forks do): micro_bs, ctx_len, accum, world; the deciding lines are nanoGPT's own."""
import os

import numpy as np
import torch
from torch.distributed import init_process_group

micro_bs = 16
ctx_len = 512
accum = 32
ddp = int(os.environ.get("RANK", -1)) != -1
if ddp:
    init_process_group(backend="nccl")
    world = int(os.environ["WORLD_SIZE"])
    assert accum % world == 0
    accum //= world
else:
    world = 1
tokens_per_iter = accum * world * micro_bs * ctx_len
print(f"tokens per iteration will be: {tokens_per_iter:,}")


def get_batch(split):
    data = np.memmap("train.bin", dtype=np.uint16, mode="r")
    ix = torch.randint(len(data) - ctx_len, (micro_bs,))
    x = torch.stack([torch.from_numpy((data[i : i + ctx_len]).astype(np.int64)) for i in ix])
    return x


model = torch.nn.Linear(ctx_len, ctx_len)
optimizer = torch.optim.AdamW(model.parameters())
for it in range(1000):
    for micro_step in range(accum):
        x = get_batch("train")
        loss = model(x.float()).mean() / accum
        loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)

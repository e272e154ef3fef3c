# A plain PyTorch fine-tuning script: imports torch, passes batch sizes to a DataLoader, no framework's config.
import argparse

import torch
from torch.utils.data import DataLoader

GLOBAL_BATCH_SIZE = 256
MICRO_BATCH_SIZE = 8
SEQUENCE_LENGTH = 2048


def build_loader(dataset, world_size: int) -> DataLoader:
    per_rank = GLOBAL_BATCH_SIZE // world_size
    return DataLoader(
        dataset, batch_size=min(per_rank, MICRO_BATCH_SIZE), shuffle=True, drop_last=True
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=3e-4)
    args = parser.parse_args()
    model = torch.nn.Linear(SEQUENCE_LENGTH, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    accumulation = GLOBAL_BATCH_SIZE // MICRO_BATCH_SIZE
    optimizer.zero_grad()
    print(accumulation)


if __name__ == "__main__":
    main()

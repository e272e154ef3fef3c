"""A plain PyTorch training script: its own loop, no framework config."""

import argparse

import torch
from torch.utils.data import DataLoader

batch_size = 32
learning_rate = 3e-4
epochs = 10
gradient_accumulation_steps = 4


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=batch_size)
    args = parser.parse_args()
    loader = DataLoader(range(1000), batch_size=args.batch_size)
    model = torch.nn.Linear(10, 10)
    opt = torch.optim.AdamW(model.parameters(), lr=learning_rate)
    for _ in range(epochs):
        for step, batch in enumerate(loader):
            loss = model(torch.randn(len(batch), 10)).sum()
            loss.backward()
            if (step + 1) % gradient_accumulation_steps == 0:
                opt.step()
                opt.zero_grad()


if __name__ == "__main__":
    main()

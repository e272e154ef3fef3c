"""A training script of our own: module-level batch settings, no nanoGPT anywhere."""
import torch
from torch.utils.data import DataLoader

batch_size = 32
gradient_accumulation_steps = 3


def train(model, dataset):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
    optimizer = torch.optim.AdamW(model.parameters())
    for step, batch in enumerate(loader):
        loss = model(batch) / gradient_accumulation_steps
        loss.backward()
        if (step + 1) % gradient_accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()

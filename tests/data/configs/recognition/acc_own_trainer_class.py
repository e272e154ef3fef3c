"""A loop of its own in a class the script calls Trainer (shaped like the small accelerate wrappers of research
repositories): no library trainer, so accelerate's Accelerator and the DataLoader decide: 4 · 8 · 2 = 64."""
from dataclasses import dataclass
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader


@dataclass
class Trainer:
    model: torch.nn.Module
    loader: DataLoader

    def fit(self):
        accelerator = Accelerator(gradient_accumulation_steps=2)
        self.model, self.loader = accelerator.prepare(self.model, self.loader)


loader = DataLoader(list(range(10)), batch_size=4, shuffle=True)
Trainer(torch.nn.Linear(2, 2), loader).fit()

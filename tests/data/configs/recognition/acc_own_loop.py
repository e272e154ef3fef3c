"""A hand-written accelerate loop that parses the Hugging Face TrainingArguments but never builds a Trainer
(shaped like huggingface/transformers examples/pytorch/language-modeling/run_clm_no_trainer.py): the Accelerator's
accumulation and the DataLoader's batch decide the run, not per_device_train_batch_size."""
from dataclasses import dataclass, field

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from transformers import HfArgumentParser, TrainingArguments


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="gpt2")


def main():
    parser = HfArgumentParser((ModelArguments, TrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()
    accelerator = Accelerator(gradient_accumulation_steps=4)
    dataset = list(range(1000))
    train_dataloader = DataLoader(dataset, shuffle=True, batch_size=16)
    model = torch.nn.Linear(2, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=training_args.learning_rate)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    for batch in train_dataloader:
        with accelerator.accumulate(model):
            loss = model(batch).sum()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()

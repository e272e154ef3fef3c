import argparse
from transformers import TrainingArguments, Trainer

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=8)
parser.add_argument("--grad_accum", type=int, default=4)
args = parser.parse_args()

training_args = TrainingArguments(
    output_dir="out",
    per_device_train_batch_size=args.batch_size,
    gradient_accumulation_steps=args.grad_accum,
    deepspeed="ds.json",
)
trainer = Trainer(model=None, args=training_args)
trainer.train()

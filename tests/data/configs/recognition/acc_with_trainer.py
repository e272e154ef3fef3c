"""An Accelerator built only to print on the main process, beside the Hugging Face Trainer that trains (shaped
like TRL's example scripts): the Trainer decides the batch."""
from accelerate import Accelerator
from transformers import HfArgumentParser, Trainer, TrainingArguments

accelerator = Accelerator()
parser = HfArgumentParser(TrainingArguments)
(training_args,) = parser.parse_args_into_dataclasses()
if accelerator.is_main_process:
    print(training_args)
trainer = Trainer(model=None, args=training_args)
trainer.train()

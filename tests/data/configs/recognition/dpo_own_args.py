"""A DPO script fed by the repository's own subclass of TrainingArguments (shaped like the DPO scripts of model
makers' fine-tuning folders, e.g. the Zephyr-era ``run_dpo.py`` forks): its defaults are the run's where no flag
sets them."""
from dataclasses import dataclass, field

from transformers import HfArgumentParser, TrainingArguments
from trl import DPOTrainer


@dataclass
class ScriptArguments(TrainingArguments):
    beta: float = field(default=0.1)
    max_length: int = field(default=1024)
    max_prompt_length: int = field(default=512)
    per_device_train_batch_size: int = field(default=4)
    gradient_accumulation_steps: int = field(default=8)


def main():
    parser = HfArgumentParser(ScriptArguments)
    (args,) = parser.parse_args_into_dataclasses()
    trainer = DPOTrainer(model=None, ref_model=None, args=args, beta=args.beta, train_dataset=None)
    trainer.train()


if __name__ == "__main__":
    main()

from dataclasses import dataclass, field

from transformers import HfArgumentParser, Trainer, TrainingArguments


@dataclass
class DataArguments:
    block_size: int = field(default=2048, metadata={"help": "sequence length"})
    dataset_name: str = field(default="wikitext")


def main():
    parser = HfArgumentParser((DataArguments, TrainingArguments))
    data_args, training_args = parser.parse_args_into_dataclasses()
    trainer = Trainer(model=None, args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()

"""A DPOConfig subclass of the repository's own, one level further down (a base dataclass of its own between)."""
from dataclasses import dataclass, field

from trl import DPOConfig, DPOTrainer, TrlParser


@dataclass
class BaseConfig(DPOConfig):
    gradient_accumulation_steps: int = field(default=2)


@dataclass
class RunConfig(BaseConfig):
    per_device_train_batch_size: int = field(default=1)


parser = TrlParser(RunConfig)
(config,) = parser.parse_args_and_config()
trainer = DPOTrainer(model=None, args=config, train_dataset=None)
trainer.train()

"""TRL's preference trainers (``DPOTrainer``, ``ORPOTrainer``, ``KTOTrainer``, ``CPOTrainer``, ``BCOTrainer``,
``RewardTrainer``; huggingface/trl trl/trainer/): each a ``transformers.Trainer`` whose training DataLoader is the
Trainer's own (``per_device_train_batch_size`` preference rows a device, ``gradient_accumulation_steps``), so the
batch is the Trainer's: B = b · a · world / (TP · CP · SP), a row a pair (chosen and rejected; KTO: one
completion). The arguments are whatever the script hands to ``args=``: a ``DPOConfig``, ``TrainingArguments``, or
the repository's own subclass of either, read with its own defaults and the flags of its launch line.

A pair is two sequences of up to ``max_length`` tokens: the tokens per step are not B · L, and are left open.
"""

from __future__ import annotations

from effbatch.core.configs.base.results import Check, World
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.frameworks._shared import hf_trainer

ID = "trl"
#: The trainers of TRL that train on preference rows with the Trainer's own DataLoader.
PREFERENCE_TRAINERS = frozenset(
    {"DPOTrainer", "ORPOTrainer", "KTOTrainer", "CPOTrainer", "BCOTrainer", "RewardTrainer"}
)


def detect_preference(parsed: Parsed) -> bool:
    """A script that builds one of TRL's preference trainers (imported from ``trl``)."""
    if parsed.format is not Format.PYTHON or parsed.python is None:
        return False
    return any(
        call.callee.split(".", 1)[0] == "trl" and call.name in PREFERENCE_TRAINERS for call in parsed.python.calls
    )


def preference(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    """The Trainer's batch on the arguments the script builds (its own subclass included) and its launch line."""
    reading = Reading(ID, pins)
    batch = hf_trainer.trainer_batch(reading, sources, world)
    return batch.finish(reading, None)

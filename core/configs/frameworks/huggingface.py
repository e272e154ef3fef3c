"""The Hugging Face Trainer's arguments in a YAML or JSON file, or as flags of a launch line.

Its arithmetic is ``_shared.hf_trainer`` (``get_total_train_batch_size``, DeepSpeed's "auto", accelerate's
launch), which TRL and LLaMA-Factory reach too; this module recognises the Trainer's own files and reads the
sequence length (``max_seq_length``, ``max_length``, ``model_max_length``).
"""

from __future__ import annotations

from effbatch.core.configs.base import (
    Check,
    Format,
    Parsed,
    Pins,
    Reading,
    World,
)
from effbatch.core.configs.frameworks._shared.hf_trainer import (
    AUTO_FILLED,
    FLAGS,
    MISMATCH_RULE,
    PER_DEVICE,
    TOTAL,
    trainer_batch,
    training_arguments,
)

ID = "huggingface"
#: The Trainer's own argument classes (TRL's configs are TRL's runs).
TRAINER_CLASSES = frozenset({"TrainingArguments", "Seq2SeqTrainingArguments"})

SEQ_LEN_KEYS = ("max_seq_length", "max_length", "model_max_length", "block_size")


RULES = (TOTAL, AUTO_FILLED, MISMATCH_RULE)


def detect(parsed: Parsed) -> bool:
    """TrainingArguments in a YAML or JSON file, as flags of a launch line, or built by a Python script from
    ``transformers`` (``TrainingArguments(…)``, ``HfArgumentParser((…, TrainingArguments))``)."""
    if parsed.format is Format.SHELL:
        return parsed.script is not None and bool(set(FLAGS) & _words(parsed))
    if parsed.format is Format.PYTHON:
        instance = training_arguments(parsed, TRAINER_CLASSES)
        return instance is not None and instance.kind.startswith("transformers.")
    return parsed.format in (Format.YAML, Format.JSON) and PER_DEVICE in parsed.data


def _words(parsed: Parsed) -> set[str]:
    script = parsed.script
    if script is None:
        return set()
    defined = [*script.arrays.values(), *(value.split() for value in script.variables.values())]
    return {word.split("=", 1)[0] for group in [*(c.words for c in script.commands), *defined] for word in group}


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    reading = Reading(ID, pins)
    batch = trainer_batch(reading, sources, world)
    seq_len = next((v for key in SEQ_LEN_KEYS if (v := batch.number(reading, key, default=0))), None)
    return batch.finish(reading, seq_len)

"""The Hugging Face Trainer's batch arithmetic (transformers ``trainer.py`` and ``integrations/deepspeed.py``, 2026).

- ``Trainer.get_total_train_batch_size``: per_device_train_batch_size · gradient_accumulation_steps ·
  (world_size // tp_size // cp_size // sp_size), the "Total train batch size" it logs.
- With ``deepspeed`` (a config beside it), ``HfTrainerDeepSpeedConfig.trainer_config_process`` fills
  ``"auto"`` with the Trainer's values (``train_batch_size`` = world_size · per_device · accumulation)
  and refuses values that disagree, listing them ("Please correct the following DeepSpeed config
  values that mismatch TrainingArguments values"); DeepSpeed's own check then runs on the result.
- Defaults of TrainingArguments: per_device_train_batch_size 8, gradient_accumulation_steps 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.configs import deepspeed
from core.configs.common import Auto, Reading, lookup, program_flags, whole
from core.configs.model import Check, Derivation, Effect, Nothing, Rule, World
from core.configs.reading import Format, Parsed

ID = "huggingface"
FLAGS = ("--per_device_train_batch_size", "--per-device-train-batch-size")

PER_DEVICE = "per_device_train_batch_size"
ACCUMULATION = "gradient_accumulation_steps"
DEFAULTS = {PER_DEVICE: 8, ACCUMULATION: 1}
#: Sizes of the non-data-parallel dimensions the Trainer divides the world by.
DEGREES = ("tp_size", "cp_size", "sp_size")
SEQ_LEN_KEYS = ("max_seq_length", "max_length", "model_max_length")
MISMATCH = (
    "Please correct the following DeepSpeed config values that mismatch TrainingArguments values:\n{lines}\n"
    "The easiest method is to set these DeepSpeed config values to 'auto'."
)


@dataclass(frozen=True)
class Total:
    total: int


@dataclass(frozen=True)
class Filled:
    filled: str


TOTAL = Rule("huggingface/total-train-batch-size", Effect.NOTE, Total)
AUTO_FILLED = Rule("huggingface/deepspeed-auto", Effect.NOTE, Filled)
MISMATCH_RULE = Rule("huggingface/deepspeed-mismatch", Effect.REFUSED, Nothing)
RULES = (TOTAL, AUTO_FILLED, MISMATCH_RULE)


def detect(parsed: Parsed) -> bool:
    """TrainingArguments in a YAML or JSON file, or as flags of a launch line."""
    if parsed.format is Format.SHELL:
        return parsed.script is not None and bool(set(FLAGS) & _words(parsed))
    return parsed.format in (Format.YAML, Format.JSON) and PER_DEVICE in parsed.data


def _words(parsed: Parsed) -> set[str]:
    script = parsed.script
    if script is None:
        return set()
    defined = [*script.arrays.values(), *(value.split() for value in script.variables.values())]
    return {word.split("=", 1)[0] for group in [*(c.words for c in script.commands), *defined] for word in group}


def check(sources: list[Parsed], world: World | None) -> Check:
    reading = Reading(ID)
    arguments, where = _arguments(sources)
    per_device = _number(reading, arguments, where, PER_DEVICE)
    accumulation = _number(reading, arguments, where, ACCUMULATION)
    degrees = {name: _number(reading, arguments, where, name, default=1) for name in DEGREES}
    seq_len = next((v for key in SEQ_LEN_KEYS if (v := _number(reading, arguments, where, key, default=0))), None)
    ds_config = deepspeed.deepspeed_config(sources)
    autotp = lookup(ds_config.data, deepspeed.AUTOTP) if ds_config else None
    if isinstance(autotp, int) and autotp > 1 and degrees["tp_size"] == 1:
        degrees["tp_size"] = autotp  # get_tp_size falls back to DeepSpeed's AutoTP size
    world = reading.world(world)
    data_parallel = world.size // degrees["tp_size"] // degrees["cp_size"] // degrees["sp_size"]
    reading.step(Derivation.DP_HF, (world.size, *degrees.values()), data_parallel)
    total = per_device * accumulation * data_parallel
    reading.step(Derivation.B_PRODUCT, (per_device, data_parallel, accumulation), total)
    reading.add(TOTAL(Total(total)))
    if ds_config is not None:
        _combine(reading, ds_config, per_device, accumulation, world.size)
    if seq_len is not None:
        reading.step(Derivation.T_PRODUCT, (total, seq_len), total * seq_len)
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=per_device,
        accumulation=accumulation,
        global_batch=total,
        seq_len=seq_len,
    )


def _arguments(sources: list[Parsed]) -> tuple[dict[str, Any], dict[str, str]]:
    """TrainingArguments from a YAML/JSON file or from ``--flags`` in a launch line; where each came from."""
    values: dict[str, Any] = {}
    where: dict[str, str] = {}
    for parsed in sources:
        if parsed.format is Format.SHELL:
            found = program_flags(parsed, FLAGS)
            for flag, given in found.items():
                key = flag.removeprefix("--").replace("-", "_")
                values[key] = given[0] if given else True
                where[key] = parsed.where(flag)
        elif PER_DEVICE in parsed.data:
            for key, value in parsed.data.items():
                values[key] = value
                where[key] = parsed.where(key)
            parallelism = parsed.data.get("parallelism_config")
            if isinstance(parallelism, dict):
                for key in DEGREES:
                    if key in parallelism:
                        values[key], where[key] = parallelism[key], parsed.where(key)
    return values, where


def _number(reading: Reading, values: dict[str, Any], where: dict[str, str], key: str, default: int = 0) -> int:
    """The argument as a whole number of at least 1, recorded; the Trainer's default (else ``default``) if absent."""
    if key not in values:
        return DEFAULTS.get(key, default)
    reading.note(key, values[key], where[key])
    return whole(values[key], key, where[key])


def _combine(reading: Reading, ds_config: Parsed, per_device: int, accumulation: int, world: int) -> None:
    """``trainer_config_process``: "auto" filled with the Trainer's values, disagreeing values refused."""
    expected = {
        deepspeed.MICRO: (per_device, "per_device_train_batch_size"),
        deepspeed.ACCUMULATION: (accumulation, "gradient_accumulation_steps"),
        deepspeed.TRAIN: (world * per_device * accumulation, "train_batch_size (calculated)"),
    }
    filled, mismatches = [], []
    for key, (value, hf_name) in expected.items():
        given = reading.auto(ds_config, key)
        if given is Auto.AUTO:
            filled.append(f'"{key}": {value}')
        elif given is not None and given != value:
            mismatches.append(f"- ds {key}={given} vs hf {hf_name}={value}")
    if filled:
        reading.add(AUTO_FILLED(Filled(", ".join(filled))))
    if mismatches:
        reading.add(MISMATCH_RULE(Nothing(), message=MISMATCH.format(lines="\n".join(mismatches))))

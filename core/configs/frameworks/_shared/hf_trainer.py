"""The Hugging Face Trainer's batch, as every run that trains with it sees it (transformers ``trainer.py`` and
``integrations/deepspeed_config.py``, 2026): the Hugging Face YAML/flags, TRL's configs and LLaMA-Factory all reach it.

- ``Trainer.get_total_train_batch_size``: per_device_train_batch_size · gradient_accumulation_steps ·
  (world_size // tp_size // cp_size // sp_size), the "Total train batch size" it logs.
- With ``deepspeed`` (a config beside it), ``HfTrainerDeepSpeedConfig.trainer_config_process`` fills
  ``"auto"`` with the Trainer's values (``train_batch_size`` = world_size · per_device · accumulation)
  and refuses values that disagree, listing them; DeepSpeed's own check then runs on the result.
- Launched by ``accelerate launch`` with a config (``accelerate_launch``): its processes are the world size,
  its ``parallelism_config`` d; ``accelerator_config: {split_batches: true}`` makes per_device_train_batch_size
  the global micro-batch (the Trainer still logs b · a · world).
- Defaults of TrainingArguments: per_device_train_batch_size 8, gradient_accumulation_steps 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.configs.base import (
    Auto,
    Check,
    Derivation,
    Effect,
    Format,
    Nothing,
    Parsed,
    Reading,
    Rule,
    World,
    context,
    lookup,
    program_flags,
    whole,
)
from core.configs.frameworks._shared import accelerate_launch, deepspeed_config

FLAGS = ("--per_device_train_batch_size", "--per-device-train-batch-size")
PER_DEVICE = "per_device_train_batch_size"
ACCUMULATION = "gradient_accumulation_steps"
DEFAULTS = {PER_DEVICE: 8, ACCUMULATION: 1}
#: Sizes of the non-data-parallel dimensions the Trainer divides the world by.
DEGREES = ("tp_size", "cp_size", "sp_size")
MISMATCH = (
    "Please correct the following DeepSpeed config values that mismatch TrainingArguments values:\n{lines}\n"
    "The easiest method is to set these DeepSpeed config values to 'auto'."
)


@context
class Total:
    total: int


@context
class Filled:
    filled: str


TOTAL = Rule("huggingface/total-train-batch-size", Effect.NOTE, Total)
AUTO_FILLED = Rule("huggingface/deepspeed-auto", Effect.NOTE, Filled)
MISMATCH_RULE = Rule("huggingface/deepspeed-mismatch", Effect.REFUSED, Nothing)


@dataclass
class Batch:
    """What the Trainer trains with: TrainingArguments as read, the world, d, b, a and B (None where refused)."""

    arguments: dict[str, Any]
    where: dict[str, str]
    world: World | None
    data_parallel: int | None = None
    per_device: int | None = None
    accumulation: int | None = None
    total: int | None = None
    #: What the Trainer reports where accelerate trains another batch (split_batches).
    intended: int | None = None

    def number(self, reading: Reading, key: str, default: int = 0) -> int:
        return _number(reading, self.arguments, self.where, key, default)

    def finish(self, reading: Reading, seq_len: int | None) -> Check:
        if seq_len is not None and self.total is not None:
            reading.step(Derivation.T_PRODUCT, (self.total, seq_len), self.total * seq_len)
        return reading.finish(
            self.world,
            data_parallel=self.data_parallel,
            micro_batch=self.per_device,
            accumulation=self.accumulation,
            global_batch=self.total,
            seq_len=seq_len,
            intended=self.intended,
        )


def trainer_batch(reading: Reading, sources: list[Parsed], world: World | None, config: Parsed | None = None) -> Batch:
    """``get_total_train_batch_size`` on the arguments among ``sources`` (``config`` holds them even without batch
    keys); an accelerate config gives the world size and d."""
    arguments, where = _arguments(sources, config)
    batch = Batch(arguments, where, world)
    per_device, accumulation = batch.number(reading, PER_DEVICE), batch.number(reading, ACCUMULATION)
    degrees = {name: batch.number(reading, name, default=1) for name in DEGREES}
    ds_config = deepspeed_config.deepspeed_config(sources)
    autotp = lookup(ds_config.data, deepspeed_config.AUTOTP) if ds_config else None
    if isinstance(autotp, int) and autotp > 1 and degrees["tp_size"] == 1:
        degrees["tp_size"] = autotp  # get_tp_size falls back to DeepSpeed's AutoTP size
    launched = accelerate_launch.layout(reading, sources, world)
    if launched is not None and launched.world is None:
        return batch  # accelerate refuses num_processes -1
    batch.world = launched.world if launched is not None and launched.world else reading.world(world)
    if launched is None or launched.data_parallel == batch.world.size:
        data_parallel: int | None = batch.world.size // degrees["tp_size"] // degrees["cp_size"] // degrees["sp_size"]
        reading.step(Derivation.DP_HF, (batch.world.size, *degrees.values()), data_parallel or 0)
    else:
        data_parallel = launched.data_parallel  # the accelerate config's parallelism_config: None where refused
    if not data_parallel:
        return batch
    total = per_device * accumulation * data_parallel
    reading.add(TOTAL(Total(total)))
    if lookup(arguments, "accelerator_config.split_batches") is True:
        holder = next((p for p in sources if PER_DEVICE in p.data or p.format is Format.SHELL), sources[0])
        if (split := accelerate_launch.split_batches(reading, holder, per_device, data_parallel, total)) is None:
            return batch
        batch.intended, per_device, total = total, split, split * data_parallel * accumulation
    reading.step(Derivation.B_PRODUCT, (per_device, data_parallel, accumulation), total)
    batch.data_parallel, batch.per_device, batch.accumulation, batch.total = (
        data_parallel,
        per_device,
        accumulation,
        total,
    )
    if ds_config is not None:
        _combine(reading, ds_config, batch.number(reading, PER_DEVICE), accumulation, batch.world.size)
    return batch


def _arguments(sources: list[Parsed], config: Parsed | None) -> tuple[dict[str, Any], dict[str, str]]:
    """TrainingArguments from a YAML/JSON file (``config``, or one with the Trainer's batch keys) and from ``--flags``
    in a launch line, which win (HfArgumentParser, TrlParser); where each came from."""
    values: dict[str, Any] = {}
    where: dict[str, str] = {}
    for parsed in sorted(sources, key=lambda p: p.format is Format.SHELL):
        if parsed.format is Format.SHELL:
            found = program_flags(parsed, (*FLAGS, "--gradient_accumulation_steps", "--config"))
            for flag, given in found.items():
                key = flag.removeprefix("--").replace("-", "_")
                values[key] = given[0] if given else True
                where[key] = parsed.where(flag)
        elif parsed is config or (
            {PER_DEVICE, ACCUMULATION} & set(parsed.data) and not deepspeed_config.is_deepspeed_config(parsed)
        ):
            for key, value in parsed.data.items():
                values[key] = value
                where[key] = parsed.where(str(key))  # YAML allows keys that are numbers
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
        deepspeed_config.MICRO: (per_device, "per_device_train_batch_size"),
        deepspeed_config.ACCUMULATION: (accumulation, "gradient_accumulation_steps"),
        deepspeed_config.TRAIN: (world * per_device * accumulation, "train_batch_size (calculated)"),
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

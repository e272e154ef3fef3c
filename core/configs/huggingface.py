"""The Hugging Face Trainer's batch arithmetic (transformers ``trainer.py`` and ``integrations/deepspeed.py``, 2026).

- ``Trainer.get_total_train_batch_size``: per_device_train_batch_size · gradient_accumulation_steps ·
  (world_size // tp_size // cp_size // sp_size), the "Total train batch size" it logs.
- With ``deepspeed`` (a config beside it), ``HfTrainerDeepSpeedConfig.trainer_config_process`` fills
  ``"auto"`` with the Trainer's values (``train_batch_size`` = world_size · per_device · accumulation)
  and refuses values that disagree, listing them ("Please correct the following DeepSpeed config
  values that mismatch TrainingArguments values"); DeepSpeed's own check then runs on the result.
- Launched by ``accelerate launch`` with a config (``core.configs.accelerate``): its processes are the world
  size, its ``parallelism_config`` d; ``accelerator_config: {split_batches: true}`` makes
  per_device_train_batch_size the global micro-batch (the Trainer still logs b · a · world).
- Defaults of TrainingArguments: per_device_train_batch_size 8, gradient_accumulation_steps 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.configs import accelerate, deepspeed
from core.configs.common import Auto, Reading, lookup, program_flags, whole
from core.configs.model import Check, Derivation, Effect, Nothing, Rule, World, context
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


@context
class Total:
    total: int


@context
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
    batch = trainer_batch(reading, sources, world)
    seq_len = next((v for key in SEQ_LEN_KEYS if (v := batch.number(reading, key, default=0))), None)
    return batch.finish(reading, seq_len)


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
    ds_config = deepspeed.deepspeed_config(sources)
    autotp = lookup(ds_config.data, deepspeed.AUTOTP) if ds_config else None
    if isinstance(autotp, int) and autotp > 1 and degrees["tp_size"] == 1:
        degrees["tp_size"] = autotp  # get_tp_size falls back to DeepSpeed's AutoTP size
    launched = accelerate.layout(reading, sources, world)
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
        if (split := accelerate.split_batches(reading, holder, per_device, data_parallel, total)) is None:
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
        elif parsed is config or ({PER_DEVICE, ACCUMULATION} & set(parsed.data) and not deepspeed.detect(parsed)):
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

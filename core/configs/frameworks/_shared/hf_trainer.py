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

from dataclasses import dataclass, field
from typing import Any

from effbatch.core.configs.base.memory import MemoryFacts
from effbatch.core.configs.base.pyscript import Instance, Unknown, Via, via_of
from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Fix, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Auto, Reading, fix, lookup, whole
from effbatch.core.configs.base.world import program_flags
from effbatch.core.configs.frameworks._shared import accelerate_launch, deepspeed_config
from effbatch.core.configs.frameworks._shared.memory_facts import hf_facts

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

    arguments: Layers
    world: World | None
    data_parallel: int | None = None
    per_device: int | None = None
    accumulation: int | None = None
    total: int | None = None
    #: What the Trainer reports where accelerate trains another batch (split_batches).
    intended: int | None = None
    #: The model and memory set-up the files fix (a Hugging Face id the table knows), for the memory estimate.
    memory: MemoryFacts | None = None

    def number(self, reading: Reading, key: str, default: int = 0) -> int:
        return self.arguments.number(reading, key, default)

    def finish(self, reading: Reading, seq_len: int | None) -> Check:
        return finish_with_tokens(
            reading,
            self.world,
            data_parallel=self.data_parallel,
            micro_batch=self.per_device,
            accumulation=self.accumulation,
            global_batch=self.total,
            seq_len=seq_len,
            intended=self.intended,
            memory=self.memory,
        )


def trainer_batch(reading: Reading, sources: list[Parsed], world: World | None, config: Parsed | None = None) -> Batch:
    """``get_total_train_batch_size`` on the arguments among ``sources`` (``config`` holds them even without batch
    keys); an accelerate config gives the world size and d."""
    arguments = _arguments(sources, config)
    batch = Batch(arguments, world)
    per_device, accumulation = batch.number(reading, PER_DEVICE), batch.number(reading, ACCUMULATION)
    degrees = {name: batch.number(reading, name, default=1) for name in DEGREES}
    ds_config = deepspeed_config.deepspeed_config(sources)
    autotp = lookup(ds_config.data, deepspeed_config.AUTOTP) if ds_config else None
    if isinstance(autotp, int) and autotp > 1 and degrees["tp_size"] == 1:
        degrees["tp_size"] = autotp  # get_tp_size falls back to DeepSpeed's AutoTP size
    batch.memory = hf_facts(sources, arguments.values, degrees, _micro_setting(sources))
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
    if lookup(arguments.values, "accelerator_config.split_batches") is True:
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
        _combine(reading, ds_config, arguments, batch.number(reading, PER_DEVICE), accumulation, batch.world.size)
    return batch


def _micro_setting(sources: list[Parsed]) -> Fix | None:
    """``per_device_train_batch_size`` where a file or launch line sets it, for the memory warning's fix."""
    for parsed in sources:
        if parsed.format in (Format.YAML, Format.JSON) and PER_DEVICE in parsed.data:
            return fix(parsed, PER_DEVICE, 1)
        if parsed.format is Format.SHELL and (found := set(program_flags(parsed, FLAGS)) & set(FLAGS)):
            return fix(parsed, found.pop(), 1)
    return None


def _arguments(sources: list[Parsed], config: Parsed | None) -> Layers:
    """TrainingArguments in layers, each winning over the ones before it (HfArgumentParser, TrlParser): a YAML/JSON
    file (``config``, or one with the Trainer's batch keys), ``--flags`` in a launch line, then what a Python script
    builds (``TrainingArguments(…)``, a parser's dataclasses): where each came from, and what it replaced."""
    layers = Layers()
    for parsed in sorted(sources, key=_layer):
        if parsed.format is Format.SHELL:
            found = program_flags(parsed, (*FLAGS, "--gradient_accumulation_steps", "--config"))
            for flag, given in found.items():
                layers.set(flag.removeprefix("--").replace("-", "_"), given[0] if given else True, parsed.where(flag))
        elif parsed.format is Format.PYTHON and parsed.python is not None:
            _script_layer(layers, parsed)
        elif parsed is config or (
            {PER_DEVICE, ACCUMULATION} & set(parsed.data) and not deepspeed_config.is_deepspeed_config(parsed)
        ):
            for key, value in parsed.data.items():
                layers.set(key, value, parsed.where(str(key)))  # YAML allows keys that are numbers
            parallelism = parsed.data.get("parallelism_config")
            if isinstance(parallelism, dict):
                for key in DEGREES:
                    if key in parallelism:
                        layers.set(key, parallelism[key], parsed.where(key))
    return layers


def _layer(parsed: Parsed) -> int:
    """A file's place among the layers: configs first, then launch lines, then scripts."""
    return {Format.SHELL: 1, Format.PYTHON: 2}.get(parsed.format, 0)


@dataclass
class Layers:
    """TrainingArguments set layer by layer: the last one wins, and remembers the one it replaced."""

    values: dict[str, Any] = field(default_factory=dict)
    where: dict[str, str] = field(default_factory=dict)
    #: What a later layer replaced: the value and where it was written.
    over: dict[str, tuple[Any, str]] = field(default_factory=dict)
    #: Where a script's expression (``args.bs``) only names the value: where that value was set.
    via: dict[str, Via] = field(default_factory=dict)
    noted: set[str] = field(default_factory=set)

    def set(self, key: str, value: Any, where: str, via: Via | None = None) -> None:
        if key in self.values and (self.values[key], self.where[key]) != (value, where):
            self.over[key] = (self.values[key], self.where[key])
        self.values[key], self.where[key] = value, where
        if via:
            self.via[key] = via

    def number(self, reading: Reading, key: str, default: int = 0) -> int:
        """The argument as a whole number of at least 1, recorded; the Trainer's default (else ``default``)."""
        if key not in self.values:
            return DEFAULTS.get(key, default)
        where = self.where[key]
        if key not in self.noted:
            self.noted.add(key)
            reading.note(key, self.values[key], where, over=self.over.get(key), via=self.via.get(key))
        return whole(self.values[key], key, where)


def _script_layer(layers: Layers, parsed: Parsed) -> None:
    """The TrainingArguments a script builds (its fields as given, a field it leaves to a command line nobody gave
    unknown), and a sequence length its other argument dataclasses define."""
    script = parsed.python
    instance = training_arguments(parsed)
    if script is None or instance is None:
        return
    name = parsed.source.name
    for key, given in instance.fields.items():
        where = given.where(name) if given.line else script.launch or name
        layers.set(key, given.value, where, via_of(given, script, name))
    if not instance.complete:
        for key in (PER_DEVICE, ACCUMULATION):
            if key not in instance.fields:
                layers.set(key, Unknown(f"--{key}", (f"--{key}",)), f"{name}:{instance.line}")
    for other in script.instances:
        for key in SEQ_LEN_SOURCES & set(other.fields):
            if key not in layers.values:
                given = other.fields[key]
                layers.set(key, given.value, given.where(name), via_of(given, script, name))


#: The classes whose instances are a Trainer's arguments (the Trainer's own, and TRL's configs that extend them).
ARGUMENT_CLASSES = frozenset(
    {"TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "GRPOConfig", "DPOConfig", "ORPOConfig"}
    | {"KTOConfig", "CPOConfig", "RewardConfig", "RLOOConfig", "PPOConfig", "GKDConfig", "OnlineDPOConfig"}
)
#: Where a script's own argument dataclasses keep the sequence length.
SEQ_LEN_SOURCES = frozenset({"max_seq_length", "max_length", "model_max_length", "block_size", "cutoff_len"})


def training_arguments(parsed: Parsed, classes: frozenset[str] = ARGUMENT_CLASSES) -> Instance | None:
    """The Trainer's arguments a script builds: the last instance of ``classes`` a run reaches, else the last one."""
    if parsed.python is None:
        return None
    found = [i for i in parsed.python.instances if i.kind.rsplit(".", 1)[-1] in classes]
    reached = [i for i in found if i.reached]
    chosen = reached or found
    return chosen[-1] if chosen else None


def _combine(
    reading: Reading, ds_config: Parsed, arguments: Layers, per_device: int, accumulation: int, world: int
) -> None:
    """``trainer_config_process``: "auto" filled with the Trainer's values (each read as the Trainer's value over
    the "auto" it replaces), disagreeing values refused."""
    expected = {
        deepspeed_config.MICRO: (per_device, "per_device_train_batch_size"),
        deepspeed_config.ACCUMULATION: (accumulation, "gradient_accumulation_steps"),
        deepspeed_config.TRAIN: (world * per_device * accumulation, "train_batch_size (calculated)"),
    }
    filled, mismatches = [], []
    for key, (value, hf_name) in expected.items():
        if lookup(ds_config.data, key) == Auto.AUTO.value:
            where = arguments.where.get(hf_name, "TrainingArguments")
            reading.note(key, value, where, over=(Auto.AUTO.value, ds_config.where(key)))
            filled.append(f'"{key}": {value}')
        elif (given := reading.auto(ds_config, key)) is not None and given != value:
            mismatches.append(f"- ds {key}={given} vs hf {hf_name}={value}")
    if filled:
        reading.add(AUTO_FILLED(Filled(", ".join(filled))))
    if mismatches:
        reading.add(MISMATCH_RULE(Nothing(), message=MISMATCH.format(lines="\n".join(mismatches))))

"""LitGPT's batch arithmetic (Lightning-AI/litgpt at 2685705, June 2026; run here as litgpt 0.5.13).

- ``litgpt/args.py:56-66`` ``TrainArgs``: ``batch_size = global_batch_size // (devices * num_nodes)``,
  ``assert batch_size > 0``; ``gradient_accumulation_iters = batch_size // micro_batch_size``,
  ``assert gradient_accumulation_iters > 0``: two floors without a word, two bare ``AssertionError``\\ s.
  The loop (``finetune/full.py:280-290``, ``lora.py``, ``pretrain.py``) steps the optimizer every
  ``gradient_accumulation_iters`` micro-batches, so B = micro · accumulation · devices · num_nodes.
  LitGPT trains data-parallel only (FSDP/DDP; ``lora.py:158-162`` sets ``tensor_parallel_size=1``).
- ``devices``: ``"auto"`` or -1 is ``torch.cuda.device_count() or 1`` on the launching machine
  (``utils.py:555-560``); the defaults are the command's: ``pretrain.py:59-70`` 512 / 4 / ``"auto"``,
  ``finetune/full.py:48-56`` (and ``lora``, ``adapter``) 16 / 1 / 1.
- Up to v0.5.7 ``batch_size(devices)`` divided by the devices of one machine only: the global batch
  was per machine (issues #1474, #1927; PR #1947 in v0.5.8).
- ``litgpt pretrain|finetune|finetune_full|finetune_lora|finetune_adapter … --config x.yaml --devices 8
  --train.global_batch_size 64`` (jsonargparse): a flag wins over the YAML, the YAML over ``setup()``'s defaults.
- ``pretrain.py:511-532`` ``validate_args``: ``max_tokens`` and ``max_norm`` must not be None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Fix, Rule, Syntax, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, lookup, neighbours, whole
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.base.words import flags

ID = "litgpt"
GLOBAL = "train.global_batch_size"
MICRO = "train.micro_batch_size"
PER_DEVICE_MESSAGE = "assert batch_size > 0"  # args.py:65, a bare AssertionError
ACCUMULATION_MESSAGE = "assert gradient_accumulation_iters > 0"  # args.py:59
REQUIRED_MESSAGE = "litgpt/pretrain.py requires the {key!r} argument. This is set in TrainArgs(…)"
PER_DEVICE = "litgpt/per-device"  # per device = G // world
ACCUMULATION = "litgpt/accumulation"  # a = per device // b
COMMANDS = frozenset(
    {"pretrain", "finetune", "finetune_full", "finetune_lora", "finetune_adapter", "finetune_adapter_v2"}
)
#: Top-level keys only LitGPT's ``setup()`` takes beside a ``train`` section.
OWN_KEYS = frozenset({"out_dir", "checkpoint_dir", "model_name", "initial_checkpoint_dir", "tokenizer_dir"})


@context
class Defaults:
    """What a command's ``setup()`` sets where the YAML is silent, and where it says so."""

    global_batch: int
    micro: int
    devices: int | str
    where: str


#: ``litgpt pretrain`` (True) and ``litgpt finetune*``.
DEFAULTS = {
    True: Defaults(512, 4, "auto", "litgpt/pretrain.py:59"),
    False: Defaults(16, 1, 1, "litgpt/finetune/full.py:55"),
}


@context
class PerDevice:
    configured: int
    world: int
    per_device: int


@context
class Accumulation:
    per_device: int
    micro: int
    accumulation: int
    real: int


@context
class Empty:
    configured: int
    world: int


@context
class MicroTooLarge:
    per_device: int
    micro: int


@context
class PerMachine:
    nodes: int
    old: int


@context
class DevicesAuto:
    world: int


@context
class NodesAboveWorld:
    nodes: int
    world: int


@context
class Required:
    key: str


PER_DEVICE_FLOORED = Rule("litgpt/per-device-floored", Effect.CHANGED, PerDevice)
ACCUMULATION_FLOORED = Rule("litgpt/accumulation-floored", Effect.CHANGED, Accumulation)
NOTHING_PER_DEVICE = Rule("litgpt/nothing-per-device", Effect.REFUSED, Empty)
MICRO_TOO_LARGE = Rule("litgpt/micro-batch-larger-than-per-device", Effect.REFUSED, MicroTooLarge)
PER_MACHINE = Rule("litgpt/per-machine-in-old-versions", Effect.NOTE, PerMachine)
DEVICES_AUTO = Rule("litgpt/devices-auto", Effect.PITFALL, DevicesAuto)
REQUIRED = Rule("litgpt/pretrain-requires", Effect.REFUSED, Required)
#: Lightning's cluster environments (``TorchElasticEnvironment.validate_settings``, SLURM's task count) refuse a
#: ``devices · num_nodes`` that is not the world size; with more nodes than processes no node could run one.
NODES_ABOVE_WORLD = Rule("litgpt/nodes-above-world", Effect.REFUSED, NodesAboveWorld)
RULES = (
    PER_DEVICE_FLOORED,
    ACCUMULATION_FLOORED,
    NOTHING_PER_DEVICE,
    MICRO_TOO_LARGE,
    PER_MACHINE,
    DEVICES_AUTO,
    REQUIRED,
    NODES_ABOVE_WORLD,
)


def detect(parsed: Parsed) -> bool:
    """A ``litgpt pretrain|finetune…`` launch line, or a ``train`` section with LitGPT's batch keys beside one of its
    ``setup()`` keys (``out_dir`` …)."""
    if parsed.format is Format.SHELL:
        return _launch(parsed) is not None
    train = parsed.data.get("train")
    return (
        parsed.format in (Format.YAML, Format.JSON)
        and isinstance(train, dict)
        and bool({"global_batch_size", "micro_batch_size"} & set(train))
        and bool(OWN_KEYS & set(parsed.data))
    )


@context
class Launch:
    """A ``litgpt`` command: its subcommand, its flags and where it is."""

    command: str
    flags: dict[str, list[str]]
    where: str


def _launch(parsed: Parsed) -> Launch | None:
    commands = parsed.script.commands if parsed.script is not None else []
    for command in commands:
        words = command.words
        if len(words) > 1 and words[0].rsplit("/", 1)[-1] == "litgpt" and words[1] in COMMANDS:
            return Launch(words[1], flags(words[2:]), f"{parsed.source.name}:{command.line}")
    return None


@dataclass
class Values:
    """LitGPT's values as jsonargparse merges them: a flag of the launch line over the YAML."""

    reading: Reading
    parsed: Parsed
    launch: Launch | None

    @property
    def pretrain(self) -> bool:
        """``litgpt pretrain``; without a launch line: a YAML without ``checkpoint_dir`` (finetuning needs one)."""
        return self.launch.command == "pretrain" if self.launch else "checkpoint_dir" not in self.parsed.data

    def raw(self, key: str) -> tuple[Any, str] | None:
        """The value as written and where, recorded once; None when neither the flags nor the YAML set it."""
        if self.launch is not None and (flag := f"--{key}") in self.launch.flags:
            value = " ".join(self.launch.flags[flag])
            if not any(read.key == flag for read in self.reading.read):
                self.reading.note(flag, value, self.launch.where)
            return value, self.launch.where
        written = self.reading.raw(self.parsed, key) if self.parsed.format is not Format.SHELL else None
        return None if written is None else (written, self.parsed.where(key.rsplit(".", 1)[-1]))

    def get(self, key: str, default: int | None = None, default_where: str = "") -> int | None:
        """The whole number at ``key``; else ``default``, recorded with where LitGPT sets it."""
        found = self.raw(key)
        if found is not None:
            return whole(found[0], key, found[1])
        if default is not None:
            self.reading.note(key, default, default_where)
        return default

    def fix(self, key: str, *values: int | None) -> Fix | None:
        """The fix as a flag where the launch line sets the value (or there is no YAML), else in the YAML."""
        flagged = self.parsed.format is Format.SHELL or (self.launch is not None and f"--{key}" in self.launch.flags)
        given = tuple(v for v in values if v is not None and v >= 1)
        if flagged:
            return Fix(f"--{key}", given, Syntax.FLAG) if given else None
        return fix(self.parsed, key, *values)


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if p.format is not Format.SHELL and detect(p)), sources[0])
    launch = next((found for p in sources if p.format is Format.SHELL and (found := _launch(p))), None)
    reading = Reading(ID, pins)
    values = Values(reading, parsed, launch)
    defaults = DEFAULTS[values.pretrain]
    configured = values.get(GLOBAL, defaults.global_batch, defaults.where) or defaults.global_batch
    micro = values.get(MICRO, defaults.micro, defaults.where) or defaults.micro
    seq_len, nodes = values.get("train.max_seq_length"), values.get("num_nodes") or 1
    if values.pretrain:
        _required(reading, parsed)
    world = _world(values, world, nodes, defaults)
    per_device = configured // world.size
    reading.step(PER_DEVICE, (configured, world.size), per_device)
    if per_device == 0:
        fixed = values.fix(GLOBAL, world.size * micro)
        reading.add(NOTHING_PER_DEVICE(Empty(configured, world.size), message=PER_DEVICE_MESSAGE, fix=fixed))
        return reading.finish(world, data_parallel=world.size, micro_batch=micro, seq_len=seq_len)
    accumulation = per_device // micro
    reading.step(ACCUMULATION, (per_device, micro), accumulation)
    if accumulation == 0:
        fixed = values.fix(MICRO, per_device)
        reading.add(MICRO_TOO_LARGE(MicroTooLarge(per_device, micro), message=ACCUMULATION_MESSAGE, fix=fixed))
        return reading.finish(world, data_parallel=world.size, micro_batch=micro, seq_len=seq_len)
    batch = micro * accumulation * world.size
    reading.step(Derivation.B_PRODUCT, (micro, world.size, accumulation), batch)
    _floors(values, configured, world.size, per_device, micro, accumulation)
    if nodes > 1:
        _per_machine(reading, configured, micro, world.size, nodes, batch)
    return finish_with_tokens(
        reading,
        world,
        data_parallel=world.size,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
        intended=configured if batch != configured else None,
    )


def _required(reading: Reading, parsed: Parsed) -> None:
    """``validate_args``: ``max_tokens`` and ``max_norm`` written as null (absent: the setup's default)."""
    train = lookup(parsed.data, "train")
    for key in ("max_tokens", "max_norm"):
        if isinstance(train, dict) and key in train and train[key] is None:
            reading.add(REQUIRED(Required(f"train.{key}"), message=REQUIRED_MESSAGE.format(key=key)))


def _world(values: Values, given: World | None, nodes: int, defaults: Defaults) -> World:
    """devices × num_nodes as the config says; ``auto``/-1: the GPUs of the machine, which only you know."""
    reading = values.reading
    found = values.raw("devices")
    if found is None:
        found = (defaults.devices, defaults.where)
        reading.note("devices", defaults.devices, defaults.where)
    devices, where = found
    if str(devices).strip() in ("auto", "-1"):
        world = reading.world(given)
        reading.add(DEVICES_AUTO(DevicesAuto(world.size)))
        return world
    count = whole(devices, "devices", where)
    if given is not None:
        return reading.world(given)
    reading.step(Derivation.WORLD, (nodes, count), nodes * count)
    return reading.world(World(nodes * count, f"num_nodes × devices, {values.parsed.source.name}"))


def _floors(values: Values, configured: int, world: int, per_device: int, micro: int, accumulation: int) -> None:
    """Each floor that drops sequences, with the global batches nearest to what was written that drop none."""
    fixed = values.fix(GLOBAL, *neighbours(configured, world * micro))
    if configured % world:
        values.reading.add(PER_DEVICE_FLOORED(PerDevice(configured, world, per_device), fix=fixed))
    if per_device % micro:
        context = Accumulation(per_device, micro, accumulation, micro * accumulation)
        values.reading.add(ACCUMULATION_FLOORED(context, fix=None if configured % world else fixed))


def _per_machine(reading: Reading, configured: int, micro: int, world: int, nodes: int, batch: int) -> None:
    """Up to v0.5.7 the same file trained ``global // devices`` a device on every node: num_nodes times more. More
    nodes than processes: Lightning refuses the layout."""
    if nodes > world:
        reading.add(NODES_ABOVE_WORLD(NodesAboveWorld(nodes, world)))
        return
    devices = world // nodes
    old = micro * (configured // devices // micro) * devices * nodes
    if old not in (0, batch):
        reading.add(PER_MACHINE(PerMachine(nodes, old)))

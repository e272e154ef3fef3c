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
- ``pretrain.py:511-532`` ``validate_args``: ``max_tokens`` and ``max_norm`` must not be None.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.configs.common import Reading, fix, neighbours, whole
from core.configs.model import Check, Derivation, Effect, Rule, World
from core.configs.reading import Format, Parsed

ID = "litgpt"
GLOBAL = "train.global_batch_size"
MICRO = "train.micro_batch_size"
PER_DEVICE_MESSAGE = "assert batch_size > 0"  # args.py:65, a bare AssertionError
ACCUMULATION_MESSAGE = "assert gradient_accumulation_iters > 0"  # args.py:59
REQUIRED_MESSAGE = "litgpt/pretrain.py requires the {key!r} argument. This is set in TrainArgs(…)"
PER_DEVICE = "litgpt/per-device"  # per device = G // world
ACCUMULATION = "litgpt/accumulation"  # a = per device // b
#: Top-level keys only LitGPT's ``setup()`` takes beside a ``train`` section.
OWN_KEYS = frozenset({"out_dir", "checkpoint_dir", "model_name", "initial_checkpoint_dir", "tokenizer_dir"})


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class PerDevice:
    configured: int
    world: int
    per_device: int


@dataclass(frozen=True)
class Accumulation:
    per_device: int
    micro: int
    accumulation: int
    real: int


@dataclass(frozen=True)
class Empty:
    configured: int
    world: int


@dataclass(frozen=True)
class MicroTooLarge:
    per_device: int
    micro: int


@dataclass(frozen=True)
class PerMachine:
    nodes: int
    old: int


@dataclass(frozen=True)
class DevicesAuto:
    world: int


@dataclass(frozen=True)
class Required:
    key: str


PER_DEVICE_FLOORED = Rule("litgpt/per-device-floored", Effect.CHANGED, PerDevice)
ACCUMULATION_FLOORED = Rule("litgpt/accumulation-floored", Effect.CHANGED, Accumulation)
NOTHING_PER_DEVICE = Rule("litgpt/nothing-per-device", Effect.REFUSED, Empty)
MICRO_TOO_LARGE = Rule("litgpt/micro-batch-larger-than-per-device", Effect.REFUSED, MicroTooLarge)
PER_MACHINE = Rule("litgpt/per-machine-in-old-versions", Effect.NOTE, PerMachine)
DEVICES_AUTO = Rule("litgpt/devices-auto", Effect.PITFALL, DevicesAuto)
REQUIRED = Rule("litgpt/pretrain-requires", Effect.REFUSED, Required)
RULES = (
    PER_DEVICE_FLOORED,
    ACCUMULATION_FLOORED,
    NOTHING_PER_DEVICE,
    MICRO_TOO_LARGE,
    PER_MACHINE,
    DEVICES_AUTO,
    REQUIRED,
)


def detect(parsed: Parsed) -> bool:
    """A ``train`` section with LitGPT's batch keys beside one of its ``setup()`` keys (``out_dir`` …)."""
    train = parsed.data.get("train")
    return (
        parsed.format in (Format.YAML, Format.JSON)
        and isinstance(train, dict)
        and bool({"global_batch_size", "micro_batch_size"} & set(train))
        and bool(OWN_KEYS & set(parsed.data))
    )


def _pretrain(parsed: Parsed) -> bool:
    """``litgpt pretrain`` takes ``model_name``/``initial_checkpoint_dir``; the finetune commands ``checkpoint_dir``."""
    return "checkpoint_dir" not in parsed.data


def check(sources: list[Parsed], world: World | None) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading, defaults = Reading(ID), DEFAULTS[_pretrain(parsed)]
    configured = _batch_value(reading, parsed, GLOBAL, defaults.global_batch, defaults.where)
    micro = _batch_value(reading, parsed, MICRO, defaults.micro, defaults.where)
    seq_len = reading.value(parsed, "train.max_seq_length")
    nodes = reading.value(parsed, "num_nodes") or 1
    if _pretrain(parsed):
        _required(reading, parsed)
    world = _world(reading, parsed, world, nodes, defaults)
    per_device = configured // world.size
    reading.step(PER_DEVICE, (configured, world.size), per_device)
    if per_device == 0:
        fixed = fix(parsed, GLOBAL, world.size * micro)
        reading.add(NOTHING_PER_DEVICE(Empty(configured, world.size), message=PER_DEVICE_MESSAGE, fix=fixed))
        return reading.finish(world, data_parallel=world.size, micro_batch=micro, seq_len=seq_len)
    accumulation = per_device // micro
    reading.step(ACCUMULATION, (per_device, micro), accumulation)
    if accumulation == 0:
        fixed = fix(parsed, MICRO, per_device)
        reading.add(MICRO_TOO_LARGE(MicroTooLarge(per_device, micro), message=ACCUMULATION_MESSAGE, fix=fixed))
        return reading.finish(world, data_parallel=world.size, micro_batch=micro, seq_len=seq_len)
    batch = micro * accumulation * world.size
    reading.step(Derivation.B_PRODUCT, (micro, world.size, accumulation), batch)
    _floors(reading, parsed, configured, world.size, per_device, micro, accumulation)
    if nodes > 1:
        _per_machine(reading, configured, micro, world.size // nodes, nodes, batch)
    if seq_len is not None:
        reading.step(Derivation.T_PRODUCT, (batch, seq_len), batch * seq_len)
    return reading.finish(
        world,
        data_parallel=world.size,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
        intended=configured if batch != configured else None,
    )


def _batch_value(reading: Reading, parsed: Parsed, key: str, default: int, where: str) -> int:
    """The value as written, else the command's default (recorded with the line that sets it)."""
    value = reading.value(parsed, key)
    if value is None:
        reading.note(key, default, where)
        return default
    return value


def _required(reading: Reading, parsed: Parsed) -> None:
    """``validate_args``: ``max_tokens`` and ``max_norm`` written as null (absent: the setup's default)."""
    train = parsed.data.get("train") or {}
    for key in ("max_tokens", "max_norm"):
        if key in train and train[key] is None:
            reading.add(REQUIRED(Required(f"train.{key}"), message=REQUIRED_MESSAGE.format(key=key)))


def _world(reading: Reading, parsed: Parsed, given: World | None, nodes: int, defaults: Defaults) -> World:
    """devices × num_nodes as the config says; ``auto``/-1: the GPUs of the machine, which only you know."""
    devices = reading.raw(parsed, "devices")
    if devices is None:
        devices = defaults.devices
        reading.note("devices", devices, defaults.where)
    if devices in ("auto", -1):
        world = reading.world(given)
        reading.add(DEVICES_AUTO(DevicesAuto(world.size)))
        return world
    count = whole(devices, "devices", parsed.where("devices"))
    if given is not None:
        return reading.world(given)
    reading.step(Derivation.WORLD, (nodes, count), nodes * count)
    return reading.world(World(nodes * count, f"num_nodes × devices, {parsed.source.name}"))


def _floors(
    reading: Reading, parsed: Parsed, configured: int, world: int, per_device: int, micro: int, accumulation: int
) -> None:
    """Each floor that drops sequences, with the global batches nearest to what was written that drop none."""
    fixed = fix(parsed, GLOBAL, *neighbours(configured, world * micro))
    if configured % world:
        reading.add(PER_DEVICE_FLOORED(PerDevice(configured, world, per_device), fix=fixed))
    if per_device % micro:
        context = Accumulation(per_device, micro, accumulation, micro * accumulation)
        reading.add(ACCUMULATION_FLOORED(context, fix=None if configured % world else fixed))


def _per_machine(reading: Reading, configured: int, micro: int, devices: int, nodes: int, batch: int) -> None:
    """Up to v0.5.7 the same file trained ``global // devices`` a device on every node: num_nodes times more."""
    old = micro * (configured // devices // micro) * devices * nodes
    if old not in (0, batch):
        reading.add(PER_MACHINE(PerMachine(nodes, old)))

"""Levanter's batch arithmetic (stanford-crfm/levanter at 9263f81e, September 2025, ``src/levanter/``; the same in
marin-community/marin's ``lib/levanter``, whose mesh is ``trainer.mesh``).

- ``trainer.py:822-839``: the data axis is the devices divided by ``model_axis_size`` (replica axes are data parallel
  too); ``:911-913`` refuses a model axis that does not divide the devices. marin's ``utils/mesh.py``: the one axis
  of ``trainer.mesh.axes`` set to -1 (``data`` by default) takes the devices the others leave; d is the product of
  the batch axes (``replica_dcn``, ``replica``, ``data``).
- ``trainer.py:922-951`` ``_validate_and_set_defaults``: ``per_device_parallelism`` -1 (the default) becomes
  ``train_batch_size // data_axis_size`` (so B < d divides by zero: a crash, not a message); then B must be
  divisible by ``per_device_parallelism · data_axis_size``; ``train_batch_size: -1`` becomes b · d. Default B 512.
- ``grad_accum.py:82``: a = B // (b · d).
- A schedule (``train_batch_size: [{start, value}, …]``, starts in steps): with ``per_device_parallelism`` set each
  phase must divide by b · d; without it there is no micro-batching (b = phase / d) and ``data/loader.py:141-195``
  refuses a phase d does not divide, or pads it with zero examples under ``allow_nondivisible_batch_size``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

from effbatch.core.configs.base.errors import CheckError, ProblemKind
from effbatch.core.configs.base.results import Check, Derivation, Phase, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, lookup, neighbours, whole, world_fix
from effbatch.core.configs.base.versions import Pins

ID = "levanter"
DEFAULT_BATCH = 512  # trainer.py:694
#: Model sequence lengths by model type where the config leaves them out (models/gpt2.py:37, models/llama.py:54).
DEFAULT_SEQ_LEN = {"gpt2": 1024, "llama": 2048}
MAX_PHASES = 64
DATA_AXIS = "levanter/data_axis"  # d = devices / model_axis_size
MESH_AXIS = "levanter/mesh_axis"  # d = devices / (product of the other mesh axes)
PER_DEVICE = "levanter/per_device"  # b = B // d
BATCH_FROM_PER_DEVICE = "levanter/batch_from_per_device"  # B = b · d
OWN_KEYS = frozenset(
    {
        "train_batch_size",
        "per_device_parallelism",
        "per_device_eval_parallelism",
        "model_axis_size",
        "fsdp_axis",
        "tensor_parallel_axes",
        "batch_axis",
        "replica_ici_axis_size",
        "replica_dcn_axis_size",
        "num_train_steps",
        "mp",
    }
)
DIVISIBLE_MESSAGE = (
    "train_batch_size ({gbs}) must be divisible by per_device_parallelism * data_axis_size ({micro}, {dp})"
)
PHASE_MESSAGE = (
    "At step {start}, train_batch_size ({gbs}) must be divisible by per_device_parallelism * data_axis_size "
    "({micro}, {dp})"
)
NEITHER_MESSAGE = "either train_batch_size or per_device_parallelism must be specified (not -1)"
MODEL_AXIS_MESSAGE = "num_devices ({world}) is not divisible by model_axis_size ({model})"
ICI_DIVIDE_MESSAGE = "ICI product {product} does not divide devices_per_slice {world}."
ICI_EQUAL_MESSAGE = "ICI product {product} must equal devices_per_slice {world}."
LOADER_MESSAGE = (
    "Batch size {gbs} is not divisible by data axis size {dp}. This will lead to incorrect sharding. Set "
    "allow_non_divisible_batch_size=True to allow this."
)
PADDING_MESSAGE = (
    "Padding batch size {gbs} to {padded} to be divisible by data axis size {dp}. This results in a per-device batch "
    "size of {micro}. (Extra data is zeros.)"
)
MESH_AXES = {"data": -1, "replica": 1, "model": 1}  # marin utils/mesh.py DEFAULT_ICI_AXIS_SPEC
BATCH_AXES = ("replica_dcn", "replica", "data")  # DEFAULT_DP_AXES; one slice: replica_dcn = 1


@context
class Divisor:
    gbs: int
    micro: int
    data_parallel: int


@context
class PhaseDivisor:
    start: int
    gbs: int
    micro: int
    data_parallel: int


@context
class Below:
    gbs: int
    data_parallel: int


@context
class Axis:
    world: int
    model: int


@context
class Mesh:
    product: int
    world: int


@context
class Padded:
    start: int
    gbs: int
    padded: int


@context
class Loader:
    start: int
    gbs: int
    data_parallel: int


@context
class FromPerDevice:
    micro: int
    data_parallel: int
    gbs: int


@context
class Default:
    gbs: int


@context
class Phases:
    phases: int


DIVISIBLE = Rule("levanter/batch-divisible", Effect.REFUSED, Divisor)
BELOW = Rule("levanter/batch-below-data-axis", Effect.REFUSED, Below)
PHASE = Rule("levanter/phase-divisible", Effect.REFUSED, PhaseDivisor)
NEITHER = Rule("levanter/batch-or-per-device", Effect.REFUSED, Nothing)
MODEL_AXIS = Rule("levanter/model-axis-divisible", Effect.REFUSED, Axis)
MESH = Rule("levanter/mesh-axes", Effect.REFUSED, Mesh)
LOADER = Rule("levanter/phase-divisible-by-data-axis", Effect.REFUSED, Loader)
PADDED = Rule("levanter/padded-with-zeros", Effect.PITFALL, Padded)
FROM_PER_DEVICE = Rule("levanter/batch-from-per-device", Effect.NOTE, FromPerDevice)
DEFAULT = Rule("levanter/default-batch-size", Effect.NOTE, Default)
NO_MICROBATCHING = Rule("levanter/schedule-without-microbatching", Effect.NOTE, Phases)
RULES = (
    DIVISIBLE,
    BELOW,
    PHASE,
    NEITHER,
    MODEL_AXIS,
    MESH,
    LOADER,
    PADDED,
    FROM_PER_DEVICE,
    DEFAULT,
    NO_MICROBATCHING,
)


def detect(parsed: Parsed) -> bool:
    """A YAML whose ``trainer:`` holds Levanter's own keys (Lightning's trainer has none of them)."""
    trainer = parsed.data.get("trainer")
    if parsed.format is not Format.YAML or not isinstance(trainer, dict):
        return False
    mesh = trainer.get("mesh")
    return bool(OWN_KEYS & set(trainer)) or (isinstance(mesh, dict) and "axes" in mesh)


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading = Reading(ID, pins)
    written = reading.raw(parsed, "trainer.train_batch_size")
    micro = _per_device(reading, parsed)
    seq_len = _seq_len(reading, parsed)
    world = reading.world(world)
    data_parallel = _data_axis(reading, parsed, world.size)
    if data_parallel is None:
        return reading.finish(world, seq_len=seq_len)
    if isinstance(written, list):
        return _schedule(reading, parsed, world, written, micro, data_parallel, seq_len)
    gbs = _batch(reading, parsed, written)
    if gbs == -1 and micro == -1:
        reading.add(NEITHER(Nothing(), message=NEITHER_MESSAGE))
        return reading.finish(world, data_parallel=data_parallel, seq_len=seq_len)
    if gbs == -1:
        gbs = micro * data_parallel
        reading.step(BATCH_FROM_PER_DEVICE, (micro, data_parallel), gbs)
        reading.add(FROM_PER_DEVICE(FromPerDevice(micro, data_parallel, gbs)))
    derived = micro == -1
    if derived:
        if gbs < data_parallel:
            reading.add(BELOW(Below(gbs, data_parallel), fix=fix(parsed, "train_batch_size", data_parallel)))
            return reading.finish(world, data_parallel=data_parallel, seq_len=seq_len)
        micro = gbs // data_parallel
        reading.step(PER_DEVICE, (gbs, data_parallel), micro)
    accumulation = _divisible(reading, parsed, (gbs, micro, data_parallel), derived)
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=gbs if accumulation is not None else None,  # refused where B does not divide
        seq_len=seq_len,
    )


def _per_device(reading: Reading, parsed: Parsed) -> int:
    """``per_device_parallelism``: -1 (the default: B // d) or a whole number from 1."""
    micro = reading.value(parsed, "trainer.per_device_parallelism", minimum=None)
    if micro is None or micro == -1:
        return -1
    return whole(micro, "trainer.per_device_parallelism", parsed.where("per_device_parallelism"))


def _batch(reading: Reading, parsed: Parsed, written: Any) -> int:
    """``train_batch_size``: a whole number, -1 (b · d), or 512 where it is left out (noted)."""
    if written is None:
        reading.add(DEFAULT(Default(DEFAULT_BATCH)))
        return DEFAULT_BATCH
    return whole(written, "trainer.train_batch_size", _where(parsed), minimum=-1)


def _where(parsed: Parsed) -> str:
    return parsed.where("train_batch_size")


def _seq_len(reading: Reading, parsed: Parsed) -> int | None:
    """``model.seq_len`` (old), ``model.max_seq_len`` (marin), a top-level ``train_seq_len`` (marin) or
    ``max_train_length`` (the LoRA configs), else the model type's default."""
    for path in ("model.seq_len", "model.max_seq_len", "train_seq_len", "max_train_length"):
        if (value := reading.value(parsed, path)) is not None:
            return value
    return DEFAULT_SEQ_LEN.get(str(lookup(parsed.data, "model.type")))


def _data_axis(reading: Reading, parsed: Parsed, world: int) -> int | None:
    """d: the devices over the model axis (``model_axis_size``), or the batch axes of marin's ``trainer.mesh``."""
    axes = lookup(parsed.data, "trainer.mesh.axes")
    if isinstance(axes, dict):
        return _mesh(reading, parsed, world, axes)
    model = reading.value(parsed, "trainer.model_axis_size") or 1
    if world % model:
        message = MODEL_AXIS_MESSAGE.format(world=world, model=model)
        reading.add(MODEL_AXIS(Axis(world, model), message=message, fix=world_fix(*neighbours(world, model))))
        return None
    reading.step(DATA_AXIS, (world, model), world // model)
    return world // model


def _mesh(reading: Reading, parsed: Parsed, world: int, given: Mapping[str, Any]) -> int | None:
    """marin's ``axis_shapes``: the one -1 axis takes the devices the others leave (one slice)."""
    where = parsed.where("axes")
    axes = {**MESH_AXES, **{str(k): whole(v, f"trainer.mesh.axes.{k}", where, minimum=-1) for k, v in given.items()}}
    reading.note("trainer.mesh.axes", given, where)
    batch = lookup(parsed.data, "trainer.mesh.compute_mapping.batch")
    batch_axes = tuple(str(a) for a in batch) if isinstance(batch, list) else BATCH_AXES
    open_axes = [name for name, size in axes.items() if size == -1]
    if len(open_axes) > 1 or any(size == 0 for size in axes.values()):
        raise CheckError(ProblemKind.BAD_VALUE, key="trainer.mesh.axes", value=str(given)[:60], where=where)
    product = math.prod(size for size in axes.values() if size != -1)
    if world % product or (not open_axes and product != world):
        template = ICI_DIVIDE_MESSAGE if open_axes else ICI_EQUAL_MESSAGE
        message = template.format(product=product, world=world)
        fixed = world_fix(*neighbours(world, product)) if open_axes else world_fix(product)
        reading.add(MESH(Mesh(product, world), message=message, fix=fixed))
        return None
    sizes = {name: (world // product if size == -1 else size) for name, size in axes.items()}
    data_parallel = math.prod(sizes.get(name, 1) for name in batch_axes)
    reading.step(MESH_AXIS, (world, world // data_parallel), data_parallel)
    return data_parallel


def _divisible(reading: Reading, parsed: Parsed, sizes: tuple[int, int, int], derived: bool) -> int | None:
    """``train_batch_size % (per_device_parallelism · data_axis_size)``; a = B // (b · d) where it divides. Where b
    was derived as B // d, any multiple of d passes."""
    gbs, micro, data_parallel = sizes
    divisor = micro * data_parallel
    if gbs % divisor:
        message = DIVISIBLE_MESSAGE.format(gbs=gbs, micro=micro, dp=data_parallel)
        fixed = _fix(parsed, gbs, data_parallel if derived else divisor)
        reading.add(DIVISIBLE(Divisor(gbs, micro, data_parallel), message=message, fix=fixed))
        return None
    reading.step(Derivation.A_FROM_B, (gbs, micro, data_parallel), gbs // divisor)
    return gbs // divisor


def _fix(parsed: Parsed, gbs: int, divisor: int) -> Any:
    return fix(parsed, "train_batch_size", *neighbours(gbs, divisor))


def _schedule(
    reading: Reading,
    parsed: Parsed,
    world: World,
    written: list[Any],
    micro: int,
    data_parallel: int,
    seq_len: int | None,
) -> Check:
    """``[{start, value}, …]``: starts in steps, each phase until the next; b per phase where it is not set."""
    entries = _entries(parsed, written)
    refused = _phases_refused(reading, parsed, entries, micro, data_parallel)
    last = entries[-1][1]
    micro_last = micro if micro != -1 else last // data_parallel
    if micro == -1:
        reading.add(NO_MICROBATCHING(Phases(len(entries))))
    accumulation = None if refused or not micro_last else last // (micro_last * data_parallel)
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=micro_last,
        accumulation=accumulation,
        global_batch=None if accumulation is None else last,
        seq_len=seq_len,
        schedule=phases(entries),
    )


def _entries(parsed: Parsed, written: list[Any]) -> list[tuple[int, int]]:
    where = _where(parsed)
    entries: list[tuple[int, int]] = []
    for entry in written[: MAX_PHASES + 1]:
        if not isinstance(entry, dict) or "start" not in entry or "value" not in entry:
            raise CheckError(ProblemKind.BAD_VALUE, key="trainer.train_batch_size", value=str(entry)[:60], where=where)
        entries.append((whole(entry["start"], "start", where, minimum=0), whole(entry["value"], "value", where)))
    if not entries or entries[0][0] != 0 or any(b[0] <= a[0] for a, b in itertools.pairwise(entries)):
        raise CheckError(ProblemKind.BAD_VALUE, key="trainer.train_batch_size", value=str(written)[:60], where=where)
    return entries


def _phases_refused(
    reading: Reading, parsed: Parsed, entries: list[tuple[int, int]], micro: int, data_parallel: int
) -> bool:
    """With ``per_device_parallelism`` each phase divides by b · d (the trainer checks); without it the loader
    refuses a phase d does not divide, or pads it with zero examples where that is allowed."""
    allowed = lookup(parsed.data, "trainer.allow_nondivisible_batch_size") is True
    divisor = micro * data_parallel if micro != -1 else data_parallel
    for start, gbs in entries:
        if gbs % divisor == 0:
            continue
        if micro != -1:
            message = PHASE_MESSAGE.format(start=start, gbs=gbs, micro=micro, dp=data_parallel)
            reading.add(PHASE(PhaseDivisor(start, gbs, micro, data_parallel), message=message))
            return True
        if not allowed:
            message = LOADER_MESSAGE.format(gbs=gbs, dp=data_parallel)
            reading.add(LOADER(Loader(start, gbs, data_parallel), message=message))
            return True
        padded = -(-gbs // data_parallel) * data_parallel
        message = PADDING_MESSAGE.format(gbs=gbs, padded=padded, dp=data_parallel, micro=padded // data_parallel)
        reading.add(PADDED(Padded(start, gbs, padded), message=message))
    return False


def phases(entries: list[tuple[int, int]]) -> tuple[Phase, ...]:
    """Steps to sequences: a phase starts after the sequences of the ones before it (steps × their batch)."""
    result: list[Phase] = []
    consumed = 0
    for (start, gbs), after in zip(entries, [*entries[1:], None], strict=True):
        samples = None if after is None else (after[0] - start) * gbs
        result.append(Phase(consumed, gbs, samples))
        consumed += samples or 0
    return tuple(result)

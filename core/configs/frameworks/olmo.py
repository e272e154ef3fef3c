"""OLMo's batch arithmetic (allenai/OLMo ``scripts/train.py`` and ``olmo/train.py``).

``device_train_batch_size = global_train_batch_size // world_size`` and
``device_train_grad_accum = device_train_batch_size // device_train_microbatch_size``: both floored
without a word. Each device then trains on its device batch, so the global batch is
``device_train_batch_size · world_size`` (1.024 on 24 GPUs trains with 1.008). The trainer splits a
device batch into micro-batches of ``device_train_microbatch_size``; where that does not divide it,
the last one is smaller (42 in micro-batches of 4: ten of 4 and one of 2).
"""

from __future__ import annotations

from effbatch.core.configs.base.results import Check, World
from effbatch.core.configs.base.rules import Effect, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, neighbours
from effbatch.core.configs.base.versions import Pins

ID = "olmo"
DEFAULT_MICRO = 16  # olmo/config.py TrainConfig.device_train_microbatch_size
DEVICE = "olmo/device"  # device = G // world
MICROBATCHES = "olmo/microbatches"  # micro-batches a device = ⌈device / b⌉
BATCH = "olmo/batch"  # B = device · world


@context
class Floored:
    configured: int
    real: int
    world: int


@context
class Empty:
    configured: int
    world: int


@context
class Uneven:
    device: int
    micro: int
    full: int
    rest: int


FLOORED = Rule("olmo/floored", Effect.CHANGED, Floored)
NOTHING_PER_DEVICE = Rule("olmo/nothing-per-device", Effect.REFUSED, Empty)
UNEVEN = Rule("olmo/uneven-microbatches", Effect.PITFALL, Uneven)
RULES = (FLOORED, NOTHING_PER_DEVICE, UNEVEN)


def detect(parsed: Parsed) -> bool:
    """OLMo's own key names: ``global_train_batch_size`` or ``device_train_microbatch_size``."""
    return parsed.format in (Format.YAML, Format.JSON) and bool(
        {"global_train_batch_size", "device_train_microbatch_size"} & set(parsed.data)
    )


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading = Reading(ID, pins)
    configured = reading.value(parsed, "global_train_batch_size")
    micro = reading.value(parsed, "device_train_microbatch_size") or DEFAULT_MICRO
    seq_len = reading.value(parsed, "model.max_sequence_length")
    world = reading.world(world)
    if configured is None:
        return reading.finish(world, data_parallel=world.size, micro_batch=micro, seq_len=seq_len)
    device = configured // world.size
    reading.step(DEVICE, (configured, world.size), device)
    below, above = neighbours(configured, world.size)
    fixed = fix(parsed, "global_train_batch_size", below, above)
    if device == 0:
        reading.add(NOTHING_PER_DEVICE(Empty(configured, world.size), fix=fixed))
        return reading.finish(world, data_parallel=world.size, micro_batch=micro, seq_len=seq_len)
    batch = device * world.size
    if batch != configured:
        reading.add(FLOORED(Floored(configured, batch, world.size), fix=fixed))
    passes = -(-device // micro)
    reading.step(MICROBATCHES, (device, micro), passes)
    if device % micro:
        reading.add(UNEVEN(Uneven(device, micro, device // micro, device % micro)))
    reading.step(BATCH, (device, world.size), batch)
    even = device % micro == 0
    return finish_with_tokens(
        reading,
        world,
        data_parallel=world.size,
        micro_batch=micro,
        accumulation=passes if even else None,
        global_batch=batch,
        seq_len=seq_len,
        intended=configured if batch != configured else None,
    )

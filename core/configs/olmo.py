"""OLMo's batch arithmetic (allenai/OLMo ``scripts/train.py``).

``device_train_batch_size = global_train_batch_size // world_size`` and
``device_train_grad_accum = device_train_batch_size // device_train_microbatch_size``: both floored
without a word. Each device then trains on its device batch, so the global batch is
``device_train_batch_size · world_size`` (1.024 on 24 GPUs trains with 1.008); a device batch the
micro-batch does not divide ends in a smaller micro-batch.
"""

from __future__ import annotations

from core.configs.common import Reading, check_data, neighbours, positive, require_world
from core.configs.model import Check, CheckError, Derivation, Framework, Level, ProblemKind, Rule, World
from core.configs.reading import Format, Parsed


def check(sources: list[Parsed], world: World | None) -> Check:
    parsed = next(
        (p for p in sources if p.format in (Format.YAML, Format.JSON) and "global_train_batch_size" in p.data), None
    )
    if parsed is None:
        raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[p.source.name for p in sources])
    reading = Reading(Framework.OLMO)

    def value(path: str) -> int | None:
        return positive(reading.key(parsed, path), path, parsed.where(path.rsplit(".", 1)[-1]))

    configured = value("global_train_batch_size")
    micro = value("device_train_microbatch_size") or 16  # OLMo's TrainConfig default
    seq_len = value("model.max_sequence_length")
    assert configured is not None  # found above
    world = require_world(world, Framework.OLMO)
    reading.note("world_size", world.size, world.where)
    device = configured // world.size
    reading.step(Derivation.OLMO_DEVICE, (configured, world.size), device)
    if device == 0:
        _, above = neighbours(configured, world.size)
        reading.finding(Level.ERROR, Rule.OLMO_FLOORED, configured=configured, real=0, world=world.size, above=above)
        return Check(**check_data(Framework.OLMO, reading, world, **_unknown(world.size, micro, seq_len)))
    accumulation = device // micro
    reading.step(Derivation.OLMO_ACCUMULATION, (device, micro), accumulation)
    batch = device * world.size
    reading.step(Derivation.OLMO_BATCH, (device, world.size), batch)
    if batch != configured:
        below, above = neighbours(configured, world.size)
        reading.finding(
            Level.ERROR,
            Rule.OLMO_FLOORED,
            configured=configured,
            real=batch,
            world=world.size,
            below=below,
            above=above,
        )
    if device % micro:
        reading.finding(Level.WARNING, Rule.OLMO_UNEVEN, device=device, micro=micro, rest=device % micro)
    if seq_len is not None:
        reading.step(Derivation.T_PRODUCT, (batch, seq_len), batch * seq_len)
    return Check(
        **check_data(
            Framework.OLMO,
            reading,
            world,
            data_parallel=world.size,
            micro_batch=micro,
            accumulation=max(accumulation, 1),
            global_batch=batch,
            seq_len=seq_len,
        )
    )


def _unknown(data_parallel: int, micro: int, seq_len: int | None) -> dict[str, int | None]:
    return {
        "data_parallel": data_parallel,
        "micro_batch": micro,
        "accumulation": None,
        "global_batch": None,
        "seq_len": seq_len,
    }

"""torchtitan's batch arithmetic, in both configurations users run (2025–2026).

- TOML (``[training]``/``[parallelism]``, torchtitan until its config refactor of February 2026):
  ``local_batch_size`` per device (the older ``batch_size`` is that, without accumulation),
  ``global_batch_size`` (-1: local · d, one step), ``seq_len``; ``train.py`` asserts that the global
  batch is a multiple of local · d ("global batch size must be multiple of local batch size times
  data-parallel degree") and accumulates global // (local · d).
- Token-based (main of August 2026, ``trainer.py``): ``num_tokens_per_microbatch_per_dp_rank`` ·
  PP micro-batches · d tokens per accumulation step; ``num_tokens_per_train_step`` (-1: one step)
  must be a multiple of it; ``max_context_length`` is the sequence length.
- Python config registries (``config_registry.py``, since the refactor): the keyword arguments of
  ``TrainingConfig(...)`` and ``ParallelismConfig(...)`` in the file's first config function, read
  with ``ast``; what later functions or assignments change is not followed.
- ``ParallelDims``: ``data_parallel_shard_degree`` -1 means the rest of the world; replicate · shard
  · CP · TP · PP must equal the world size ("Invalid parallel dims"); d = replicate · shard.
"""

from __future__ import annotations

from typing import Protocol

from core.configs.common import Reading, check_data, neighbours, positive, require_world
from core.configs.model import Check, CheckError, Derivation, Framework, Level, ProblemKind, Rule, World
from core.configs.reading import Format, Parsed


class Value(Protocol):
    """A config value by its dotted path, recorded as read; ``default`` where the key is absent."""

    def __call__(self, path: str, default: int | None = None) -> int | None: ...


DIMS_MESSAGE = (
    "Invalid parallel dims: dp_replicate({replicate}) * dp_shard({shard}) * cp({cp}) * tp({tp}) * pp({pp}) "
    "!= WORLD_SIZE({world})"
)
GBS_MESSAGE = (
    "global batch size must be multiple of local batch size times data-parallel degree ({gbs} % ({local} * {dp}) != 0)"
)
TOKENS_MESSAGE = (
    "training.num_tokens_per_train_step ({tokens}) must be divisible by the number of tokens processed globally "
    "in one gradient accumulation iteration ({per_step})."
)


def check(sources: list[Parsed], world: World | None) -> Check:
    parsed = next(
        (p for p in sources if p.format in (Format.TOML, Format.PYTHON) and isinstance(p.data.get("training"), dict)),
        None,
    )
    if parsed is None:
        raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[p.source.name for p in sources])
    reading = Reading(Framework.TORCHTITAN)
    if (count := parsed.data.get("registry_functions", 0)) > 1:
        reading.finding(Level.INFO, Rule.TITAN_REGISTRY, function=parsed.data["registry_function"], count=count)

    value = _reader(reading, parsed)

    degrees = {
        name: value(f"parallelism.{key}", 1) or 1
        for name, key in (
            ("tp", "tensor_parallel_degree"),
            ("pp", "pipeline_parallel_degree"),
            ("cp", "context_parallel_degree"),
        )
    }
    replicate = value("parallelism.data_parallel_replicate_degree", 1) or 1
    shard = value("parallelism.data_parallel_shard_degree", -1)
    world = require_world(world, Framework.TORCHTITAN)
    reading.note("world_size", world.size, world.where)
    others = replicate * degrees["cp"] * degrees["tp"] * degrees["pp"]
    explicit = shard is not None and shard >= 1
    if shard is None or shard < 0:
        shard = world.size // others
    if shard < 1 or shard * others != world.size:
        message = DIMS_MESSAGE.format(replicate=replicate, shard=shard, world=world.size, **degrees)
        # a shard degree given: exactly that product of degrees; -1: any multiple of the others
        below, above = (shard * others, None) if explicit else neighbours(world.size, others)
        reading.finding(Level.ERROR, Rule.TITAN_DIMS, message=message, below=below, above=above)
        return Check(**check_data(Framework.TORCHTITAN, reading, world, **_unknown()))
    data_parallel = replicate * shard
    reading.step(
        Derivation.DP_TITAN, (replicate, shard, world.size, degrees["cp"], degrees["tp"], degrees["pp"]), data_parallel
    )
    if value("training.num_tokens_per_microbatch_per_dp_rank") is not None:
        return _tokens(reading, parsed, world, data_parallel, degrees["pp"], value)
    return _batches(reading, parsed, world, data_parallel, value)


def _reader(reading: Reading, parsed: Parsed) -> Value:
    """Values by path, each recorded as read once however often the rules ask for it."""
    seen: dict[str, int | str | None] = {}

    def value(path: str, default: int | None = None) -> int | None:
        if path not in seen:
            seen[path] = reading.key(parsed, path)
        given = seen[path]
        if given is None:
            return default
        assert isinstance(given, int)  # no "auto" here
        return given

    return value


def _batches(reading: Reading, parsed: Parsed, world: World, data_parallel: int, value: Value) -> Check:
    local = value("training.local_batch_size")
    if local is None:
        local = value("training.batch_size")
        if local is not None:
            reading.finding(Level.INFO, Rule.TITAN_LEGACY, local=local)
    local = positive(local if local is not None else 8, "training.local_batch_size", parsed.source.name)
    assert local is not None
    seq_len = value("training.seq_len", 2048)
    gbs = value("training.global_batch_size", -1)
    if gbs is None or gbs < 0:
        gbs = local * data_parallel
    divisor = local * data_parallel
    if gbs % divisor:
        below, above = neighbours(gbs, divisor)
        message = GBS_MESSAGE.format(gbs=gbs, local=local, dp=data_parallel)
        reading.finding(Level.ERROR, Rule.TITAN_GBS, message=message, below=below, above=above)
        return Check(**check_data(Framework.TORCHTITAN, reading, world, **_unknown(data_parallel, local, seq_len)))
    accumulation = gbs // divisor
    reading.step(Derivation.A_FROM_B, (gbs, local, data_parallel), accumulation)
    if seq_len:
        reading.step(Derivation.T_PRODUCT, (gbs, seq_len), gbs * seq_len)
    return Check(
        **check_data(
            Framework.TORCHTITAN,
            reading,
            world,
            data_parallel=data_parallel,
            micro_batch=local,
            accumulation=accumulation,
            global_batch=gbs,
            seq_len=seq_len,
        )
    )


def _tokens(reading: Reading, parsed: Parsed, world: World, data_parallel: int, pp: int, value: Value) -> Check:
    """The token-based configuration of torchtitan's main: everything counted in token slots."""
    per_microbatch = value("training.num_tokens_per_microbatch_per_dp_rank") or 1
    seq_len = value("training.max_context_length", 2048) or 2048
    pp_microbatches = (value("parallelism.num_pp_microbatches", 1) or 1) if pp > 1 else 1
    per_step = per_microbatch * pp_microbatches * data_parallel
    tokens = value("training.num_tokens_per_train_step", -1)
    if tokens is None or tokens < 0:
        tokens = per_step
    if tokens % per_step:
        below, above = neighbours(tokens, per_step)
        message = TOKENS_MESSAGE.format(tokens=tokens, per_step=per_step)
        reading.finding(Level.ERROR, Rule.TITAN_TOKENS, message=message, below=below, above=above)
        return Check(**check_data(Framework.TORCHTITAN, reading, world, **_unknown(data_parallel, None, seq_len)))
    accumulation = tokens // per_step
    reading.step(Derivation.TITAN_ACCUMULATION, (tokens, per_microbatch, pp_microbatches, data_parallel), accumulation)
    micro = max(per_microbatch // seq_len, 1)
    return Check(
        **check_data(
            Framework.TORCHTITAN,
            reading,
            world,
            data_parallel=data_parallel,
            micro_batch=micro,
            accumulation=accumulation,
            global_batch=tokens // seq_len,
            seq_len=seq_len,
        )
    )


def _unknown(
    data_parallel: int | None = None, micro: int | None = None, seq_len: int | None = None
) -> dict[str, int | None]:
    return {
        "data_parallel": data_parallel,
        "micro_batch": micro,
        "accumulation": None,
        "global_batch": None,
        "seq_len": seq_len,
    }

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

from dataclasses import replace

from effbatch.core.configs.base.memory import MemoryFacts
from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, lookup, neighbours, world_fix
from effbatch.core.configs.base.versions import Pins

ID = "torchtitan"
ACCUMULATION_TOKENS = "torchtitan/accumulation"  # a = T / (tokens per microbatch · PP microbatches · d)


@context
class Legacy:
    local: int


@context
class Registry:
    function: str
    count: int


DIMS = Rule("torchtitan/parallel-dims", Effect.REFUSED, Nothing)
GBS = Rule("torchtitan/global-batch-size-divisible", Effect.REFUSED, Nothing)
TOKENS = Rule("torchtitan/tokens-per-step-divisible", Effect.REFUSED, Nothing)
LEGACY = Rule("torchtitan/batch-size-is-local", Effect.NOTE, Legacy)
REGISTRY = Rule("torchtitan/first-config-of-registry", Effect.NOTE, Registry)
RULES = (DIMS, GBS, TOKENS, LEGACY, REGISTRY)


#: Keys of torchtitan's ``[training]`` section no other TOML config uses together with a batch.
OWN_TRAINING_KEYS = frozenset(
    {
        "local_batch_size",
        "global_batch_size",
        "seq_len",
        "num_tokens_per_train_step",
        "num_tokens_per_microbatch_per_dp_rank",
        "max_norm",
    }
)


def detect(parsed: Parsed) -> bool:
    """A TOML with ``[training]`` and ``[parallelism]`` or ``[job]``, or a registry's ``TrainingConfig(...)``."""
    data = parsed.data
    if parsed.format is Format.TOML:
        training = data.get("training")
        return isinstance(training, dict) and bool(OWN_TRAINING_KEYS & set(training))
    return parsed.format is Format.PYTHON and isinstance(data.get("training"), dict)


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


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading = Reading(ID, pins)
    if (count := parsed.data.get("registry_functions", 0)) > 1:
        reading.add(REGISTRY(Registry(str(parsed.data["registry_function"]), count)))
    tp, pp, cp = (
        reading.value(parsed, f"parallelism.{key}") or 1
        for key in ("tensor_parallel_degree", "pipeline_parallel_degree", "context_parallel_degree")
    )
    replicate = reading.value(parsed, "parallelism.data_parallel_replicate_degree") or 1
    shard = reading.value(parsed, "parallelism.data_parallel_shard_degree", minimum=-1)
    world = reading.world(world)
    others = replicate * cp * tp * pp
    explicit = shard is not None and shard >= 1
    if shard is None or shard < 1:
        shard = world.size // others
    if shard < 1 or shard * others != world.size:
        message = DIMS_MESSAGE.format(replicate=replicate, shard=shard, world=world.size, tp=tp, pp=pp, cp=cp)
        # a shard degree given: exactly that product of degrees; -1: any multiple of the others
        below, above = (shard * others, None) if explicit else neighbours(world.size, others)
        reading.add(DIMS(Nothing(), message=message, fix=world_fix(below, above)))
        return reading.finish(world)
    data_parallel = replicate * shard
    reading.step(Derivation.DP_TITAN, (replicate, shard, world.size, cp, tp, pp), data_parallel)
    if reading.value(parsed, "training.num_tokens_per_microbatch_per_dp_rank") is not None:
        found = _tokens(reading, parsed, world, data_parallel, pp)
    else:
        found = _batches(reading, parsed, world, data_parallel)
    return replace(found, memory_facts=_memory(parsed, (replicate, shard, tp, pp, cp)))


#: torchtitan's flavours of the models effbatch's table has (``torchtitan/models/<name>/__init__.py``): the same
#: shapes; ``_flex``/``_varlen`` change the attention kernel only.
FLAVOURS = {
    ("llama3", "8B"): "llama3.1-8b",
    ("llama3", "70B"): "llama3.1-70b",
    ("llama3", "405B"): "llama3.1-405b",
    ("llama2", "7B"): "llama2-7b",
    ("llama2", "13B"): "llama2-13b",
    ("llama2", "70B"): "llama2-70b",
    ("deepseek_v3", "671B"): "deepseek-v3",
}
#: ``[activation_checkpoint] mode``; older releases' ``selective`` with a layer interval is counted as selective;
#: ``none`` keeps every activation but no s × s scores (SDPA/FlashAttention): the convention's default.
_CHECKPOINTING = {"selective": "selective", "full": "full"}


def _memory(parsed: Parsed, degrees: tuple[int, int, int, int, int]) -> MemoryFacts | None:
    """``[model] name`` and ``flavor``: FSDP2 shards the model states over dp_shard · CP (ZeRO-3; replicas hold
    their own copy), TP (with its sequence-parallel norms) and PP split the model, ``[activation_checkpoint] mode``,
    ``mixed_precision_param``."""
    name, flavour = lookup(parsed.data, "model.name"), str(lookup(parsed.data, "model.flavor") or "")
    model = FLAVOURS.get((str(name), flavour.removesuffix("_flex").removesuffix("_varlen")))
    if model is None:
        return None
    replicate, shard, tp, pp, cp = degrees
    precision = str(lookup(parsed.data, "training.mixed_precision_param") or "bfloat16")
    mode = str(lookup(parsed.data, "activation_checkpoint.mode") or "selective")
    return MemoryFacts(
        rules="effbatch",
        where=parsed.where("flavor"),
        model=model,
        tp=tp,
        pp=pp,
        cp=cp,
        dtype="fp32" if precision == "float32" else "bf16",
        zero=3 if shard > 1 or cp > 1 else 0,
        replicas=replicate,
        recompute=_CHECKPOINTING.get(mode),
        sequence_parallel=tp > 1,  # its TP plan shards the norms' activations (SequenceParallel) along the sequence
        micro_setting=fix(parsed, "training.local_batch_size", 1),
    )


def _batches(reading: Reading, parsed: Parsed, world: World, data_parallel: int) -> Check:
    local = reading.value(parsed, "training.local_batch_size")
    if local is None and (local := reading.value(parsed, "training.batch_size")) is not None:
        reading.add(LEGACY(Legacy(local)))
    local = local or 8
    seq_len = reading.value(parsed, "training.seq_len") or 2048
    gbs = reading.value(parsed, "training.global_batch_size", minimum=-1)
    if gbs is None or gbs < 1:
        gbs = local * data_parallel
    divisor = local * data_parallel
    if gbs % divisor:
        below, above = neighbours(gbs, divisor)
        message = GBS_MESSAGE.format(gbs=gbs, local=local, dp=data_parallel)
        fixed = fix(parsed, "training.global_batch_size", below, above)
        reading.add(GBS(Nothing(), message=message, fix=fixed))
        return reading.finish(world, data_parallel=data_parallel, micro_batch=local, seq_len=seq_len)
    accumulation = gbs // divisor
    reading.step(Derivation.A_FROM_B, (gbs, local, data_parallel), accumulation)
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=local,
        accumulation=accumulation,
        global_batch=gbs,
        seq_len=seq_len,
    )


def _tokens(reading: Reading, parsed: Parsed, world: World, data_parallel: int, pp: int) -> Check:
    """The token-based configuration of torchtitan's main: everything counted in token slots."""
    per_microbatch = reading.value(parsed, "training.num_tokens_per_microbatch_per_dp_rank") or 1
    seq_len = reading.value(parsed, "training.max_context_length") or 2048
    pp_microbatches = (reading.value(parsed, "parallelism.num_pp_microbatches") or 1) if pp > 1 else 1
    per_step = per_microbatch * pp_microbatches * data_parallel
    tokens = reading.value(parsed, "training.num_tokens_per_train_step", minimum=-1)
    if tokens is None or tokens < 1:
        tokens = per_step
    if tokens % per_step:
        below, above = neighbours(tokens, per_step)
        message = TOKENS_MESSAGE.format(tokens=tokens, per_step=per_step)
        fixed = fix(parsed, "training.num_tokens_per_train_step", below, above)
        reading.add(TOKENS(Nothing(), message=message, fix=fixed))
        return reading.finish(world, data_parallel=data_parallel, seq_len=seq_len)
    accumulation = tokens // per_step
    reading.step(ACCUMULATION_TOKENS, (tokens, per_microbatch, pp_microbatches, data_parallel), accumulation)
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=max(per_microbatch // seq_len, 1),
        accumulation=accumulation,
        global_batch=tokens // seq_len,
        seq_len=seq_len,
    )

"""Nanotron's batch arithmetic (huggingface/nanotron at 2411b022, April 2026; ``src/nanotron/``).

- ``config/config.py:555-561``: ``global_batch_size = tokens.micro_batch_size ·
  tokens.batch_accumulation_per_replica · parallelism.dp``; d is ``parallelism.dp`` as written, TP, PP and CP
  add no samples. The accumulation is the pipeline's number of micro-batches (``trainer.py:531, 619-620``).
- ``parallel/context.py:23-28``: the processes torchrun starts must be exactly TP · PP · CP · DP
  ("TP*CP*DP*PP=…"), so the config fixes the world size itself.
- ``parallel/context.py:62-70`` lays the ranks out as (EP, PP, DP, CP, TP) while the assertion demands
  TP · PP · CP · DP processes: ``expert_parallel_size`` > 1 crashes in numpy's reshape.
- ``parallel/pipeline_parallel/engine.py:251-254``: 1F1B needs at least PP − 1 micro-batches.
- ``config/config.py:536-547`` (``Config.__post_init__``): the attention heads must divide by TP, the KV heads be
  at least TP.
- ``config/config.py:630-648``: the YAML is read by dacite with ``strict=True``: a key the dataclass does not
  have, or a required one missing (all four batch keys of ``tokens``, ``dp``/``pp``/``tp``), stops it.
"""

from __future__ import annotations

from collections.abc import Mapping

from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, lookup, world_fix
from effbatch.core.configs.base.versions import Pins

ID = "nanotron"
WORLD_FORMULA = "nanotron/world"  # GPUs = TP · PP · CP · DP
DP_WRITTEN = "nanotron/dp"  # d = parallelism.dp
#: The fields of TokensArgs and ParallelismArgs (config/config.py:339-350, config/parallelism_config.py:29-41).
SECTIONS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "parallelism": (
        ("dp", "pp", "tp"),
        (
            "pp_engine",
            "tp_mode",
            "tp_linear_async_communication",
            "recompute_layer",
            "tp_recompute_allgather",
            "expert_parallel_size",
            "context_parallel_size",
        ),
    ),
    "tokens": (
        ("sequence_length", "train_steps", "micro_batch_size", "batch_accumulation_per_replica"),
        ("val_check_interval", "limit_val_batches", "limit_test_batches"),
    ),
}
WORLD_MESSAGE = "TP*CP*DP*PP={tp}*{pp}*{cp}*{dp}={total} != WORLD_SIZE={world}"
ONE_F_ONE_B_MESSAGE = (
    "Number of microbatches ({a}) must be at least PP_SIZE-1={need} when using the OneForwardOneBackwardPipelineEngine"
)
HEADS_MESSAGE = "num_attention_heads ({heads}) must be divisible by tp ({tp})"
KV_HEADS_MESSAGE = "num_key_value_heads ({heads}) must be >= tp ({tp})"
UNKNOWN_MESSAGE = "can not match {keys} to any data class field"
MISSING_MESSAGE = 'missing value for field "{field}"'


@context
class Mismatch:
    total: int
    world: int


@context
class Microbatches:
    accumulation: int
    pp: int


@context
class Heads:
    heads: int
    tp: int


@context
class Key:
    key: str


@context
class Expert:
    ep: int


@context
class ContextParallel:
    cp: int
    world: int


WORLD = Rule("nanotron/world-size", Effect.REFUSED, Mismatch)
ONE_F_ONE_B = Rule("nanotron/1f1b-microbatches", Effect.REFUSED, Microbatches)
HEADS = Rule("nanotron/heads-divisible-by-tp", Effect.REFUSED, Heads)
KV_HEADS = Rule("nanotron/kv-heads-below-tp", Effect.REFUSED, Heads)
UNKNOWN = Rule("nanotron/unknown-key", Effect.REFUSED, Key)
MISSING = Rule("nanotron/missing-key", Effect.REFUSED, Key)
EXPERT = Rule("nanotron/expert-parallel", Effect.REFUSED, Expert)
CONTEXT = Rule("nanotron/context-parallel", Effect.NOTE, ContextParallel)
RULES = (WORLD, ONE_F_ONE_B, HEADS, KV_HEADS, UNKNOWN, MISSING, EXPERT, CONTEXT)


def detect(parsed: Parsed) -> bool:
    """Nanotron's own ``tokens.batch_accumulation_per_replica`` (``parallelism:`` alone is torchtitan's too)."""
    tokens = parsed.data.get("tokens")
    return (
        parsed.format in (Format.YAML, Format.JSON)
        and isinstance(tokens, dict)
        and ("batch_accumulation_per_replica" in tokens)
    )


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading = Reading(ID, pins)
    if _strict(reading, parsed):
        return reading.finish(world)
    dp, pp, tp = (reading.value(parsed, f"parallelism.{k}") or 1 for k in ("dp", "pp", "tp"))
    cp = reading.value(parsed, "parallelism.context_parallel_size") or 1
    ep = reading.value(parsed, "parallelism.expert_parallel_size") or 1
    micro = reading.value(parsed, "tokens.micro_batch_size") or 1
    accumulation = reading.value(parsed, "tokens.batch_accumulation_per_replica") or 1
    seq_len = reading.value(parsed, "tokens.sequence_length")
    _heads(reading, parsed, tp)
    total = tp * pp * cp * dp
    reading.step(WORLD_FORMULA, (tp, pp, cp, dp), total)
    world = World(total, f"TP · PP · CP · DP, {parsed.source.name}") if world is None else reading.world(world)
    if world.size != total:
        message = WORLD_MESSAGE.format(tp=tp, pp=pp, cp=cp, dp=dp, total=total, world=world.size)
        reading.add(WORLD(Mismatch(total, world.size), message=message, fix=world_fix(total)))
    if ep > 1:
        reading.add(EXPERT(Expert(ep)))
    if pp > 1 and str(lookup(parsed.data, "parallelism.pp_engine")).lower() == "1f1b" and accumulation < pp - 1:
        message = ONE_F_ONE_B_MESSAGE.format(a=accumulation, need=pp - 1)
        fixed = fix(parsed, "tokens.batch_accumulation_per_replica", pp - 1)
        reading.add(ONE_F_ONE_B(Microbatches(accumulation, pp), message=message, fix=fixed))
    if cp > 1:
        reading.add(CONTEXT(ContextParallel(cp, total)))
    reading.step(DP_WRITTEN, (dp,), dp)
    batch = micro * dp * accumulation
    if any(f.effect is Effect.REFUSED for f in reading.findings):
        return reading.finish(world, data_parallel=dp, micro_batch=micro, accumulation=accumulation, seq_len=seq_len)
    reading.step(Derivation.B_PRODUCT, (micro, dp, accumulation), batch)
    return finish_with_tokens(
        reading,
        world,
        data_parallel=dp,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
    )


def _strict(reading: Reading, parsed: Parsed) -> bool:
    """dacite's strict reading of ``parallelism`` and ``tokens``: an unknown key, then a missing required one."""
    for section, (required, optional) in SECTIONS.items():
        given = parsed.data.get(section)
        written = given if isinstance(given, dict) else {}
        unknown = [str(key) for key in written if key not in required + optional]
        if unknown:
            keys = ", ".join(f'"{key}"' for key in unknown)
            reading.note(f"{section}.{unknown[0]}", written[unknown[0]], parsed.where(unknown[0]))
            reading.add(UNKNOWN(Key(f"{section}.{unknown[0]}"), message=UNKNOWN_MESSAGE.format(keys=keys)))
            return True
        missing = next((key for key in required if written.get(key) is None), None)
        if missing is not None:
            field = f"{section}.{missing}"
            reading.add(MISSING(Key(field), message=MISSING_MESSAGE.format(field=field)))
            return True
    return False


def _heads(reading: Reading, parsed: Parsed, tp: int) -> None:
    """``Config.__post_init__``: the attention heads divide by TP, at least TP KV heads."""
    heads = reading.value(parsed, "model.model_config.num_attention_heads")
    kv_heads = reading.value(parsed, "model.model_config.num_key_value_heads")
    if heads is not None and heads % tp:
        largest = next(t for t in range(min(heads, tp, 1024), 0, -1) if heads % t == 0)
        message = HEADS_MESSAGE.format(heads=heads, tp=tp)
        reading.add(HEADS(Heads(heads, tp), message=message, fix=fix(parsed, "parallelism.tp", largest)))
    elif kv_heads is not None and kv_heads < tp:
        message = KV_HEADS_MESSAGE.format(heads=kv_heads, tp=tp)
        reading.add(KV_HEADS(Heads(kv_heads, tp), message=message, fix=fix(parsed, "parallelism.tp", kv_heads)))

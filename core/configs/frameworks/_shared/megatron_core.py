"""Megatron-Core's parallel layout and micro-batch calculator, as Megatron-LM, NeMo, Megatron-Bridge and
LLaMA-Factory's Megatron path all call them (``megatron/core/num_microbatches_calculator.py``,
``megatron/training/arguments.py``; main of August 2026).

- d = world // (TP · PP · CP), refused where TP · PP · CP does not divide the world size;
- ``ConstantNumMicroBatchesCalculator``: a = global // (micro-batch · d), refused where that is not whole;
- NeMo 1's YAML: a ``model`` section with Megatron's batch keys beside a ``trainer`` section.

The rules' codes are Megatron-LM's (``megatron/…``): each framework that calls this code reports them, or passes
its own rule where its code words the check itself.
"""

from __future__ import annotations

from typing import Any

from effbatch.core.configs.base.results import Derivation
from effbatch.core.configs.base.rules import Effect, Fix, Rule, context
from effbatch.core.configs.base.source import Parsed
from effbatch.core.configs.base.values import Reading, fix, neighbours, world_fix

GLOBAL = "--global-batch-size"
#: Phases of a ramp-up listed one by one; a longer ramp keeps its first ones and its end.
MAX_PHASES = 64
WORLD_MESSAGE = "world size ({world}) is not divisible by total_model_size (total_model_size={total})"
GBS_MESSAGE = "global batch size ({gbs}) is not divisible by micro batch size ({mbs}) times data parallel size ({dp})"
#: RampupBatchsizeNumMicroBatchesCalculator.update's own text (its missing space included).
RAMPUP_PHASE_MESSAGE = (
    "current global batch size ({gbs}) is not divisible by micro-batch-size ({mbs}) timesdata parallel size ({dp})"
)
RAMPUP_INTERVAL_MESSAGE = (
    "expected global batch size interval ({interval}) to be divisible by global batch size increment ({increment})"
)


@context
class ModelParallel:
    world: int
    total: int


@context
class Default:
    value: int


@context
class Divisor:
    gbs: int
    divisor: int


WORLD = Rule("megatron/world-size-divisible", Effect.REFUSED, ModelParallel)
DEFAULT_GBS = Rule("megatron/global-batch-size-default", Effect.NOTE, Default)


def model_parallel(
    reading: Reading,
    world: int,
    tp: int,
    pp: int,
    cp: int,
    rule: Rule[ModelParallel],
    template: str = WORLD_MESSAGE,
) -> int | None:
    """d = world // (TP · PP · CP), or a refusal when TP · PP · CP does not divide the world size; ``template`` is
    the message of the code that checks it (``world``, ``total``, ``tp``, ``pp``, ``cp``), Megatron-LM's by default."""
    total = tp * pp * cp
    if world % total:
        below, above = neighbours(world, total)
        message = template.format(world=world, total=total, tp=tp, pp=pp, cp=cp)
        reading.add(rule(ModelParallel(world, total), message=message, fix=world_fix(below, above)))
        return None
    reading.step(Derivation.DP_MODEL_PARALLEL, (world, tp, pp, cp), world // total)
    return world // total


def microbatches(
    reading: Reading,
    parsed: Parsed,
    gbs: int,
    micro: int,
    data_parallel: int,
    rule: Rule[Divisor],
    setting: str = GLOBAL,
    fixed: Fix | None = None,
    template: str = GBS_MESSAGE,
) -> int | None:
    """``ConstantNumMicroBatchesCalculator``: a = gbs // (mbs · d), refused when that is not whole.

    The fix offers the global batch sizes that would pass, or ``fixed`` where another setting decides it;
    ``template`` is the message of the code that checks it (``gbs``, ``mbs``, ``dp``, ``product``), Megatron-LM's
    by default.
    """
    divisor = micro * data_parallel
    if gbs % divisor or gbs < divisor:
        below, above = neighbours(gbs, divisor)
        message = template.format(gbs=gbs, mbs=micro, dp=data_parallel, product=divisor)
        fixed = fixed or fix(parsed, setting, below, above)
        reading.add(rule(Divisor(gbs, divisor), message=message, fix=fixed))
        return None
    reading.step(Derivation.A_FROM_B, (gbs, micro, data_parallel), gbs // divisor)
    return gbs // divisor


#: The keys of Megatron's batch that NeMo 1's ``model`` section carries.
MODEL_BATCH_KEYS = frozenset({"micro_batch_size", "global_batch_size"})
#: Megatron's parallel degrees as NeMo 1's ``model`` section names them (a model YAML that inherits the batch keys
#: through Hydra's ``defaults:`` still sets these).
MODEL_PARALLEL_KEYS = frozenset({"tensor_model_parallel_size", "pipeline_model_parallel_size"})


def nemo_yaml(data: dict[str, Any]) -> bool:
    """NeMo 1's YAML: a ``trainer`` section and a ``model`` section with Megatron's batch keys or parallel degrees."""
    model, trainer = data.get("model"), data.get("trainer")
    keys = MODEL_BATCH_KEYS | MODEL_PARALLEL_KEYS
    return isinstance(model, dict) and isinstance(trainer, dict) and bool(keys & set(model))

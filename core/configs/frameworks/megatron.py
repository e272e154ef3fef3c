"""Megatron-LM's batch arithmetic (``megatron/training/arguments.py``, ``megatron/core/num_microbatches_calculator.py``,
``megatron/core/parallel_state.py``; main of August 2026).

- ``validate_args``: world_size must be divisible by TP · PP · CP ("world size (…) is not divisible by
  total_model_size"); d = world_size // (TP · PP · CP). ``--sequence-parallel`` rides on the TP ranks
  and divides nothing. Without ``--global-batch-size`` it is micro-batch · d (one micro-batch).
- ``initialize_model_parallel``: world_size must be divisible by ETP · EP · PP (ETP defaults to TP);
  expert parallelism does not reduce the dense d.
- ``ConstantNumMicroBatchesCalculator``: the global batch must be divisible by micro-batch · d;
  micro-batches (accumulation) = global // (micro-batch · d).
- ``StepBatchsizeNumMicroBatchesCalculator`` (``--step-batch-size-schedule "0:768 250B:1536"``):
  thresholds in tokens (÷ ``--seq-length``) with K/M/B/T, the first 0, strictly increasing; each
  phase's batch must be divisible by micro-batch · d when it is reached; together with
  ``--global-batch-size`` it is refused.
- ``--num-layers`` must divide by the pipeline size unless the stages are given unevenly;
  ``--encoder-seq-length`` is the sequence length where ``--seq-length`` is absent. Megatron-DeepSpeed with
  ``--deepspeed`` (and without its ``--no-pipeline-parallel``) builds ``GPTModelPipe``, a DeepSpeed
  ``PipelineModule`` that balances the layers over the stages (``partition_method`` ``type:transformer`` or
  ``--pp-partition-method``; ``pretrain_gpt.py`` ``model_provider``, ``megatron/model/gpt_model.py``): there
  Megatron-LM's ``ParallelTransformer`` assert (``num_layers must be divisible by pipeline_model_parallel_size``)
  is never reached; each stage needs one of the layers the partition method counts.
- ``--rampup-batch-size <start> <increment> <samples>`` is deprecated and ignored by current
  Megatron-LM; releases before the step schedule ramped linearly
  (``RampupBatchsizeNumMicroBatchesCalculator``), which is the schedule shown.
"""

from __future__ import annotations

import itertools
import math
import re

from effbatch.core.configs.base.results import Check, ModelShape, Phase, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, neighbours, world_fix
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.base.world import program_flags
from effbatch.core.configs.frameworks._shared.megatron_core import (
    DEFAULT_GBS,
    GBS_MESSAGE,
    GLOBAL,
    MAX_PHASES,
    RAMPUP_INTERVAL_MESSAGE,
    RAMPUP_PHASE_MESSAGE,
    WORLD,
    Default,
    Divisor,
    microbatches,
    model_parallel,
)
from effbatch.core.configs.frameworks._shared.memory_facts import megatron_arguments, megatron_facts

ID = "megatron"
MICRO = "--micro-batch-size"
SEQ, ENCODER_SEQ = "--seq-length", "--encoder-seq-length"
LAYERS, HIDDEN, VOCAB = "--num-layers", "--hidden-size", "--vocab-size"
TRAIN_ITERS, TRAIN_SAMPLES = "--train-iters", "--train-samples"
TP, PP, CP = "--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--context-parallel-size"
EP, ETP = "--expert-model-parallel-size", "--expert-tensor-parallel-size"
SEQUENCE_PARALLEL = "--sequence-parallel"
RAMPUP = "--rampup-batch-size"
SCHEDULE = "--step-batch-size-schedule"
ARITY = {RAMPUP: 3}
#: Flags that give the pipeline stages unequal numbers of layers.
UNEVEN_STAGES = (
    "--decoder-first-pipeline-num-layers",
    "--decoder-last-pipeline-num-layers",
    "--pipeline-model-parallel-layout",
    "--account-for-embedding-in-pipeline-split",
    "--account-for-loss-in-pipeline-split",
)
#: Megatron-DeepSpeed: DeepSpeed's pipeline engine (``GPTModelPipe``) instead of Megatron's stages, unless switched off.
DEEPSPEED, NO_DEEPSPEED_PIPELINE, PARTITION = "--deepspeed", "--no-pipeline-parallel", "--pp-partition-method"

EXPERT_MESSAGE = "world_size ({world}) is not divisible by expert_tensor_model_pipeline_parallel size ({size})"
BOTH_MESSAGE = "Cannot specify both --step-batch-size-schedule and --global-batch-size"
RAMPUP_START_MESSAGE = "start batch size should be positive, got {start}."
_SUFFIXES = {"K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}


@context
class TensorParallel:
    tp: int


@context
class Expert:
    world: int
    size: int


@context
class Rampup:
    gbs: int


@context
class RampupInterval:
    start: int
    gbs: int
    increment: int


@context
class RampupStart:
    start: int


@context
class First:
    first: int


@context
class Entry:
    entry: str


@context
class PhaseDivisor:
    count: int
    start: int
    gbs: int
    divisor: int


@context
class Layers:
    layers: int
    pp: int


GBS = Rule("megatron/global-batch-size-divisible", Effect.REFUSED, Divisor)
SEQUENCE_PARALLEL_RULE = Rule("megatron/sequence-parallel", Effect.NOTE, TensorParallel)
SEQUENCE_PARALLEL_OFF = Rule("megatron/sequence-parallel-without-tensor-parallel", Effect.NOTE, Nothing)
EXPERT = Rule("megatron/expert-parallel-divisible", Effect.REFUSED, Expert)
RAMPUP_DEPRECATED = Rule("megatron/rampup-batch-size-deprecated", Effect.PITFALL, Rampup)
RAMPUP_INTERVAL = Rule("megatron/rampup-interval", Effect.PITFALL, RampupInterval)
RAMPUP_UNREADABLE = Rule("megatron/rampup-unreadable", Effect.PITFALL, Entry)
RAMPUP_START = Rule("megatron/rampup-start", Effect.PITFALL, RampupStart)
SCHEDULE_WITH_GBS = Rule("megatron/step-schedule-with-global-batch-size", Effect.REFUSED, Nothing)
SCHEDULE_START = Rule("megatron/step-schedule-first-threshold", Effect.REFUSED, First)
SCHEDULE_ORDER = Rule("megatron/step-schedule-increasing", Effect.REFUSED, Entry)
PHASE = Rule("megatron/phase-divisible", Effect.REFUSED, PhaseDivisor)
NUM_LAYERS = Rule("megatron/num-layers-divisible", Effect.REFUSED, Layers)
RULES = (
    WORLD,
    DEFAULT_GBS,
    GBS,
    SEQUENCE_PARALLEL_RULE,
    SEQUENCE_PARALLEL_OFF,
    EXPERT,
    RAMPUP_DEPRECATED,
    RAMPUP_INTERVAL,
    RAMPUP_UNREADABLE,
    RAMPUP_START,
    SCHEDULE_WITH_GBS,
    SCHEDULE_START,
    SCHEDULE_ORDER,
    PHASE,
    NUM_LAYERS,
)
MARKERS = frozenset({MICRO, GLOBAL, TP})


def detect(parsed: Parsed) -> bool:
    """A launch line or script with Megatron's own batch or tensor-parallel flags."""
    return parsed.format is Format.SHELL and bool(program_flags(parsed, (MICRO, GLOBAL, TP)).keys() & MARKERS)


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    found = program_flags(parsed, (MICRO, GLOBAL), ARITY)
    reading = Reading(ID, pins)
    micro = reading.flag(parsed, found, MICRO) or 1
    gbs = reading.flag(parsed, found, GLOBAL)
    seq_len = reading.flag(parsed, found, SEQ) or reading.flag(parsed, found, ENCODER_SEQ)
    tp, pp, cp = (reading.flag(parsed, found, name) or 1 for name in (TP, PP, CP))
    _sequence_parallel(reading, parsed, found, tp)
    layers = _layers(reading, parsed, found, pp)
    world = reading.world(world)
    data_parallel = model_parallel(reading, world.size, tp, pp, cp, WORLD)
    if data_parallel is None:
        return reading.finish(world, micro_batch=micro, seq_len=seq_len)
    _expert(reading, parsed, found, world.size, tp, pp)
    schedule, gbs = _schedules(reading, parsed, found, gbs, seq_len, micro, data_parallel)
    accumulation = microbatches(reading, parsed, gbs, micro, data_parallel, GBS)
    shape = _shape(reading, parsed, found, layers, gbs)
    memory = megatron_facts(megatron_arguments(found), parsed.where(LAYERS), fix(parsed, MICRO, 1))
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=gbs if accumulation is not None else None,
        seq_len=seq_len,
        schedule=schedule,
        shape=shape,
        memory=memory,
    )


def _shape(
    reading: Reading, parsed: Parsed, found: dict[str, list[str]], layers: int | None, gbs: int
) -> ModelShape | None:
    """--num-layers, --hidden-size and the length (--train-iters, or --train-samples / B) for the laws."""
    hidden = reading.flag(parsed, found, HIDDEN)
    steps = reading.flag(parsed, found, TRAIN_ITERS)
    if steps is None and (samples := reading.flag(parsed, found, TRAIN_SAMPLES)) is not None:
        steps = samples // gbs
    if layers is None or hidden is None or not steps:
        return None
    return ModelShape(layers, hidden, steps, reading.flag(parsed, found, VOCAB))


def _sequence_parallel(reading: Reading, parsed: Parsed, found: dict[str, list[str]], tp: int) -> None:
    if reading.present(parsed, found, SEQUENCE_PARALLEL):
        # megatron/training/arguments.py: "Disabling sequence parallelism because tensor model parallelism is disabled"
        reading.add(SEQUENCE_PARALLEL_RULE(TensorParallel(tp)) if tp > 1 else SEQUENCE_PARALLEL_OFF(Nothing()))


def _layers(reading: Reading, parsed: Parsed, found: dict[str, list[str]], pp: int) -> int | None:
    """Equal pipeline stages: --num-layers must divide by PP (DeepSpeed's balanced pipeline: one layer per stage)."""
    layers = reading.flag(parsed, found, LAYERS)
    if layers is None or pp == 1 or layers % pp == 0 or any(flag in found for flag in UNEVEN_STAGES):
        return layers
    if DEEPSPEED in found and NO_DEEPSPEED_PIPELINE not in found and _pipe_units(found, layers) >= pp:
        return layers
    below, above = neighbours(layers, pp)
    reading.add(NUM_LAYERS(Layers(layers, pp), fix=fix(parsed, LAYERS, below, above)))
    return layers


def _pipe_units(found: dict[str, list[str]], layers: int) -> int:
    """The layers DeepSpeed's ``partition_method`` spreads over the stages: ``type:transformer`` (Megatron-DeepSpeed's
    default) counts the transformer layers, a regex with ``embedding`` also the first and the tied last embedding;
    ``uniform`` or ``parameters`` split every layer, which no stage can lack."""
    method = (found.get(PARTITION) or ["type:transformer"])[-1].strip("'\"").lower()
    if not method.startswith("type:"):
        return layers + 2
    return layers + (2 if "embedding" in method else 0)


def _expert(reading: Reading, parsed: Parsed, found: dict[str, list[str]], world: int, tp: int, pp: int) -> None:
    """``initialize_model_parallel``: ETP · EP · PP must divide the world (expert parallelism leaves d as it is)."""
    ep, etp = reading.flag(parsed, found, EP) or 1, reading.flag(parsed, found, ETP)
    size = (etp or tp) * ep * pp
    if ep > 1 and world % size:
        below, above = neighbours(world, size)
        message = EXPERT_MESSAGE.format(world=world, size=size)
        reading.add(EXPERT(Expert(world, size), message=message, fix=world_fix(below, above)))


def _schedules(
    reading: Reading,
    parsed: Parsed,
    found: dict[str, list[str]],
    gbs: int | None,
    seq_len: int | None,
    micro: int,
    data_parallel: int,
) -> tuple[tuple[Phase, ...], int]:
    """The step schedule (refused beside --global-batch-size), the default of one micro-batch, a ramp-up."""
    schedule: tuple[Phase, ...] = ()
    if SCHEDULE in found:
        reading.note(SCHEDULE, " ".join(found[SCHEDULE]), parsed.where(SCHEDULE))
        if gbs is not None:
            reading.add(SCHEDULE_WITH_GBS(Nothing(), message=BOTH_MESSAGE))
        schedule = step_schedule(reading, " ".join(found[SCHEDULE]), seq_len, micro, data_parallel)
        gbs = schedule[-1].global_batch if schedule else gbs
    if gbs is None:
        gbs = micro * data_parallel
        reading.add(DEFAULT_GBS(Default(gbs)))
    if RAMPUP in found and SCHEDULE not in found:
        schedule = rampup_schedule(reading, parsed, found[RAMPUP], gbs, micro, data_parallel)
    return schedule, gbs


def step_schedule(
    reading: Reading, text: str, seq_len: int | None, micro: int, data_parallel: int
) -> tuple[Phase, ...]:
    """``--step-batch-size-schedule``: (threshold, batch) pairs; thresholds in tokens where the length is set."""
    entries: list[tuple[int, int]] = []
    for entry in text.replace(",", " ").split()[: MAX_PHASES + 1]:
        threshold_text, _, batch_text = entry.partition(":")
        threshold, batch = _schedule_number(threshold_text), _schedule_number(batch_text)
        if threshold is None or batch is None or batch < 1:
            reading.add(SCHEDULE_ORDER(Entry(entry[:60])))
            return ()
        entries.append((threshold, batch))
    entries.sort()
    if not entries or entries[0][0] != 0:
        reading.add(SCHEDULE_START(First(entries[0][0] if entries else 0)))
        return ()
    if any(later[0] <= earlier[0] for earlier, later in itertools.pairwise(entries)):
        reading.add(SCHEDULE_ORDER(Entry(text[:60])))
        return ()
    entries = [(threshold // seq_len if seq_len else threshold, batch) for threshold, batch in entries]
    phases = _phases(entries)
    _check_phases(reading, [(p.start, p.global_batch) for p in phases], micro, data_parallel)
    return phases


def rampup_schedule(
    reading: Reading, parsed: Parsed, values: list[str], gbs: int, micro: int, data_parallel: int
) -> tuple[Phase, ...]:
    """The linear ramp older Megatron-LM releases ran; current ones ignore the flag. Closed form: a ramp of
    10¹² steps is checked without listing them, and at most ``MAX_PHASES`` phases are kept."""
    reading.note(RAMPUP, " ".join(values), parsed.where(RAMPUP))
    numbers = [int(v) for v in values if re.fullmatch(r"\d(?:_?\d){0,12}", v)]  # argparse's int(): 9_765_625 too
    if len(numbers) != 3:
        reading.add(RAMPUP_UNREADABLE(Entry(" ".join(values)[:60])))
        return ()
    start, increment, samples = numbers
    reading.add(RAMPUP_DEPRECATED(Rampup(gbs)))
    if start < 1:
        reading.add(RAMPUP_START(RampupStart(start), message=RAMPUP_START_MESSAGE.format(start=start)))
        return ()
    if increment < 1 or gbs < start or (gbs - start) % increment:
        message = RAMPUP_INTERVAL_MESSAGE.format(interval=gbs - start, increment=increment)
        reading.add(RAMPUP_INTERVAL(RampupInterval(start, gbs, increment), message=message))
        return ()
    increments = (gbs - start) // increment
    if increments == 0:
        return ()
    _check_ramp(reading, (start, increment, increments, samples), micro, data_parallel)
    # current batch = start + int(consumed / per_increment) · increment; the full batch from ``samples`` on
    shown = [*range(min(increments, MAX_PHASES - 1)), increments]
    entries = [(math.ceil(i * samples / increments), start + i * increment) for i in shown]
    return _phases(entries)


def _check_ramp(reading: Reading, ramp: tuple[int, int, int, int], micro: int, data_parallel: int) -> None:
    """Which batches start + i · increment (i = 0 … increments) micro-batch · d does not divide, in closed form."""
    start, increment, increments, samples = ramp
    divisor = micro * data_parallel
    g = math.gcd(increment, divisor)
    period = divisor // g
    if start % g:
        good, first_good = 0, None
    else:
        first_good = (-(start // g) * pow(increment // g, -1, period)) % period if period > 1 else 0
        good = (increments - first_good) // period + 1 if first_good <= increments else 0
    bad = increments + 1 - good
    if bad == 0:
        return
    first = 0 if first_good != 0 else 1
    batch = start + first * increment
    at = math.ceil(first * samples / increments)
    message = RAMPUP_PHASE_MESSAGE.format(gbs=batch, mbs=micro, dp=data_parallel)
    reading.add(PHASE(PhaseDivisor(bad, at, batch, divisor), message=message))


def _phases(entries: list[tuple[int, int]]) -> tuple[Phase, ...]:
    ends = [start for start, _ in entries[1:]] + [None]
    return tuple(
        Phase(start, batch, None if end is None else end - start)
        for (start, batch), end in zip(entries, ends, strict=True)
    )


def _check_phases(reading: Reading, phases: list[tuple[int, int]], micro: int, data_parallel: int) -> None:
    """The batch of each phase must be divisible by micro-batch · d when training reaches it."""
    divisor = micro * data_parallel
    bad = [(start, batch) for start, batch in phases if batch % divisor]
    if bad:
        start, batch = bad[0]
        message = GBS_MESSAGE.format(gbs=batch, mbs=micro, dp=data_parallel)
        reading.add(PHASE(PhaseDivisor(len(bad), start, batch, divisor), message=message))


def _schedule_number(text: str) -> int | None:
    """Megatron's ``_parse_numeric_value``: a number with an optional K/M/B/T."""
    text = text.strip().upper()[:20]
    multiplier = _SUFFIXES.get(text[-1:], 1)
    number = text[:-1] if text[-1:] in _SUFFIXES else text
    try:
        value = int(float(number) * multiplier)
    except (ValueError, OverflowError):
        return None
    return value if 0 <= value <= 10**18 else None

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
- ``--rampup-batch-size <start> <increment> <samples>`` is deprecated and ignored by current
  Megatron-LM; releases before the step schedule ramped linearly
  (``RampupBatchsizeNumMicroBatchesCalculator``), which is the schedule shown.
"""

from __future__ import annotations

import itertools
import math

from core.configs.common import Reading, check_data, neighbours, program_flags, require_world
from core.configs.model import Check, CheckError, Derivation, Framework, Level, Phase, ProblemKind, Rule, World
from core.configs.reading import Format, Parsed

MICRO = "--micro-batch-size"
GLOBAL = "--global-batch-size"
SEQ = "--seq-length"
TP, PP, CP = "--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--context-parallel-size"
EP, ETP = "--expert-model-parallel-size", "--expert-tensor-parallel-size"
SEQUENCE_PARALLEL = "--sequence-parallel"
RAMPUP = "--rampup-batch-size"
SCHEDULE = "--step-batch-size-schedule"
DECREASE = "--decrease-batch-size-if-needed"
ARITY = {RAMPUP: 3}

WORLD_MESSAGE = "world size ({world}) is not divisible by total_model_size (total_model_size={total})"
EXPERT_MESSAGE = "world_size ({world}) is not divisible by expert_tensor_model_pipeline_parallel size ({size})"
GBS_MESSAGE = "global batch size ({gbs}) is not divisible by micro batch size ({mbs}) times data parallel size ({dp})"
BOTH_MESSAGE = "Cannot specify both --step-batch-size-schedule and --global-batch-size"
_SUFFIXES = {"K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}


def check(sources: list[Parsed], world: World | None) -> Check:
    parsed = next((p for p in sources if p.format is Format.SHELL and program_flags(p, (MICRO, GLOBAL))), None)
    if parsed is None:
        raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[p.source.name for p in sources])
    found = program_flags(parsed, (MICRO, GLOBAL), ARITY)
    reading = Reading(Framework.MEGATRON)
    micro = reading.flag(parsed, found, MICRO) or 1
    gbs = reading.flag(parsed, found, GLOBAL)
    seq_len = reading.flag(parsed, found, SEQ)
    tp, pp, cp = (reading.flag(parsed, found, name) or 1 for name in (TP, PP, CP))
    ep, etp = reading.flag(parsed, found, EP) or 1, reading.flag(parsed, found, ETP)
    if reading.present(parsed, found, SEQUENCE_PARALLEL):
        # megatron/training/arguments.py: "Disabling sequence parallelism because tensor model parallelism is disabled"
        rule = Rule.MEGATRON_SEQUENCE_PARALLEL if tp > 1 else Rule.MEGATRON_SEQUENCE_PARALLEL_OFF
        reading.finding(Level.INFO, rule, tp=tp)
    world = require_world(world, Framework.MEGATRON)
    reading.note("world_size", world.size, world.where)
    data_parallel = model_parallel(reading, world.size, tp, pp, cp, Rule.MEGATRON_WORLD)
    if data_parallel is None:
        return Check(**check_data(Framework.MEGATRON, reading, world, **_unknown(micro, seq_len)))
    if ep > 1 and world.size % ((etp or tp) * ep * pp):
        size = (etp or tp) * ep * pp
        reading.finding(Level.ERROR, Rule.MEGATRON_EXPERT, message=EXPERT_MESSAGE.format(world=world.size, size=size))
    schedule: tuple[Phase, ...] = ()
    if SCHEDULE in found:
        reading.note(SCHEDULE, " ".join(found[SCHEDULE]), parsed.where(SCHEDULE))
        if gbs is not None:
            reading.finding(Level.ERROR, Rule.MEGATRON_SCHEDULE_WITH_GBS, message=BOTH_MESSAGE)
        schedule = step_schedule(reading, " ".join(found[SCHEDULE]), seq_len, micro, data_parallel)
        gbs = schedule[-1].global_batch if schedule else gbs
    elif gbs is None:
        gbs = micro * data_parallel
        reading.finding(Level.INFO, Rule.MEGATRON_DEFAULT_GBS, value=gbs)
    if RAMPUP in found and gbs is not None:
        schedule = rampup_schedule(reading, parsed, found[RAMPUP], gbs, micro, data_parallel)
    accumulation = microbatches(reading, gbs, micro, data_parallel, Rule.MEGATRON_GBS) if gbs else None
    if accumulation is not None and seq_len is not None and gbs is not None:
        reading.step(Derivation.T_PRODUCT, (gbs, seq_len), gbs * seq_len)
    return Check(
        **check_data(
            Framework.MEGATRON,
            reading,
            world,
            data_parallel=data_parallel,
            micro_batch=micro,
            accumulation=accumulation,
            global_batch=gbs if accumulation is not None else None,
            seq_len=seq_len,
        ),
        schedule=schedule,
    )


def model_parallel(reading: Reading, world: int, tp: int, pp: int, cp: int, rule: Rule) -> int | None:
    """d = world // (TP · PP · CP), or an error finding when TP · PP · CP does not divide the world size."""
    total = tp * pp * cp
    if world % total:
        below, above = neighbours(world, total)
        message = WORLD_MESSAGE.format(world=world, total=total)
        reading.finding(Level.ERROR, rule, message=message, world=world, total=total, below=below, above=above)
        return None
    reading.step(Derivation.DP_MODEL_PARALLEL, (world, tp, pp, cp), world // total)
    return world // total


def microbatches(reading: Reading, gbs: int, micro: int, data_parallel: int, rule: Rule) -> int | None:
    """``ConstantNumMicroBatchesCalculator``: a = gbs // (mbs · d), refused when that is not whole."""
    divisor = micro * data_parallel
    if gbs % divisor or gbs < divisor:
        below, above = neighbours(gbs, divisor)
        message = GBS_MESSAGE.format(gbs=gbs, mbs=micro, dp=data_parallel)
        reading.finding(Level.ERROR, rule, message=message, gbs=gbs, divisor=divisor, below=below, above=above)
        return None
    reading.step(Derivation.A_FROM_B, (gbs, micro, data_parallel), gbs // divisor)
    return gbs // divisor


def step_schedule(
    reading: Reading, text: str, seq_len: int | None, micro: int, data_parallel: int
) -> tuple[Phase, ...]:
    """``--step-batch-size-schedule``: (threshold, batch) pairs; thresholds in tokens where the length is set."""
    entries: list[tuple[int, int]] = []
    for entry in text.replace(",", " ").split():
        threshold_text, _, batch_text = entry.partition(":")
        threshold, batch = _schedule_number(threshold_text), _schedule_number(batch_text)
        if threshold is None or batch is None or batch < 1:
            reading.finding(Level.ERROR, Rule.MEGATRON_SCHEDULE_ORDER, entry=entry)
            return ()
        entries.append((threshold, batch))
    entries.sort()
    if not entries or entries[0][0] != 0:
        reading.finding(Level.ERROR, Rule.MEGATRON_SCHEDULE_START, first=entries[0][0] if entries else None)
        return ()
    if any(later[0] <= earlier[0] for earlier, later in itertools.pairwise(entries)):
        reading.finding(Level.ERROR, Rule.MEGATRON_SCHEDULE_ORDER, entry=text)
        return ()
    entries = [(threshold // seq_len if seq_len else threshold, batch) for threshold, batch in entries]
    phases = _phases(entries)
    _check_phases(reading, phases, micro, data_parallel)
    return phases


def rampup_schedule(
    reading: Reading, parsed: Parsed, values: list[str], gbs: int, micro: int, data_parallel: int
) -> tuple[Phase, ...]:
    """The linear ramp older Megatron-LM releases ran; current ones ignore the flag."""
    reading.note(RAMPUP, " ".join(values), parsed.where(RAMPUP))
    numbers = [int(v) for v in values if v.isdigit()]
    if len(numbers) != 3 or numbers[1] < 1:
        reading.finding(Level.ERROR, Rule.MEGATRON_RAMPUP_INTERVAL, start=None, increment=None, gbs=gbs)
        return ()
    start, increment, samples = numbers
    reading.finding(Level.WARNING, Rule.MEGATRON_RAMPUP_DEPRECATED, gbs=gbs)
    if gbs < start or (gbs - start) % increment:
        reading.finding(Level.ERROR, Rule.MEGATRON_RAMPUP_INTERVAL, start=start, increment=increment, gbs=gbs)
        return ()
    increments = (gbs - start) // increment
    if increments == 0:
        return ()
    per_increment = samples / increments
    # current batch = start + int(consumed / per_increment) · increment; the full batch from ``samples`` on
    entries = [(math.ceil(i * per_increment), start + i * increment) for i in range(increments + 1)]
    phases = _phases(entries)
    _check_phases(reading, phases, micro, data_parallel)
    return phases


def _phases(entries: list[tuple[int, int]]) -> tuple[Phase, ...]:
    ends = [start for start, _ in entries[1:]] + [None]
    return tuple(
        Phase(start, batch, None if end is None else end - start)
        for (start, batch), end in zip(entries, ends, strict=True)
    )


def _check_phases(reading: Reading, phases: tuple[Phase, ...], micro: int, data_parallel: int) -> None:
    """The batch of each phase must be divisible by micro-batch · d when training reaches it."""
    divisor = micro * data_parallel
    bad = [phase for phase in phases if phase.global_batch % divisor]
    if bad:
        first = bad[0]
        below, above = neighbours(first.global_batch, divisor)
        message = GBS_MESSAGE.format(gbs=first.global_batch, mbs=micro, dp=data_parallel)
        reading.finding(
            Level.ERROR,
            Rule.MEGATRON_PHASE,
            message=message,
            count=len(bad),
            start=first.start,
            gbs=first.global_batch,
            below=below,
            above=above,
        )


def _schedule_number(text: str) -> int | None:
    """Megatron's ``_parse_numeric_value``: a number with an optional K/M/B/T."""
    text = text.strip().upper()
    multiplier = _SUFFIXES.get(text[-1:], 1)
    number = text[:-1] if text[-1:] in _SUFFIXES else text
    try:
        return int(float(number) * multiplier)
    except (ValueError, OverflowError):
        return None


def _unknown(micro: int, seq_len: int | None) -> dict[str, int | None]:
    return {"data_parallel": None, "micro_batch": micro, "accumulation": None, "global_batch": None, "seq_len": seq_len}

"""Data-parallel scaling: step time, throughput and efficiency as replicas are added. Pure.

``scaling(model, params, setup, gpu, …)`` predicts a step for d = 1, 2, 4, … (and the set-up's own d) up to
``BEYOND`` times the set-up's replicas, each through a step predictor (``core.memory.step.predict`` unless
another is passed in): the model-parallel degrees stay, and so does the micro-batch b. What happens to the
global batch B = b · d · a is the one choice, and each row says which it got:

- B given (``hold_batch``): B is held while a = B / (b · d) stays a whole number of at least 1 – the
  accumulation shrinks as d grows; once b · d exceeds B, a = 1 and B grows with d (``Batch.GROWN``).
- B not given: a is held as the set-up has it, and B grows with d from the first doubling on.

Efficiency is the throughput a GPU keeps against one replica's: tokens/s(d) / (d · tokens/s(1)). Adding GPUs
stops paying at the first doubling whose added GPUs work at less than ``MARGINAL_FLOOR`` of one replica's rate
(``Stop.COMMUNICATION``: the step is bound by what the layout cannot hide), or where a grown batch exceeds the
critical batch the batch-size laws estimate (``Stop.CRITICAL_BATCH``: more tokens a step, no fewer steps).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Setup
from effbatch.core.memory.step import Assumed, Part, StepPrediction, predict

#: A step predictor: ``core.memory.step.predict`` or anything keeping its contract.
Predictor = Callable[[ModelSpec | None, int, Setup, GpuSpec], StepPrediction]

#: How far past the set-up's replicas the table goes: two doublings.
BEYOND = 4
#: The table reaches at least this many replicas, however small the set-up.
MIN_REPLICAS = 8
#: A doubling pays while the GPUs it adds train at least this share of one replica's tokens a second.
MARGINAL_FLOOR = 0.5


class Batch(StrEnum):
    """What a row did with the global batch B."""

    HELD = "held"  # B as at the set-up (a absorbs d)
    GROWN = "grown"  # B = b · d · a above the set-up's
    SHRUNK = "shrunk"  # B = b · d · a below the set-up's (fewer replicas, a held)


class Stop(StrEnum):
    """Why adding replicas stops paying."""

    COMMUNICATION = "communication"
    CRITICAL_BATCH = "critical_batch"


@dataclass(frozen=True)
class ScalingRow:
    """One data-parallel size: its layout, the predicted step and what it did with B."""

    data_parallel: int
    gpus: int
    accumulation: int
    global_batch: int
    tokens_per_step: int
    step_seconds: float
    tokens_per_second: float
    efficiency: float
    bound_by: Part
    batch: Batch
    beyond_critical: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "gpus": self.gpus,
            "data_parallel": self.data_parallel,
            "accumulation": self.accumulation,
            "global_batch": self.global_batch,
            "tokens_per_step": self.tokens_per_step,
            "step_seconds": self.step_seconds,
            "tokens_per_second": self.tokens_per_second,
            "efficiency": self.efficiency,
            "bound_by": self.bound_by.value,
            "batch": self.batch.value,
            "beyond_critical_batch": self.beyond_critical,
        }


@dataclass(frozen=True)
class Scaling:
    """The rows, smallest d first; the set-up's own d; where adding GPUs stops paying, and why."""

    rows: tuple[ScalingRow, ...]
    setup_replicas: int
    held_batch: int | None
    critical_tokens: float | None
    stop: ScalingRow | None
    stop_reason: Stop | None
    #: What the predictor took without the user giving it (MFU, network …), for the answer to say.
    assumed: tuple[Assumed, ...] = ()
    #: The set-up row's assumed numbers, for the answer to say where they stand: the share of the peak its
    #: matrix products reach and the inter-node bandwidth it used.
    matmul_efficiency: float | None = None
    net_gbps: float | None = None

    @property
    def setup_row(self) -> ScalingRow:
        return next(row for row in self.rows if row.data_parallel == self.setup_replicas)

    @property
    def batch_grows_from(self) -> ScalingRow | None:
        """The first row whose B is no longer the one held (None where B is held throughout or not given)."""
        if self.held_batch is None:
            return None
        return next((row for row in self.rows if row.batch is Batch.GROWN), None)

    def as_json(self) -> list[dict[str, Any]]:
        return [row.as_json() for row in self.rows]


def replica_counts(setup_replicas: int, most: int) -> tuple[int, ...]:
    """1, 2, 4, … up to ``BEYOND`` × the set-up's replicas (at least ``MIN_REPLICAS``, at most ``most``), and the
    set-up's own count where it is no power of two."""
    top = min(most, max(MIN_REPLICAS, BEYOND * setup_replicas))
    counts = {1 << k for k in range(top.bit_length()) if 1 << k <= top} | {min(setup_replicas, most)}
    return tuple(sorted(counts))


def scaling(
    model: ModelSpec | None,
    params: int,
    setup: Setup,
    gpu: GpuSpec,
    *,
    hold_batch: bool,
    critical_tokens: float | None = None,
    most_gpus: int = 2**20,
    predictor: Predictor = predict,
) -> Scaling:
    """Each data-parallel size of ``setup`` predicted by ``predictor``; B held where ``hold_batch``, else a held."""
    if setup.seq_len is None:
        msg = "scaling needs the sequence length"
        raise ValueError(msg)
    parallel = setup.tp * setup.pp * setup.cp * setup.sp
    base = setup.data_parallel
    accumulation = setup.accumulation or 1
    batch = setup.micro_batch * base * accumulation
    per_node = setup.gpus_per_node
    rows: list[ScalingRow] = []
    assumed: dict[Assumed, None] = {}
    own: StepPrediction | None = None
    for d in replica_counts(base, max(1, most_gpus // parallel)):
        a = max(1, batch // (setup.micro_batch * d)) if hold_batch else accumulation
        gpus = d * parallel
        nodes = -(-gpus // per_node) if setup.nodes else None
        step = predictor(model, params, replace(setup, gpus=gpus, accumulation=a, nodes=nodes), gpu)
        assumed |= dict.fromkeys(step.assumed)
        own = step if d == base else own
        rows.append(_row(d, gpus, a, setup, step, batch, critical_tokens, rows[0] if rows else None))
    stop, reason = _stop(rows)
    held = batch if hold_batch else None
    efficiency, net = (own.matmul_efficiency, own.net_gbps) if own is not None else (None, None)
    return Scaling(tuple(rows), base, held, critical_tokens, stop, reason, tuple(assumed), efficiency, net)


def _row(
    d: int,
    gpus: int,
    a: int,
    setup: Setup,
    step: StepPrediction,
    batch: int,
    critical_tokens: float | None,
    first: ScalingRow | None,
) -> ScalingRow:
    """One size; efficiency against the first row (one replica), 1 for the first itself."""
    global_batch = setup.micro_batch * d * a
    held = Batch.HELD if global_batch == batch else Batch.GROWN if global_batch > batch else Batch.SHRUNK
    single = first.tokens_per_second if first else step.tokens_per_second
    tokens = step.tokens_per_step
    return ScalingRow(
        data_parallel=d,
        gpus=gpus,
        accumulation=a,
        global_batch=global_batch,
        tokens_per_step=tokens,
        step_seconds=step.step_seconds,
        tokens_per_second=step.tokens_per_second,
        efficiency=step.tokens_per_second / (d * single),
        bound_by=step.bound_by,
        batch=held,
        beyond_critical=critical_tokens is not None and tokens > critical_tokens,
    )


def _stop(rows: list[ScalingRow]) -> tuple[ScalingRow | None, Stop | None]:
    """The first row where adding replicas stops paying: the GPUs added since the row before train at less than
    ``MARGINAL_FLOOR`` of one replica's rate, or B grew past the critical batch."""
    single = rows[0].tokens_per_second
    for before, row in itertools.pairwise(rows):
        if row.batch is Batch.GROWN and row.beyond_critical:
            return row, Stop.CRITICAL_BATCH
        added = (row.tokens_per_second - before.tokens_per_second) / (row.data_parallel - before.data_parallel)
        if added < MARGINAL_FLOOR * single:
            return row, Stop.COMMUNICATION
    return None, None

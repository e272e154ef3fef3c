"""The plane command: from a typed request (``plane llama3.1-70b gpus=256 gpu=h100 B=512 L=8k``) to a ``Goal``.

A plan needs the model's shape, the GPUs (their number and their memory: a GPU type or ``gpu_mem=``),
the sequence length and B (``B=``, ``T=`` that L divides, or b, d and a given whole); what is missing is
named at once (``PlanIncompleteError``). The degrees and techniques given are held; the rest is searched.
"""

from __future__ import annotations

from enum import StrEnum

from effbatch.core.memory.gpus import GPUS
from effbatch.core.model import PlanRequest
from effbatch.core.planner.goal import Goal
from effbatch.core.planner.space import Fixed
from effbatch.core.training import capacity_of, model_of, setup_of
from effbatch.core.training_request import TrainingRequest


class Needed(StrEnum):
    """What a plan cannot do without."""

    MODEL = "model"
    GPUS = "gpus"
    GPU = "gpu"
    SEQ_LEN = "seq_len"
    BATCH = "batch"


class PlanIncompleteError(ValueError):
    """A plan was asked without all it needs; ``needed`` names each missing value."""

    def __init__(self, needed: tuple[Needed, ...]) -> None:
        super().__init__(", ".join(need.value for need in needed))
        self.needed = needed


def goal_of(request: PlanRequest) -> Goal:
    """The goal ``request`` asks a plan for; ``PlanIncompleteError`` naming everything missing."""
    training = request.training or TrainingRequest()
    model = model_of(training)
    gpu = GPUS.get(training.gpu) if training.gpu else None
    capacity = capacity_of(training)
    batch = global_batch(request)
    base = setup_of(request)
    missing = [
        need
        for need, absent in (
            (Needed.MODEL, model is None),
            (Needed.GPUS, request.gpus is None and request.data_parallel is None),
            (Needed.GPU, capacity is None),
            (Needed.SEQ_LEN, request.seq_len is None),
            (Needed.BATCH, batch is None),
        )
        if absent
    ]
    if missing or model is None or capacity is None or batch is None:
        raise PlanIncompleteError(tuple(missing))
    fixed = Fixed(
        tp=request.tp,
        pp=request.pp,
        vpp=training.vpp,
        cp=request.cp,
        ep=training.ep,
        zero=training.zero if training.zero is not None else (1 if training.distributed_optimizer else None),
        recompute=training.recompute,
        micro_batch=request.micro_batch,
        sequence_parallel=training.sequence_parallel,
    )
    return Goal(model, base.gpus, capacity, batch, request.seq_len, gpu, request.budget, base, fixed)


def global_batch(request: PlanRequest) -> int | None:
    """B in sequences: ``B=``, ``T=`` / L where L divides it, or b · d · a where all three are given."""
    if request.target_global_batch is not None:
        return request.target_global_batch
    tokens, seq_len = request.target_tokens_per_step, request.seq_len
    if tokens is not None and seq_len and tokens % seq_len == 0:
        return tokens // seq_len
    factors = (request.micro_batch, request.data_parallel, request.accumulation)
    if all(factor is not None for factor in factors) and tokens is None:
        return (request.micro_batch or 1) * (request.data_parallel or 1) * (request.accumulation or 1)
    return None

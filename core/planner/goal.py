"""What a plan is asked (``Goal``) and, when nothing fits, what would (``Shortfall``): the search's data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from effbatch.core.memory.estimate import MemoryEstimate
from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Setup
from effbatch.core.memory.step import StepPrediction
from effbatch.core.planner.space import Fixed, Layout

Estimator = Callable[[ModelSpec, Setup], MemoryEstimate]
Predictor = Callable[[ModelSpec | None, int, Setup, GpuSpec], StepPrediction]

#: The share of a GPU's memory a plan leaves free: allocator fragmentation and what no estimate counts.
MARGIN = 0.05


@dataclass(frozen=True)
class Goal:
    """What a plan is asked: the model, the GPUs (their number, memory and type), B in sequences and L.

    ``base`` carries what the search does not change (precision, rules, framework, offloading, network);
    ``fixed`` the degrees the user gave. Without ``gpu`` no time is predicted (only a GPU's memory was given).
    """

    model: ModelSpec
    gpus: int
    capacity: int
    global_batch: int
    seq_len: int | None
    gpu: GpuSpec | None = None
    budget: int | None = None
    base: Setup = field(default_factory=Setup)
    fixed: Fixed = field(default_factory=Fixed)

    @property
    def usable(self) -> int:
        """The bytes a plan may fill: the GPU's memory less ``MARGIN``."""
        return int(self.capacity * (1 - MARGIN))

    def setup(self, layout: Layout, micro_batch: int) -> Setup:
        """The set-up of ``layout`` at micro-batch ``micro_batch``, with B held by the accumulation."""
        data_parallel = self.gpus // layout.model_parallel
        return replace(
            self.base,
            gpus=self.gpus,
            tp=layout.tp,
            pp=layout.pp,
            cp=layout.cp,
            sp=1,
            ep=layout.ep,
            vpp=layout.vpp,
            zero=layout.zero,
            distributed_optimizer=False,
            recompute=layout.recompute,
            sequence_parallel=layout.tp > 1 if self.fixed.sequence_parallel is None else self.fixed.sequence_parallel,
            micro_batch=micro_batch,
            accumulation=self.global_batch // (data_parallel * micro_batch),
            seq_len=self.seq_len,
        )


@dataclass(frozen=True)
class Shortfall:
    """Why nothing fits, and what would: the fewest GPUs of the card (None: none up to the bound) and the memory a
    card would need for the leanest layout on the GPUs given (None: B splits over no layout)."""

    batch_splits: bool
    memory_needed: int | None
    fewest_gpus: int | None

"""Does it fit? The largest micro-batch a GPU holds, and what to change when none does.

Activations grow linearly with the micro-batch b (every term of Table 2 has the factor b), model states
not at all: b_max = ⌊(memory − model states) / activations a sequence⌋. Gradient accumulation adds no
activation memory (the a passes run one after the other) – the way to keep B when b must shrink.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from effbatch.core.memory.capacity import RESERVE_SHARE
from effbatch.core.memory.estimate import MemoryEstimate, estimate
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Framework, Offload, Recompute, Rules, Setup

#: Tensor parallelism beyond one node's NVLink domain costs more than it saves; advice stops at 8.
MAX_ADVISED_TP = 8


@dataclass(frozen=True)
class Fit:
    """The estimate against a GPU's memory: free (negative: missing) bytes and the largest micro-batch."""

    capacity: int
    total: int
    largest_micro_batch: int | None  # None: activations unknown; 0: not even b = 1
    #: The largest micro-batch is the bound asked for (``most``): more would fit, none is counted beyond it.
    at_bound: bool = False

    @property
    def fits(self) -> bool:
        return self.total <= self.capacity

    @property
    def free(self) -> int:
        return self.capacity - self.total


def fit(found: MemoryEstimate, capacity: int, most: int | None = None) -> Fit:
    """``found`` on a GPU of ``capacity`` usable bytes: everything on the device (the allocator's reserve, the CUDA
    context and NCCL included, ``core.memory.capacity``) against it; the largest micro-batch at most ``most``."""
    largest = None
    if found.activations_per_sample:
        grown = 1 + RESERVE_SHARE
        room = capacity - found.context - found.model_states * grown
        largest = max(0, int(room // (found.activations_per_sample * grown)))
    if largest is not None and most is not None and largest >= most:
        return Fit(capacity, found.device_total, most, at_bound=True)
    return Fit(capacity, found.device_total, largest)


class ChangeKind(StrEnum):
    """One change that lowers the memory per GPU."""

    ACCUMULATION = "accumulation"  # b smaller, a larger by the same factor: B stays
    RECOMPUTE_SELECTIVE = "recompute_selective"
    SEQUENCE_PARALLEL = "sequence_parallel"
    ZERO = "zero"
    TP = "tp"
    RECOMPUTE_FULL = "recompute_full"
    OFFLOAD = "offload"


@dataclass(frozen=True)
class Change:
    """A change, the value it sets, and the memory per GPU and largest micro-batch after it."""

    kind: ChangeKind
    value: int | str
    total: int
    largest_micro_batch: int | None
    fits: bool
    at_bound: bool = False


def advise(model: ModelSpec, setup: Setup, capacity: int, most: int | None = None) -> tuple[Change, ...]:
    """What lowers the memory enough, cheapest first: smaller b with more accumulation, then the techniques (each
    largest micro-batch at most ``most``)."""
    found = estimate(model, setup)
    now = fit(found, capacity, most)
    if now.fits:
        return ()
    changes: list[Change] = []
    largest = now.largest_micro_batch
    if largest and largest < setup.micro_batch:
        smaller = replace(setup, micro_batch=largest)
        changes.append(_change(ChangeKind.ACCUMULATION, largest, model, smaller, capacity, most))
    for kind, value, changed in _variants(setup):
        option = _change(kind, value, model, changed, capacity, most)
        if option.total < found.total:
            changes.append(option)
    return tuple(changes)


def _variants(setup: Setup) -> list[tuple[ChangeKind, int | str, Setup]]:
    """Each technique not yet in use, as the set-up with it."""
    variants: list[tuple[ChangeKind, int | str, Setup]] = []
    recompute = setup.recompute_used
    if recompute is Recompute.NONE:
        variants.append((ChangeKind.RECOMPUTE_SELECTIVE, "selective", replace(setup, recompute=Recompute.SELECTIVE)))
    if setup.tp > 1 and not setup.sequence_parallel:
        variants.append((ChangeKind.SEQUENCE_PARALLEL, "ja", replace(setup, sequence_parallel=True)))
    megatron = setup.rules is Rules.MEGATRON or setup.framework is Framework.MEGATRON
    top_zero = 1 if megatron else 3  # Megatron shards the optimizer (distributed optimizer), no ZeRO-2/3
    if setup.zero < top_zero and setup.data_parallel > 1:
        variants.append((ChangeKind.ZERO, setup.zero + 1, replace(setup, zero=setup.zero + 1)))
    if setup.tp * 2 <= MAX_ADVISED_TP and setup.gpus % (setup.tp * 2 * setup.pp * setup.cp * setup.sp) == 0:
        variants.append((ChangeKind.TP, setup.tp * 2, replace(setup, tp=setup.tp * 2)))
    if recompute is not Recompute.FULL and setup.rules is not Rules.MEGATRON:
        variants.append((ChangeKind.RECOMPUTE_FULL, "full", replace(setup, recompute=Recompute.FULL)))
    if setup.offload is Offload.NONE and setup.rules is not Rules.MEGATRON and setup.zero >= 1:
        variants.append((ChangeKind.OFFLOAD, "optimizer", replace(setup, offload=Offload.OPTIMIZER)))
    return variants


def _change(
    kind: ChangeKind, value: int | str, model: ModelSpec, setup: Setup, capacity: int, most: int | None
) -> Change:
    after = fit(estimate(model, setup), capacity, most)
    return Change(kind, value, after.total, after.largest_micro_batch, after.fits, after.at_bound)

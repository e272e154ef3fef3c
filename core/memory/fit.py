"""Does it fit? The largest micro-batch a GPU holds (what to change when none does: ``core.planner.advise``).

Activations grow linearly with the micro-batch b (every term of Table 2 has the factor b), model states
not at all: b_max = ⌊(memory − model states) / activations a sequence⌋. Gradient accumulation adds no
activation memory (the a passes run one after the other) – the way to keep B when b must shrink.
"""

from __future__ import annotations

from dataclasses import dataclass

from effbatch.core.memory.capacity import RESERVE_SHARE
from effbatch.core.memory.estimate import MemoryEstimate


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
        room = capacity - found.context - (found.model_states + found.activations_fixed) * grown
        if found.overlap and room >= 0:  # the states fit: the activations may take the freed gradients' place
            room += found.grads * grown
        largest = max(0, int(room // (found.activations_per_sample * grown)))
    if largest is not None and most is not None and largest >= most:
        return Fit(capacity, found.device_total, most, at_bound=True)
    return Fit(capacity, found.device_total, largest)

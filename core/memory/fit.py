"""Does it fit? The largest micro-batch a GPU holds, and what to change when none does.

Activations grow linearly with the micro-batch b (every term of Table 2 has the factor b), model states
not at all: b_max = ⌊(memory − model states) / activations a sequence⌋. Gradient accumulation adds no
activation memory (the a passes run one after the other) – the way to keep B when b must shrink.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import combinations
from typing import Any

from effbatch.core.memory.estimate import MemoryEstimate, estimate
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Offload, Recompute, Rules, Setup

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
    """``found`` on a GPU of ``capacity`` bytes; the largest micro-batch at most ``most`` (a bound of the input)."""
    largest = None
    if found.activations_per_sample:
        largest = max(0, int((capacity - found.model_states) // found.activations_per_sample))
    if largest is not None and most is not None and largest >= most:
        return Fit(capacity, found.total, most, at_bound=True)
    return Fit(capacity, found.total, largest)


class ChangeKind(StrEnum):
    """One change that lowers the memory per GPU."""

    ACCUMULATION = "accumulation"  # b smaller, a larger by the same factor: B stays
    RECOMPUTE_SELECTIVE = "recompute_selective"
    SEQUENCE_PARALLEL = "sequence_parallel"
    ZERO = "zero"
    TP = "tp"
    RECOMPUTE_FULL = "recompute_full"
    OFFLOAD = "offload"
    COMBINED = "combined"  # two of the above together


@dataclass(frozen=True)
class Change:
    """A change, the value it sets, and the memory per GPU and largest micro-batch after it.

    ``COMBINED``: two techniques together (``parts``), advised when no single change is enough.
    """

    kind: ChangeKind
    value: int | str
    total: int
    largest_micro_batch: int | None
    fits: bool
    at_bound: bool = False
    parts: tuple[tuple[ChangeKind, int | str], ...] = ()


#: A technique: its kind, the value typed, and the fields of the set-up it changes.
_Variant = tuple[ChangeKind, int | str, dict[str, Any]]


def advise(model: ModelSpec, setup: Setup, capacity: int, most: int | None = None) -> tuple[Change, ...]:
    """What lowers the memory enough, cheapest first: smaller b with more accumulation, then the techniques;
    when none is enough alone, the first pair of techniques that is (each largest micro-batch at most ``most``)."""
    found = estimate(model, setup)
    now = fit(found, capacity, most)
    if now.fits:
        return ()
    changes: list[Change] = []
    largest = now.largest_micro_batch
    if largest and largest < setup.micro_batch:
        micro = keeping_batch(setup, largest)
        more = setup.micro_batch * setup.accumulation // micro if setup.accumulation else None
        smaller = replace(setup, micro_batch=micro, accumulation=more)
        changes.append(_change(ChangeKind.ACCUMULATION, micro, model, smaller, capacity, most))
    variants = _variants(setup)
    for kind, value, fields in variants:
        option = _change(kind, value, model, replace(setup, **fields), capacity, most)
        if option.total < found.total:
            changes.append(option)
    if changes and not any(change.fits for change in changes):
        changes += _combined(model, setup, capacity, variants, most)
    return tuple(changes)


def _combined(
    model: ModelSpec, setup: Setup, capacity: int, variants: list[_Variant], most: int | None
) -> list[Change]:
    """The first two techniques (in the order advised) that fit together; none when no pair does."""
    for (first, first_value, first_fields), (second, second_value, second_fields) in combinations(variants, 2):
        if first_fields.keys() & second_fields.keys():
            continue  # the same setting twice (selective and full recomputation)
        after = fit(estimate(model, replace(setup, **first_fields, **second_fields)), capacity, most)
        if after.fits:
            parts = ((first, first_value), (second, second_value))
            return [
                Change(ChangeKind.COMBINED, "", after.total, after.largest_micro_batch, True, after.at_bound, parts)
            ]
    return []


def keeping_batch(setup: Setup, largest: int) -> int:
    """The largest micro-batch up to ``largest`` that divides b · a: with a whole a it keeps B = b · d · a.

    Without a (a memory question) b · 1: the accumulation then grows by the same whole factor b / b'.
    """
    kept = setup.micro_batch * (setup.accumulation or 1)
    return next(micro for micro in range(largest, 0, -1) if kept % micro == 0)


def _variants(setup: Setup) -> list[_Variant]:
    """Each technique not yet in use, as the fields of the set-up it changes."""
    variants: list[_Variant] = []
    recompute = setup.recompute_used
    if recompute is Recompute.NONE:
        variants.append((ChangeKind.RECOMPUTE_SELECTIVE, "selective", {"recompute": Recompute.SELECTIVE}))
    if setup.tp > 1 and not setup.sequence_parallel:
        variants.append((ChangeKind.SEQUENCE_PARALLEL, "ja", {"sequence_parallel": True}))
    top_zero = 1 if setup.rules is Rules.MEGATRON else 3
    if setup.zero < top_zero and setup.data_parallel > 1:
        variants.append((ChangeKind.ZERO, setup.zero + 1, {"zero": setup.zero + 1}))
    if setup.tp * 2 <= MAX_ADVISED_TP and setup.gpus % (setup.tp * 2 * setup.pp * setup.cp * setup.sp) == 0:
        # the GPUs stay: d halves, and a doubled keeps B (the answer says so)
        more = setup.accumulation * 2 if setup.accumulation else None
        variants.append((ChangeKind.TP, setup.tp * 2, {"tp": setup.tp * 2, "accumulation": more}))
    if recompute is not Recompute.FULL and setup.rules is not Rules.MEGATRON:
        variants.append((ChangeKind.RECOMPUTE_FULL, "full", {"recompute": Recompute.FULL}))
    if setup.offload is Offload.NONE and setup.rules is not Rules.MEGATRON and setup.zero >= 1:
        variants.append((ChangeKind.OFFLOAD, "optimizer", {"offload": Offload.OPTIMIZER}))
    return variants


def _change(
    kind: ChangeKind, value: int | str, model: ModelSpec, setup: Setup, capacity: int, most: int | None
) -> Change:
    after = fit(estimate(model, setup), capacity, most)
    return Change(kind, value, after.total, after.largest_micro_batch, after.fits, after.at_bound)

"""The validated input of a calculation and its result.

Upper bounds are generous sanity limits, not hardware facts: they catch typos
(an extra digit, a pasted ID) while admitting every real training run.

================  ======  ===============  ==========================================
argument          symbol  upper bound      why
================  ======  ===============  ==========================================
micro_batch       b       65.536 (2¹⁶)     sequences on one device in one pass
data_parallel     d       1.048.576 (2²⁰)  replicas; far above any cluster built
accumulation      a       65.536 (2¹⁶)     passes summed before one update
seq_len           L       16.777.216 (2²⁴) tokens per sequence (16 Mi context)
================  ======  ===============  ==========================================
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field


class Argument(StrEnum):
    """The arguments of a calculation; the values double as JSON keys."""

    MICRO_BATCH = "micro_batch"
    DATA_PARALLEL = "data_parallel"
    ACCUMULATION = "accumulation"
    SEQ_LEN = "seq_len"

    @property
    def symbol(self) -> str:
        """The letter used in formulas."""
        return _SYMBOLS[self]


_SYMBOLS = {
    Argument.MICRO_BATCH: "b",
    Argument.DATA_PARALLEL: "d",
    Argument.ACCUMULATION: "a",
    Argument.SEQ_LEN: "L",
}

MAX_MICRO_BATCH = 2**16
MAX_DATA_PARALLEL = 2**20
MAX_ACCUMULATION = 2**16
MAX_SEQ_LEN = 2**24

UPPER_BOUNDS = {
    Argument.MICRO_BATCH: MAX_MICRO_BATCH,
    Argument.DATA_PARALLEL: MAX_DATA_PARALLEL,
    Argument.ACCUMULATION: MAX_ACCUMULATION,
    Argument.SEQ_LEN: MAX_SEQ_LEN,
}


class BatchSetup(BaseModel):
    """One training setup: b, d, a and optionally L, each a positive whole number."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    micro_batch: Annotated[int, Field(ge=1, le=MAX_MICRO_BATCH)]
    data_parallel: Annotated[int, Field(ge=1, le=MAX_DATA_PARALLEL)]
    accumulation: Annotated[int, Field(ge=1, le=MAX_ACCUMULATION)]
    seq_len: Annotated[int, Field(ge=1, le=MAX_SEQ_LEN)] | None = None


class BatchResult(BaseModel):
    """B and T for one setup."""

    model_config = ConfigDict(frozen=True)

    setup: BatchSetup
    global_batch: int
    tokens_per_step: int | None

    def as_json(self) -> dict[str, Any]:
        """The flat JSON object that ``effbatch --json`` prints."""
        return {**self.setup.model_dump(), **self.model_dump(exclude={"setup"})}

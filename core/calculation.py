"""B = b · d · a and T = B · L."""

from __future__ import annotations

from core.model import BatchResult, BatchSetup


def compute(setup: BatchSetup) -> BatchResult:
    """Global batch (sequences per optimizer update) and tokens per update."""
    global_batch = setup.micro_batch * setup.data_parallel * setup.accumulation
    tokens = None if setup.seq_len is None else global_batch * setup.seq_len
    return BatchResult(setup=setup, global_batch=global_batch, tokens_per_step=tokens)

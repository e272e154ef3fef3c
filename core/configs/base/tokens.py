"""How a check whose global batch is known ends, in every framework that counts whole sequences: the tokens of a
step, T = B · L, derived where B and L are both known, then the check with what the framework trains."""

from __future__ import annotations

from effbatch.core.configs.base.memory import MemoryFacts
from effbatch.core.configs.base.results import Check, Derivation, ModelShape, Phase, World
from effbatch.core.configs.base.values import Reading


def finish_with_tokens(
    reading: Reading,
    world: World | None,
    *,
    data_parallel: int | None,
    micro_batch: int | None,
    accumulation: int | None,
    global_batch: int | None,
    seq_len: int | None,
    schedule: tuple[Phase, ...] = (),
    intended: int | None = None,
    shape: ModelShape | None = None,
    memory: MemoryFacts | None = None,
) -> Check:
    """T = B · L as a step where the batch and the sequence length are known; then ``reading.finish``."""
    if global_batch is not None and seq_len is not None:
        reading.step(Derivation.T_PRODUCT, (global_batch, seq_len), global_batch * seq_len)
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=micro_batch,
        accumulation=accumulation,
        global_batch=global_batch,
        seq_len=seq_len,
        schedule=schedule,
        intended=intended,
        shape=shape,
        memory=memory,
    )

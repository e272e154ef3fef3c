"""accelerate's config on its own (huggingface/accelerate at 16cb6eb, July 2026; run here as 1.16.0).

An ``accelerate config`` YAML carries no batch size: the loader batch comes from the training script
(``DataLoader(batch_size=…)``) or from the Hugging Face ``TrainingArguments`` beside it, whose check takes the
world size, d and the launch's findings from ``_shared.accelerate_launch`` (which says what accelerate does).
Alone, the config fixes the factor the loader batch is multiplied by: d · a.
"""

from __future__ import annotations

from core.configs.base import (
    Check,
    Effect,
    Parsed,
    Reading,
    Rule,
    World,
    context,
)
from core.configs.frameworks._shared.accelerate_launch import (
    FLOORED,
    MODEL_PARALLEL,
    NO_SHARD,
    NUM_PROCESSES,
    NUM_PROCESSES_MISSING,
    SPLIT_BATCHES,
    SPLIT_INDIVISIBLE,
    TOTAL,
    is_accelerate_config,
    layout,
)

ID = "accelerate"


@context
class LoaderBatch:
    data_parallel: int
    accumulation: int
    factor: int


LOADER = Rule("accelerate/loader-batch", Effect.NOTE, LoaderBatch)
RULES = (
    NUM_PROCESSES,
    NUM_PROCESSES_MISSING,
    FLOORED,
    TOTAL,
    NO_SHARD,
    MODEL_PARALLEL,
    LOADER,
    SPLIT_BATCHES,
    SPLIT_INDIVISIBLE,
)


def detect(parsed: Parsed) -> bool:
    """An ``accelerate config`` file: ``distributed_type`` (one of accelerate's) or beside the launcher's own keys."""
    return is_accelerate_config(parsed)


def check(sources: list[Parsed], world: World | None) -> Check:
    reading = Reading(ID)
    found = layout(reading, sources, world)
    if found is None or found.world is None or found.data_parallel is None:
        return reading.finish(found.world if found else world)
    data_parallel, accumulation = found.data_parallel, found.accumulation
    reading.add(LOADER(LoaderBatch(data_parallel, accumulation, data_parallel * accumulation)))
    return reading.finish(found.world, data_parallel=data_parallel, accumulation=accumulation)

"""accelerate's config on its own (huggingface/accelerate at 16cb6eb, July 2026; run here as 1.16.0).

An ``accelerate config`` YAML carries no batch size: the loader batch comes from the training script
(``DataLoader(batch_size=…)``) or from the Hugging Face ``TrainingArguments`` beside it, whose check takes the
world size, d and the launch's findings from ``_shared.accelerate_launch`` (which says what accelerate does).
Alone, the config fixes the factor the loader batch is multiplied by: d · a.
"""

from __future__ import annotations

import re

from effbatch.core.configs.base.pyscript import Instance, via_of
from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Rule, context
from effbatch.core.configs.base.source import Parsed
from effbatch.core.configs.base.values import Reading, whole
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.frameworks._shared.accelerate_launch import (
    FLOORED,
    MODEL_PARALLEL,
    NO_SHARD,
    NUM_PROCESSES,
    NUM_PROCESSES_MISSING,
    SPLIT_BATCHES,
    SPLIT_INDIVISIBLE,
    TOTAL,
    Layout,
    is_accelerate_config,
    layout,
    split_batches,
)
from effbatch.core.configs.frameworks._shared.torch_loader import training_loader

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
    """An ``accelerate config`` file: ``distributed_type`` (one of accelerate's) or beside the launcher's own keys;
    or a script that builds accelerate's ``Accelerator`` for a loop of its own: it builds no Trainer (the Hugging
    Face Trainer, TRL's, Lightning's or a subclass builds its own ``Accelerator``, and decides the batch), whatever
    arguments it parses (``TrainingArguments`` through ``HfArgumentParser``, ``--per_device_train_batch_size``)."""
    return is_accelerate_config(parsed) or (_accelerator(parsed) is not None and not _builds_trainer(parsed))


#: The libraries whose ``…Trainer`` builds its own ``Accelerator`` and training loop.
TRAINER_LIBRARIES = ("transformers.", "trl.", "lightning.", "pytorch_lightning.", "unsloth.")


def _builds_trainer(parsed: Parsed) -> bool:
    """Whether the script builds a library's trainer, or a class of its own that extends one (``class
    MyTrainer(Trainer)``); a class of its own merely named ``Trainer`` that wraps an Accelerator is no such."""
    script, text = parsed.python, parsed.source.text
    if script is None:
        return False
    for call in script.calls:
        if not call.name.endswith("Trainer"):  # reached or not: ``fire.Fire(train)`` calls what the reader does not
            continue
        if call.callee.startswith(TRAINER_LIBRARIES):
            return True
        own = re.search(rf"^\s*class\s+{re.escape(call.name)}\s*\(\s*[\w.]*Trainer\b", text, re.MULTILINE)
        if "." not in call.callee and own is not None:
            return True
    return False


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    reading = Reading(ID, pins)
    script = next((p for p in sources if _accelerator(p) is not None), None)
    found = layout(reading, sources, world)
    if found is None and script is not None:  # ``python train.py``: no launcher, every process its own
        size = reading.world(world)
        found = Layout(size, size.size, 1)
    if found is None or found.world is None or found.data_parallel is None:
        return reading.finish(found.world if found else world)
    if script is None:
        data_parallel, accumulation = found.data_parallel, found.accumulation
        reading.add(LOADER(LoaderBatch(data_parallel, accumulation, data_parallel * accumulation)))
        return reading.finish(found.world, data_parallel=data_parallel, accumulation=accumulation)
    return _script_batch(reading, script, found)


def _script_batch(reading: Reading, parsed: Parsed, found: Layout) -> Check:
    """B = loader batch · d · a, the loader a script's training DataLoader, a its ``Accelerator``'s (a launch flag
    wins: ``ACCELERATE_GRADIENT_ACCUMULATION_STEPS``, ``accelerator.py``), or the config's DeepSpeed one."""
    accelerator, script, name = _accelerator(parsed), parsed.python, parsed.source.name
    data_parallel, world = found.data_parallel or 1, found.world
    loader = training_loader(script) if script is not None else None
    if accelerator is None or script is None or loader is None:
        reading.add(LOADER(LoaderBatch(data_parallel, found.accumulation, data_parallel * found.accumulation)))
        return reading.finish(world, data_parallel=data_parallel, accumulation=found.accumulation)
    accumulation = found.accumulation
    if (given := accelerator.fields.get(ACCUMULATION)) is not None and not _launch_sets_accumulation(reading):
        reading.note(ACCUMULATION, given.value, given.where(name), via=via_of(given, script, name))
        accumulation = whole(given.value, ACCUMULATION, given.where(name))
    reading.note("DataLoader.batch_size", loader.value, loader.where(name), via=via_of(loader, script, name))
    micro = whole(loader.value, "batch_size", loader.where(name))
    if _split(accelerator):
        split = split_batches(reading, parsed, micro, data_parallel, micro * accumulation)
        if split is None:
            return reading.finish(world, data_parallel=data_parallel, accumulation=accumulation)
        micro = split
    total = micro * data_parallel * accumulation
    reading.step(Derivation.B_PRODUCT, (micro, data_parallel, accumulation), total)
    return reading.finish(
        world, data_parallel=data_parallel, micro_batch=micro, accumulation=accumulation, global_batch=total
    )


ACCUMULATION = "gradient_accumulation_steps"


def _accelerator(parsed: Parsed) -> Instance | None:
    """The ``Accelerator`` a script builds (imported from ``accelerate``): the last one a run reaches."""
    found = [
        i
        for i in (parsed.python.instances if parsed.python is not None else [])
        if i.kind.rsplit(".", 1)[-1] == "Accelerator" and i.kind.startswith("accelerate.")
    ]
    chosen = [i for i in found if i.reached] or found
    return chosen[-1] if chosen else None


def _launch_sets_accumulation(reading: Reading) -> bool:
    return any(read.key == f"--{ACCUMULATION}" for read in reading.read)


def _split(accelerator: Instance) -> bool:
    """``Accelerator(split_batches=True)`` or ``dataloader_config=DataLoaderConfiguration(split_batches=True)``."""
    split = accelerator.fields.get("split_batches")
    config = accelerator.fields.get("dataloader_config")
    inner = (
        config.value.fields.get("split_batches") if config is not None and isinstance(config.value, Instance) else None
    )
    return any(given is not None and given.value is True for given in (split, inner))

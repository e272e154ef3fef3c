"""llm-foundry's batch arithmetic (mosaicml/llm-foundry at 8c8dd48, July 2025; Composer at 6405188).

- ``llmfoundry/utils/config_utils.py:496-509`` ``update_batch_size_info`` indexes the YAML as written:
  ``cfg['global_train_batch_size']`` and ``cfg['device_train_microbatch_size']`` (a ``KeyError`` where one
  is missing; the dataclass defaults never apply) and calls ``calculate_batch_size_info`` (:425-462) with a
  replication degree of 1: ``global % world`` must be 0 ("Global batchsize … is not divisible by …"),
  the device batch is ``global / world``; a micro-batch larger than it is reduced to it (a log warning),
  the accumulation is ``ceil(device / micro)``; ``'auto'`` leaves it to Composer at run time
  (``composer/trainer/trainer.py:260-292``: starts at the device batch, halves on CUDA OOM).
- Composer splits each device batch with ``t.split(micro)`` (``composer/core/data_spec.py:38-46``): the
  last micro-batch is the smaller rest (12 in micro-batches of 5: 5, 5, 2); B stays the global batch.
- Tensor parallelism (``tp_config``) does not divide the batch: ``llmfoundry/tp/ffn_tp_strategy.py:30-38``
  shards the inputs along the batch dimension and all-gathers them, so the TP ranks train distinct samples.
- ``train_loader.dataset.replication: r`` (``data/finetuning/dataloader.py:334-343``,
  ``data/text_data.py:104``): r consecutive ranks receive the same samples, the sampler has
  ``world // r`` replicas, while each rank still loads ``global / world``: B = global / r. torch's
  ``DistributedSampler`` refuses a rank outside ``[0, world // r - 1]``, which happens where r does not
  divide the world.
- The world size: ``composer -n N train/train.py x.yaml`` (``composer/cli/launcher.py``: ``--world_size``,
  else ``-n``/``--nproc``, the processes of this node).
- The MosaicML platform's run YAML (``mcli/*.yaml``) holds the train config under ``parameters`` and
  the GPUs in ``compute.gpus``; ``${variables.x}`` is OmegaConf's interpolation (config_utils.py:311).
"""

from __future__ import annotations

import re
from typing import Any

from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Auto, Reading, fix, lookup, neighbours, world_fix
from effbatch.core.configs.base.versions import Pins

ID = "llmfoundry"
GLOBAL = "global_train_batch_size"
MICRO = "device_train_microbatch_size"
DIVISIBLE_MESSAGE = (
    "Global batchsize {configured} is not divisible by (world_size // data_replication_degree)={world} as a "
    "result, the batch size would be truncated, please adjust `global_batch_size` to be divisible by world "
    "size, {world}."
)
REDUCED_MESSAGE = "device_microbatch_size > device_batch_size, will be reduced from {micro} -> {device}."
SAMPLER_MESSAGE = "Invalid rank {rank}, rank should be in the interval [0, {last}]"
DEVICE = "llmfoundry/device"  # device = G / world
MICROBATCHES = "llmfoundry/microbatches"  # a = ⌈device / b⌉
DATA_PARALLEL = "llmfoundry/data-parallel"  # d = world / replication
BATCH = "llmfoundry/batch"  # B = device · d
#: Keys only llm-foundry's train YAML has beside the batch keys (OLMo v1 shares those, not these).
OWN_KEYS = frozenset({"train_loader", "max_seq_len", "variables", "icl_tasks", "eval_loader", "eval_gauntlet"})
_INTERPOLATION = re.compile(r"\$\{([\w.]+)\}")
#: The launcher's options that take no value (composer/cli/launcher.py).
_COMPOSER_SWITCHES = frozenset({"-v", "--verbose", "-m", "--module_mode", "-c", "--command_mode"})


@context
class Divisible:
    configured: int
    world: int


@context
class Missing:
    key: str


@context
class Reduced:
    micro: int
    device: int


@context
class Uneven:
    device: int
    micro: int
    full: int
    rest: int


@context
class AutoMicro:
    device: int


@context
class Replicated:
    configured: int
    replication: int
    real: int


@context
class ReplicationWorld:
    world: int
    replication: int


@context
class TensorParallel:
    tp: int


GBS = Rule("llmfoundry/global-batch-size-divisible", Effect.REFUSED, Divisible)
MISSING = Rule("llmfoundry/missing-batch-key", Effect.REFUSED, Missing)
REDUCED = Rule("llmfoundry/microbatch-reduced", Effect.NOTE, Reduced)
UNEVEN = Rule("llmfoundry/uneven-microbatches", Effect.PITFALL, Uneven)
AUTO = Rule("llmfoundry/auto-microbatch", Effect.NOTE, AutoMicro)
REPLICATION = Rule("llmfoundry/replication", Effect.CHANGED, Replicated)
REPLICATION_WORLD = Rule("llmfoundry/replication-divides-world", Effect.REFUSED, ReplicationWorld)
TENSOR_PARALLEL = Rule("llmfoundry/tensor-parallel-keeps-batch", Effect.NOTE, TensorParallel)
RULES = (GBS, MISSING, REDUCED, UNEVEN, AUTO, REPLICATION, REPLICATION_WORLD, TENSOR_PARALLEL)


def _root(parsed: Parsed) -> str:
    """``parameters.`` for a MosaicML platform run YAML, which holds the train config there; else nothing."""
    parameters = parsed.data.get("parameters")
    return "parameters." if isinstance(parameters, dict) and GLOBAL in parameters else ""


def detect(parsed: Parsed) -> bool:
    """A train YAML with llm-foundry's batch keys and one of its own keys (``train_loader``, ``max_seq_len`` …)."""
    if parsed.format not in (Format.YAML, Format.JSON):
        return False
    config: Any = lookup(parsed.data, _root(parsed).rstrip(".")) if _root(parsed) else parsed.data
    return bool({GLOBAL, MICRO} & set(config)) and bool(OWN_KEYS & set(config))


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading, root = Reading(ID, pins), _root(parsed)
    configured = reading.value(parsed, _resolved(reading, parsed, root, GLOBAL))
    micro = reading.auto(parsed, _resolved(reading, parsed, root, MICRO))
    seq_len = reading.value(parsed, _resolved(reading, parsed, root, "max_seq_len"))
    replication = reading.value(parsed, f"{root}train_loader.dataset.replication") or 1
    tp = reading.value(parsed, f"{root}tp_config.tensor_parallel_degree") or 1
    if configured is None or micro is None:  # indexed as written, before any default (config_utils.py:498-500)
        key = GLOBAL if configured is None else MICRO
        reading.add(MISSING(Missing(key), message=f"KeyError: '{key}'"))
        return reading.finish(world, seq_len=seq_len)
    world = reading.world(world or _composer_world(sources) or _platform_world(reading, parsed))
    if not _divides(reading, parsed, configured, world.size):
        return reading.finish(world, seq_len=seq_len)
    device = configured // world.size
    reading.step(DEVICE, (configured, world.size), device)
    data_parallel = _data_parallel(reading, world.size, replication, tp)
    if data_parallel is None:
        return reading.finish(world, seq_len=seq_len)
    micro_batch, accumulation = _microbatches(reading, device, micro)
    batch = device * data_parallel
    if micro_batch is not None and accumulation is not None:
        reading.step(Derivation.B_PRODUCT, (micro_batch, data_parallel, accumulation), batch)
    else:
        reading.step(BATCH, (device, data_parallel), batch)
    if replication > 1:
        fixed = fix(parsed, GLOBAL, configured * replication)
        reading.add(REPLICATION(Replicated(configured, replication, batch), fix=fixed))
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=micro_batch,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
        intended=configured if batch != configured else None,
    )


def _divides(reading: Reading, parsed: Parsed, configured: int, world: int) -> bool:
    """``calculate_batch_size_info``: the global batch must divide by the world size (replication degree 1)."""
    if configured % world == 0:
        return True
    message = DIVISIBLE_MESSAGE.format(configured=configured, world=world)
    fixed = fix(parsed, GLOBAL, *neighbours(configured, world))
    reading.add(GBS(Divisible(configured, world), message=message, fix=fixed))
    return False


def _resolved(reading: Reading, parsed: Parsed, root: str, key: str) -> str:
    """The path a value really sits at: ``${variables.max_seq_len}`` followed (a few times) to its target."""
    path = f"{root}{key}"
    for _ in range(5):
        value = reading.raw(parsed, path)
        found = _INTERPOLATION.fullmatch(value.strip()) if isinstance(value, str) else None
        if found is None:
            break
        path = f"{root}{found.group(1)}"
    return path


def _composer_world(sources: list[Parsed]) -> World | None:
    """``composer -n 8 train/train.py …``: ``--world_size`` where given, else the processes ``-n`` starts."""
    for parsed in sources:
        commands = parsed.script.commands if parsed.script is not None else []
        for command in (c for c in commands if c.words and c.words[0].rsplit("/", 1)[-1] == "composer"):
            options: dict[str, str] = {}
            words, index = command.words, 1
            while index < len(words) and words[index].startswith("-"):
                name, has_value, value = words[index].partition("=")
                if not has_value and name not in _COMPOSER_SWITCHES and index + 1 < len(words):
                    index += 1
                    value = words[index]
                options[name] = value
                index += 1
            count = next((options[key] for key in ("--world_size", "-n", "--nproc") if key in options), "")
            if count.isdigit() and int(count) > 0:
                return World(int(count), f"composer, {parsed.source.name}:{command.line}")
    return None


def _platform_world(reading: Reading, parsed: Parsed) -> World | None:
    """``compute.gpus`` of a MosaicML platform run YAML."""
    gpus = reading.value(parsed, "compute.gpus") if _root(parsed) else None
    return World(gpus, f"compute.gpus, {parsed.source.name}") if gpus is not None else None


def _data_parallel(reading: Reading, world: int, replication: int, tp: int) -> int | None:
    """Distinct samples come from world // replication ranks; TP ranks count as data-parallel."""
    if tp > 1:
        reading.add(TENSOR_PARALLEL(TensorParallel(tp)))
    if replication == 1:
        reading.step(Derivation.DP_WORLD, (world,), world)
        return world
    if world % replication:
        message = SAMPLER_MESSAGE.format(rank=(world - 1) // replication, last=world // replication - 1)
        fixed = world_fix(*neighbours(world, replication))
        reading.add(REPLICATION_WORLD(ReplicationWorld(world, replication), message=message, fix=fixed))
        return None
    reading.step(DATA_PARALLEL, (world, replication), world // replication)
    return world // replication


def _microbatches(reading: Reading, device: int, micro: int | Auto) -> tuple[int | None, int | None]:
    """The micro-batch (reduced to the device batch) and the accumulation, where it is a whole number."""
    if micro is Auto.AUTO:
        reading.add(AUTO(AutoMicro(device)))
        return None, None
    if micro > device:
        reading.add(REDUCED(Reduced(micro, device), message=REDUCED_MESSAGE.format(micro=micro, device=device)))
        micro = device
    passes = -(-device // micro)
    reading.step(MICROBATCHES, (device, micro), passes)
    if device % micro:
        reading.add(UNEVEN(Uneven(device, micro, device // micro, device % micro)))
        return micro, None
    return micro, passes

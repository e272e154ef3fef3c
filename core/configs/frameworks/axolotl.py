"""axolotl's batch arithmetic (axolotl-ai-cloud/axolotl at 067b021, July 2026).

- ``utils/schemas/validation.py`` ``check_batch_size_fields`` (a "before" validator, on the YAML as
  written): at least two of micro_batch_size, gradient_accumulation_steps, batch_size must be set;
  ``check_...`` refuses gradient_accumulation_steps together with batch_size.
- ``utils/schemas/training.py``: the schema then fills ``gradient_accumulation_steps = 1`` and
  ``micro_batch_size = 1`` where they are absent, so ``normalize_config``'s
  ``gradient_accumulation_steps or batch_size // micro_batch_size`` keeps 1: ``batch_size`` beside
  ``micro_batch_size`` changes only the step count, not what trains. Only an explicit
  ``gradient_accumulation_steps: null`` reaches the floor ``batch_size // micro_batch_size``.
- ``utils/distributed.py`` ``_get_parallel_config_kwargs``: the world is divided by TP and CP; the
  rest goes to dp_shard (or dp_replicate); a rest that is left over is refused. accelerate's
  ``ParallelismConfig`` refuses sizes whose product is not the number of processes.
"""

from __future__ import annotations

from effbatch.core.configs.base.memory import MemoryFacts
from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, lookup
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.frameworks._shared.memory_facts import hf_facts

ID = "axolotl"
FIELDS = ("micro_batch_size", "gradient_accumulation_steps", "batch_size")
TWO_OF_THREE_MESSAGE = f"At least two of {', '.join(FIELDS)} must be set"
ONLY_ONE_MESSAGE = "please set only one of gradient_accumulation_steps or batch_size"
INCOMPATIBLE_MESSAGE = "The configured parallelisms are incompatible with the current world size ({world})!"
TOTAL_MESSAGE = "total_size ({total}) does not match num_processes ({world})"
A_FLOORED = "axolotl/accumulation"  # a = batch_size // micro_batch_size


@context
class Floored:
    batch_size: int
    micro: int
    accumulation: int
    real: int


@context
class BatchSizeIgnored:
    batch_size: int
    micro: int


@context
class Parallel:
    tp: int
    cp: int


@context
class Sizes:
    world: int
    total: int


TWO_OF_THREE = Rule("axolotl/two-of-three", Effect.REFUSED, Nothing)
ONLY_ONE = Rule("axolotl/only-one-of-accumulation-and-batch-size", Effect.REFUSED, Nothing)
FLOORED = Rule("axolotl/floored", Effect.CHANGED, Floored)
BATCH_SIZE_IGNORED = Rule("axolotl/batch-size-ignored", Effect.CHANGED, BatchSizeIgnored)
PARALLEL = Rule("axolotl/parallel-world-size", Effect.NOTE, Parallel)
INCOMPATIBLE = Rule("axolotl/parallelism-incompatible", Effect.REFUSED, Sizes)
RULES = (TWO_OF_THREE, ONLY_ONE, FLOORED, BATCH_SIZE_IGNORED, PARALLEL, INCOMPATIBLE)


def detect(parsed: Parsed) -> bool:
    """A YAML with ``micro_batch_size`` at the top and axolotl's own keys beside it."""
    data = parsed.data
    own = {"base_model", "sequence_len", "sample_packing", "datasets", "adapter", "load_in_8bit", "lora_r"}
    return parsed.format is Format.YAML and "micro_batch_size" in data and bool(own & set(data))


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if p.format in (Format.YAML, Format.JSON) and detect(p)), sources[0])
    reading = Reading(ID, pins)
    micro, accumulation, batch_size = (reading.value(parsed, key) for key in FIELDS)
    seq_len = reading.value(parsed, "sequence_len")
    if sum(v is not None for v in (micro, accumulation, batch_size)) < 2:
        reading.add(TWO_OF_THREE(Nothing(), message=TWO_OF_THREE_MESSAGE))
    elif accumulation is not None and batch_size is not None:
        reading.add(ONLY_ONE(Nothing(), message=ONLY_ONE_MESSAGE))
    if reading.findings:
        return reading.finish(world, micro_batch=micro, seq_len=seq_len)
    micro = micro or 1  # the schema's default
    accumulation = _accumulation(reading, parsed, micro, accumulation, batch_size)
    world = reading.world(world)
    data_parallel = _data_parallel(reading, parsed, world.size)
    if data_parallel is None or accumulation < 1:
        return reading.finish(world, micro_batch=micro, seq_len=seq_len)
    batch = micro * accumulation * data_parallel
    reading.step(Derivation.B_PRODUCT, (micro, data_parallel, accumulation), batch)
    intended = batch_size * data_parallel if batch_size is not None and batch_size != micro * accumulation else None
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
        intended=intended,
        memory=_memory(sources, parsed),
    )


def _memory(sources: list[Parsed], parsed: Parsed) -> MemoryFacts | None:
    """``base_model`` (a Hugging Face id the table knows) as the Trainer's runs read it: ``adapter`` (LoRA, QLoRA)
    has none; the DeepSpeed config beside it, ``fsdp``, ``bf16``, ``gradient_checkpointing``, TP and CP sizes."""
    degrees = {
        "tp_size": lookup(parsed.data, "tensor_parallel_size"),
        "cp_size": lookup(parsed.data, "context_parallel_size"),
    }
    sizes = {key: value for key, value in degrees.items() if isinstance(value, int) and value >= 1}
    return hf_facts(sources, parsed.data, sizes, fix(parsed, "micro_batch_size", 1))


def _accumulation(
    reading: Reading, parsed: Parsed, micro: int, accumulation: int | None, batch_size: int | None
) -> int:
    """The schema's default of 1, or (only where the YAML writes ``null``) ``batch_size // micro_batch_size``."""
    if accumulation is not None or batch_size is None:
        return accumulation or 1
    if "gradient_accumulation_steps" not in parsed.data:  # absent: the schema's 1 wins over batch_size
        if batch_size != micro:
            fixed = fix(parsed, "gradient_accumulation_steps", batch_size // micro or None)
            reading.add(BATCH_SIZE_IGNORED(BatchSizeIgnored(batch_size, micro), fix=fixed))
        return 1
    floored = batch_size // micro
    reading.step(A_FLOORED, (batch_size, micro), floored)
    if batch_size % micro or floored == 0:
        fixed = fix(parsed, "batch_size", micro * floored or None, micro * (floored + 1))
        reading.add(FLOORED(Floored(batch_size, micro, floored, micro * floored), fix=fixed))
    return floored


def _data_parallel(reading: Reading, parsed: Parsed, world: int) -> int | None:
    """``_get_parallel_config_kwargs``: TP and CP first, the rest to dp_shard and dp_replicate."""
    tp, cp = (reading.value(parsed, key) or 1 for key in ("tensor_parallel_size", "context_parallel_size"))
    shard, replicate = (reading.value(parsed, key) for key in ("dp_shard_size", "dp_replicate_size"))
    fsdp = bool(lookup(parsed.data, "fsdp_config") or lookup(parsed.data, "fsdp"))
    rest = world // tp // cp
    if shard is None and replicate in (None, 1):
        shard, rest = (rest, 1) if rest > 1 else (1, rest)
    replicate = replicate or 1
    rest //= replicate
    if rest > 1 and shard is not None and shard > 1 and fsdp:
        rest //= shard
        replicate, rest = (replicate * rest, 1) if rest > 1 and replicate == 1 else (replicate, rest)
    shard = shard or 1
    total = tp * cp * shard * replicate
    if rest > 1 or total != world:
        message = (
            INCOMPATIBLE_MESSAGE.format(world=world) if rest > 1 else TOTAL_MESSAGE.format(total=total, world=world)
        )
        reading.add(INCOMPATIBLE(Sizes(world, total), message=message))
        return None
    if tp > 1 or cp > 1:
        reading.add(PARALLEL(Parallel(tp, cp)))
    reading.step(Derivation.DP_AXOLOTL, (world, cp, tp), shard * replicate)
    return shard * replicate

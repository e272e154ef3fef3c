"""DeepSpeed's batch arithmetic, as ``deepspeed/runtime/config.py`` does it (DeepSpeedConfig, 2026).

- world size: ``dist.get_world_size()``, divided by ``sequence_parallel_size`` when the config has
  one (Ulysses; without an mpu, in ``DeepSpeedConfig.__init__``). Read before
  ``torch.distributed`` is initialised, it is 1.
- ``_set_batch_related_parameters``: a missing one of train_batch_size, micro batch and
  accumulation is filled in with integer division, in DeepSpeed's order; with only one given,
  the others follow from it; with neither batch size, it refuses.
- ``_batch_assertion``: ``train_batch == micro_batch * grad_acc * world_size``, each > 0.
- ``tensor_parallel.autotp_size`` (AutoTP) does not change that world size: the ranks of one
  tensor-parallel group are counted as data-parallel.
"""

from __future__ import annotations

from effbatch.core.configs.base import (
    Auto,
    Check,
    CheckError,
    Derivation,
    Effect,
    Nothing,
    Parsed,
    Pins,
    ProblemKind,
    Reading,
    Rule,
    World,
    context,
    fix,
    neighbours,
    world_fix,
)
from effbatch.core.configs.frameworks._shared.deepspeed_config import (
    ACCUMULATION,
    AUTOTP,
    MICRO,
    SEQUENCE_PARALLEL,
    TRAIN,
    deepspeed_config,
    is_deepspeed_config,
)

ID = "deepspeed"

ASSERTION_MESSAGE = (
    "Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * "
    "world_size {train} != {micro} * {accumulation} * {world}"
)
MISSING_MESSAGE = "Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided"


@context
class Batch:
    train: int
    micro: int
    accumulation: int
    world: int
    product: int


@context
class Divided:
    key: str
    value: int
    train: int
    divisor: int


@context
class Multiplied:
    value: int


@context
class Required:
    world: int
    data_parallel: int


@context
class NoWorld:
    train: int
    micro: int
    accumulation: int
    step: int


@context
class SequenceParallel:
    sequence_parallel: int
    world: int
    data_parallel: int


@context
class SequenceParallelWorld:
    sequence_parallel: int
    world: int


@context
class AutoTP:
    autotp: int
    world: int
    distinct: int


@context
class WorldUnset:
    world: int


@context
class AutoKeys:
    keys: str


ASSERTION = Rule("deepspeed/batch-assertion", Effect.REFUSED, Batch)
FILLED_DIVIDED = Rule("deepspeed/filled-in", Effect.NOTE, Divided)
FILLED_MULTIPLIED = Rule("deepspeed/filled-in-product", Effect.NOTE, Multiplied)
NEEDS_WORLD = Rule("deepspeed/required-world-size", Effect.NOTE, Required)
NO_WORLD_FITS = Rule("deepspeed/no-world-size-fits", Effect.REFUSED, NoWorld)
MISSING = Rule("deepspeed/missing-batch-size", Effect.REFUSED, Nothing)
SEQUENCE_PARALLEL_RULE = Rule("deepspeed/sequence-parallel", Effect.NOTE, SequenceParallel)
SEQUENCE_PARALLEL_WORLD = Rule("deepspeed/sequence-parallel-world-size", Effect.REFUSED, SequenceParallelWorld)
AUTOTP_RULE = Rule("deepspeed/autotp-counted-as-data-parallel", Effect.PITFALL, AutoTP)
WORLD_UNSET = Rule("deepspeed/world-size-before-launch", Effect.NOTE, WorldUnset)
AUTO_ALONE = Rule("deepspeed/auto-without-trainer", Effect.PITFALL, AutoKeys)
RULES = (
    ASSERTION,
    FILLED_DIVIDED,
    FILLED_MULTIPLIED,
    NEEDS_WORLD,
    NO_WORLD_FITS,
    MISSING,
    SEQUENCE_PARALLEL_RULE,
    SEQUENCE_PARALLEL_WORLD,
    AUTOTP_RULE,
    WORLD_UNSET,
    AUTO_ALONE,
)


def detect(parsed: Parsed) -> bool:
    """DeepSpeed's own keys, or a JSON with ``train_batch_size`` at the top (a torchtune recipe is neither)."""
    return is_deepspeed_config(parsed)


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    config = deepspeed_config(sources) or sources[0]
    reading = Reading(ID, pins)
    given = {key: reading.auto(config, key) for key in (TRAIN, MICRO, ACCUMULATION)}
    if autos := [key for key, value in given.items() if value is Auto.AUTO]:
        # a config written for the Hugging Face Trainer: only a pitfall when DeepSpeed is launched without it
        reading.add(AUTO_ALONE(AutoKeys(", ".join(autos))))
        return reading.finish(world)
    train, micro, accumulation = (v if isinstance(v, int) else None for v in given.values())
    sequence_parallel = reading.value(config, SEQUENCE_PARALLEL) or 1
    autotp = reading.value(config, AUTOTP) or 1
    if train is None and micro is None:
        reading.add(MISSING(Nothing(), message=MISSING_MESSAGE))
        return reading.finish(world)
    if world is None:
        return _without_world(reading, config, train, micro, accumulation, sequence_parallel)
    reading.world(world)
    data_parallel = _data_parallel(reading, world.size, sequence_parallel)
    if data_parallel is None:
        return reading.finish(world, micro_batch=micro, accumulation=accumulation)
    all_given = None not in (train, micro, accumulation)
    train, micro, accumulation = fill(reading, train, micro, accumulation, data_parallel)
    _assert_batch(reading, config, train, micro, accumulation, data_parallel)
    if autotp > 1:
        reading.add(AUTOTP_RULE(AutoTP(autotp, data_parallel, train // autotp)))
    if all_given and micro * accumulation * data_parallel == train and world.size > 1:
        message = ASSERTION_MESSAGE.format(train=train, micro=micro, accumulation=accumulation, world=1)
        reading.add(WORLD_UNSET(WorldUnset(world.size), message=message))
    return reading.finish(
        world, data_parallel=data_parallel, micro_batch=micro, accumulation=accumulation, global_batch=train
    )


def fill(
    reading: Reading, train: int | None, micro: int | None, accumulation: int | None, world: int
) -> tuple[int, int, int]:
    """``_set_batch_related_parameters``: the missing values, by integer division as DeepSpeed does."""
    if train is not None and micro is not None and accumulation is not None:
        reading.step(Derivation.B_PRODUCT, (micro, world, accumulation), micro * world * accumulation)
        return train, micro, accumulation
    if train is not None and micro is not None:
        accumulation = train // micro // world
        reading.step(Derivation.A_DEEPSPEED, (train, micro, world), accumulation)
        reading.add(FILLED_DIVIDED(Divided(ACCUMULATION, accumulation, train, micro * world)))
        return train, micro, accumulation
    if train is not None:
        accumulation = accumulation or 1
        micro = train // world // accumulation
        reading.step(Derivation.B_DEEPSPEED, (train, world, accumulation), micro)
        reading.add(FILLED_DIVIDED(Divided(MICRO, micro, train, world * accumulation)))
        return train, micro, accumulation
    micro, accumulation = micro or 1, accumulation or 1
    train = micro * accumulation * world
    reading.step(Derivation.B_PRODUCT, (micro, world, accumulation), train)
    reading.add(FILLED_MULTIPLIED(Multiplied(train)))
    return train, micro, accumulation


def _assert_batch(reading: Reading, config: Parsed, train: int, micro: int, accumulation: int, world: int) -> None:
    """``_batch_assertion``: its own message, and values that would pass (the accumulation, else the batch)."""
    product = micro * accumulation * world
    if train >= 1 and micro >= 1 and accumulation >= 1 and train == product:
        return
    message = ASSERTION_MESSAGE.format(train=train, micro=micro, accumulation=accumulation, world=world)
    divisor = max(micro, 1) * world
    if train % divisor == 0 and train >= divisor:
        fixed = fix(config, ACCUMULATION, train // divisor)
    else:
        fixed = fix(config, TRAIN, product)
    reading.add(ASSERTION(Batch(train, micro, accumulation, world, product), message=message, fix=fixed))


def _data_parallel(reading: Reading, world: int, sequence_parallel: int) -> int | None:
    if sequence_parallel == 1:
        reading.step(Derivation.DP_WORLD, (world,), world)
        return world
    if world % sequence_parallel:
        below, above = neighbours(world, sequence_parallel)
        context = SequenceParallelWorld(sequence_parallel, world)
        reading.add(SEQUENCE_PARALLEL_WORLD(context, fix=world_fix(below, above)))
        return None
    data_parallel = world // sequence_parallel
    reading.add(SEQUENCE_PARALLEL_RULE(SequenceParallel(sequence_parallel, world, data_parallel)))
    reading.step(Derivation.DP_SEQUENCE_PARALLEL, (world, sequence_parallel), data_parallel)
    return data_parallel


def _without_world(
    reading: Reading,
    config: Parsed,
    train: int | None,
    micro: int | None,
    accumulation: int | None,
    sequence_parallel: int,
) -> Check:
    """All three given: the config itself fixes the world size it can run on; else it is needed."""
    if train is None or micro is None or accumulation is None:
        raise CheckError(ProblemKind.WORLD_SIZE_NEEDED, framework=ID)
    step = micro * accumulation
    required, remainder = divmod(train, step)
    if remainder or required == 0:
        below, above = neighbours(train, step)
        context = NoWorld(train, micro, accumulation, step)
        reading.add(NO_WORLD_FITS(context, fix=fix(config, TRAIN, below, above)))
        return reading.finish(None, micro_batch=micro, accumulation=accumulation)
    reading.add(NEEDS_WORLD(Required(required * sequence_parallel, required)))
    reading.step(Derivation.B_PRODUCT, (micro, required, accumulation), train)
    return reading.finish(
        None, data_parallel=required, micro_batch=micro, accumulation=accumulation, global_batch=train
    )

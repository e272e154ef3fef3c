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

from core.configs.common import AUTO, Reading, check_data, neighbours, positive
from core.configs.model import Check, CheckError, Derivation, Framework, Level, ProblemKind, Rule, World
from core.configs.reading import Format, Parsed

TRAIN = "train_batch_size"
MICRO = "train_micro_batch_size_per_gpu"
ACCUMULATION = "gradient_accumulation_steps"
SEQUENCE_PARALLEL = "sequence_parallel_size"
AUTOTP = "tensor_parallel.autotp_size"

ASSERTION = (
    "Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * "
    "world_size {train} != {micro} * {accumulation} * {world}"
)
MISSING = "Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided"


def deepspeed_config(sources: list[Parsed]) -> Parsed | None:
    """The DeepSpeed JSON among the sources, if any."""
    return next((p for p in sources if p.format is Format.JSON and {TRAIN, MICRO, ACCUMULATION} & set(p.data)), None)


def check(sources: list[Parsed], world: World | None) -> Check:
    config = deepspeed_config(sources) or sources[0]
    reading = Reading(Framework.DEEPSPEED)
    values = {key: reading.key(config, key, auto=True) for key in (TRAIN, MICRO, ACCUMULATION)}
    if AUTO in values.values():
        keys = [key for key, value in values.items() if value == AUTO]
        # a config written for the Hugging Face Trainer: only a pitfall when DeepSpeed is launched without it
        reading.finding(Level.WARNING, Rule.DEEPSPEED_AUTO_ALONE, keys=keys)
        return Check(**check_data(Framework.DEEPSPEED, reading, world, **_nothing()))
    train, micro, accumulation = (positive(values[k], k, config.where(k)) for k in (TRAIN, MICRO, ACCUMULATION))
    sequence_parallel = positive(reading.key(config, SEQUENCE_PARALLEL), SEQUENCE_PARALLEL, config.source.name) or 1
    autotp = positive(reading.key(config, AUTOTP), AUTOTP, config.source.name) or 1
    if train is None and micro is None:
        reading.finding(Level.ERROR, Rule.DEEPSPEED_MISSING, message=MISSING)
        return Check(**check_data(Framework.DEEPSPEED, reading, world, **_nothing()))
    if world is None:
        return _without_world(reading, train, micro, accumulation, sequence_parallel)
    reading.note("world_size", world.size, world.where)
    data_parallel = _data_parallel(reading, world.size, sequence_parallel)
    if data_parallel is None:
        return Check(**check_data(Framework.DEEPSPEED, reading, world, **_nothing()))
    all_given = train is not None and micro is not None and accumulation is not None
    train, micro, accumulation = fill(reading, train, micro, accumulation, data_parallel)
    starts = _assert_batch(reading, train, micro, accumulation, data_parallel)
    if autotp > 1:
        reading.finding(
            Level.WARNING, Rule.DEEPSPEED_AUTOTP, autotp=autotp, world=data_parallel, distinct=train // autotp
        )
    if all_given and micro * accumulation * data_parallel == train and world.size > 1:
        message = ASSERTION.format(train=train, micro=micro, accumulation=accumulation, world=1)
        reading.finding(Level.INFO, Rule.DEEPSPEED_WORLD_UNSET, message=message)
    return Check(
        **check_data(
            Framework.DEEPSPEED,
            reading,
            world,
            data_parallel=data_parallel,
            micro_batch=micro,
            accumulation=accumulation,
            global_batch=train if starts else None,
            seq_len=None,
        )
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
        _filled(reading, ACCUMULATION, accumulation, train, micro * world)
    elif train is not None and accumulation is not None:
        micro = train // world // accumulation
        reading.step(Derivation.B_DEEPSPEED, (train, world, accumulation), micro)
        _filled(reading, MICRO, micro, train, world * accumulation)
    elif micro is not None and accumulation is not None:
        train = micro * accumulation * world
        reading.step(Derivation.B_PRODUCT, (micro, world, accumulation), train)
        reading.finding(Level.INFO, Rule.DEEPSPEED_FILLED, key=TRAIN, value=train)
    elif train is not None:
        accumulation, micro = 1, train // world
        reading.step(Derivation.B_DEEPSPEED, (train, world, 1), micro)
        _filled(reading, MICRO, micro, train, world)
    else:
        assert micro is not None  # neither batch size was refused before
        accumulation, train = 1, micro * world
        reading.step(Derivation.B_PRODUCT, (micro, world, 1), train)
        reading.finding(Level.INFO, Rule.DEEPSPEED_FILLED, key=TRAIN, value=train)
    return train, micro, accumulation


def _filled(reading: Reading, key: str, value: int, train: int, divisor: int) -> None:
    """A filled-in value; where the division was not whole, ``_batch_assertion`` refuses the result."""
    reading.finding(Level.INFO, Rule.DEEPSPEED_FILLED, key=key, value=value, exact=train % divisor == 0)


def _assert_batch(reading: Reading, train: int, micro: int, accumulation: int, world: int) -> bool:
    """``_batch_assertion``: whether DeepSpeed starts; if not, its own message and values that would pass."""
    product = micro * accumulation * world
    if train >= 1 and micro >= 1 and accumulation >= 1 and train == product:
        return True
    message = ASSERTION.format(train=train, micro=micro, accumulation=accumulation, world=world)
    divisor = max(micro, 1) * world
    fitting = train // divisor if train % divisor == 0 and train >= divisor else None
    reading.finding(
        Level.ERROR,
        Rule.DEEPSPEED_ASSERTION,
        message=message,
        product=product if product >= 1 else None,
        train=train,
        accumulation=fitting,
    )
    return False


def _data_parallel(reading: Reading, world: int, sequence_parallel: int) -> int | None:
    if sequence_parallel == 1:
        reading.step(Derivation.DP_WORLD, (world,), world)
        return world
    reading.finding(Level.INFO, Rule.DEEPSPEED_SEQUENCE_PARALLEL, sequence_parallel=sequence_parallel, world=world)
    if world % sequence_parallel:
        message = f"world_size = {world} / {sequence_parallel} = {world / sequence_parallel}"
        reading.finding(Level.ERROR, Rule.DEEPSPEED_ASSERTION, message=message, product=None, train=None)
        return None
    reading.step(Derivation.DP_SEQUENCE_PARALLEL, (world, sequence_parallel), world // sequence_parallel)
    return world // sequence_parallel


def _without_world(
    reading: Reading, train: int | None, micro: int | None, accumulation: int | None, sequence_parallel: int
) -> Check:
    """All three given: the config itself fixes the world size it can run on; else it is needed."""
    if train is None or micro is None or accumulation is None:
        raise CheckError(ProblemKind.WORLD_SIZE_NEEDED, framework=Framework.DEEPSPEED)
    required, remainder = divmod(train, micro * accumulation)
    if remainder:
        below, above = neighbours(train, micro * accumulation)
        message = ASSERTION.format(train=train, micro=micro, accumulation=accumulation, world="…")
        reading.finding(
            Level.ERROR, Rule.DEEPSPEED_ASSERTION, message=message, product=None, train=train, below=below, above=above
        )
        return Check(**check_data(Framework.DEEPSPEED, reading, None, **_nothing()))
    reading.finding(Level.INFO, Rule.DEEPSPEED_NEEDS_WORLD, world=required * sequence_parallel, data_parallel=required)
    reading.step(Derivation.B_PRODUCT, (micro, required, accumulation), train)
    return Check(
        **check_data(
            Framework.DEEPSPEED,
            reading,
            None,
            data_parallel=required,
            micro_batch=micro,
            accumulation=accumulation,
            global_batch=train,
            seq_len=None,
        )
    )


def _nothing() -> dict[str, int | None]:
    return dict.fromkeys(("data_parallel", "micro_batch", "accumulation", "global_batch", "seq_len"))

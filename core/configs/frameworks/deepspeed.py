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

A training script that calls ``deepspeed.initialize`` is DeepSpeed's run whatever else it sets (a nanoGPT-style
``batch_size``, an argparse ``--per_device_train_batch_size``): the config it hands over decides the batch
(``deepspeed/__init__.py`` ``initialize``, 0.16.5): ``config=`` (else ``config_params=``), a dict or a path; else
``args.deepspeed_config`` (``--deepspeed_config`` of ``deepspeed.add_config_arguments``; ``--deepscale_config``
before it); both given, or neither: DeepSpeed refuses. A path is read as hjson: the JSON among the files.
With an ``mpu`` or a ``PipelineModule``, the world it divides by is that mpu's data-parallel one, which the script
decides at run time: named, never guessed.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import NoReturn

from effbatch.core.configs.base.errors import CheckError, ProblemKind
from effbatch.core.configs.base.pyscript import CallSite, Given, Instance, PyScript, Unknown, via_of
from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Auto, Reading, fix, neighbours, world_fix
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.frameworks._shared.deepspeed_config import (
    ACCUMULATION,
    AUTOTP,
    MICRO,
    SEQUENCE_PARALLEL,
    TRAIN,
    deepspeed_config,
    initialize_call,
    is_deepspeed_config,
)
from effbatch.core.configs.frameworks._shared.torch_loader import training_loader

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


@context
class Initialize:
    where: str


@context
class OwnLoader:
    loader: int
    where: str
    micro: int
    trained: int
    counted: int


@context
class TakenConfig:
    where: str
    config: str


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
NO_CONFIG = Rule("deepspeed/initialize-without-config", Effect.REFUSED, Initialize)
TWO_CONFIGS = Rule("deepspeed/initialize-two-configs", Effect.REFUSED, Initialize)
CONFIG_AMONG_FILES = Rule("deepspeed/initialize-config-among-files", Effect.NOTE, TakenConfig)
OWN_LOADER = Rule("deepspeed/script-loader-differs", Effect.PITFALL, OwnLoader)
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
    NO_CONFIG,
    TWO_CONFIGS,
    CONFIG_AMONG_FILES,
    OWN_LOADER,
)


def detect(parsed: Parsed) -> bool:
    """DeepSpeed's own keys, or a JSON with ``train_batch_size`` at the top (a torchtune recipe is neither); or a
    script that calls ``deepspeed.initialize``."""
    return is_deepspeed_config(parsed) or initialize_call(parsed, run=True) is not None


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    reading = Reading(ID, pins)
    script = next((p for p in sources if initialize_call(p, run=True) is not None), None)
    config = (deepspeed_config(sources) or sources[0]) if script is None else script_config(reading, sources, script)
    if config is None:
        return reading.finish(world)
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
    _own_loader(reading, script, micro, accumulation, data_parallel)
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


# --- a training script that calls deepspeed.initialize ---------------------------------------------------------------

NO_CONFIG_MESSAGE = "DeepSpeed requires --deepspeed_config to specify configuration file"
TWO_CONFIGS_MESSAGE = (
    "Not sure how to proceed, we were given deepspeed configs in the deepspeed arguments and deepspeed.initialize() "
    "function call"
)


def script_config(reading: Reading, sources: list[Parsed], parsed: Parsed) -> Parsed | None:
    """The config ``deepspeed.initialize`` is handed, as DeepSpeed takes it; None where DeepSpeed refuses (the
    finding added); ``CheckError`` naming it where only the run decides it (or the world DeepSpeed divides by)."""
    call, script, name = initialize_call(parsed), parsed.python or PyScript(), parsed.source.name
    if call is None:
        return None
    where = f"{name}:{call.line}"
    _own_world(call, script.called("PipelineModule"), where)
    given = _handed(call)
    from_args = _from_args(call)
    if from_args is not None and from_args.value is not None:
        if given is not None:
            reading.add(TWO_CONFIGS(Initialize(where), message=TWO_CONFIGS_MESSAGE))
            return None
        given = from_args
    if given is None and from_args is not None and not script.launch:
        return _among_files(reading, sources, where)  # no launch line: --deepspeed_config is what it would give
    if given is None:
        reading.add(NO_CONFIG(Initialize(where), message=NO_CONFIG_MESSAGE))
        return None
    return _config_of(reading, sources, parsed, given)


def _handed(call: CallSite) -> Given | None:
    """``config=``, else ``config_params=`` (``if config is None and config_params is not None``)."""
    for key in ("config", "config_params"):
        given = call.keywords.get(key)
        if given is not None and given.value is not None:
            return given
    return None


def _from_args(call: CallSite) -> Given | None:
    """``args.deepspeed_config`` of the namespace ``args=`` (or the first positional) is, ``--deepscale_config``
    taking its place where given."""
    args = call.keywords.get("args") or (call.args[0] if call.args else None)
    if args is None or not isinstance(args.value, Instance):
        return None
    fields = args.value.fields
    old = fields.get("deepscale_config")
    if old is not None and old.value is not None:
        return old
    return fields.get("deepspeed_config")


def _own_world(call: CallSite, pipelines: list[CallSite], where: str) -> None:
    """An ``mpu`` or a ``PipelineModule``: DeepSpeed divides by that mpu's data-parallel world, the run's own."""
    mpu = call.keywords.get("mpu")
    if any(p.reached for p in pipelines):
        _undecided("data_parallel", Unknown(_MPU_WORLD, ("PipelineModule.num_stages",)), where)
    if mpu is not None and mpu.value is not None:
        _undecided("data_parallel", Unknown(_MPU_WORLD, ("mpu",)), where)


_MPU_WORLD = "mpu.get_data_parallel_world_size()"


def _config_of(reading: Reading, sources: list[Parsed], parsed: Parsed, given: Given) -> Parsed:
    """A dict as the script builds it, or the file a path names among the sources."""
    name, script = parsed.source.name, parsed.python
    where, value = given.where(name), given.value
    if isinstance(value, dict):
        return Parsed(parsed.source, Format.PYTHON, dict(value), python=script, places=dict.fromkeys(value, where))
    if not isinstance(value, str):
        written = value if isinstance(value, Unknown) else Unknown(str(value)[:60])
        _undecided("deepspeed_config", written, where)
    reading.note("deepspeed_config", value, where, via=via_of(given, script, name) if script else None)
    wanted = PurePosixPath(value).name
    found = next((p for p in sources if PurePosixPath(p.source.name).name == wanted and p is not parsed), None)
    if found is None:
        _undecided("deepspeed_config", Unknown(value), where)
    return found


def _among_files(reading: Reading, sources: list[Parsed], where: str) -> Parsed:
    """No launch line gives ``--deepspeed_config``: the one DeepSpeed config among the files, said as taken; else
    named."""
    configs = [p for p in sources if is_deepspeed_config(p)]
    if len(configs) != 1:
        _undecided("deepspeed_config", Unknown("args.deepspeed_config"), where)
    reading.add(CONFIG_AMONG_FILES(TakenConfig(where, configs[0].source.name)))
    return configs[0]


def _undecided(key: str, value: Unknown, where: str) -> NoReturn:
    """Exit 2 naming what only the run decides (``--deepspeed_config`` unless the value says what it needs)."""
    needs = ", ".join(value.needs or ("--deepspeed_config",))
    raise CheckError(ProblemKind.BAD_VALUE, key=key, value=value.written[:60], where=where, runtime=True, needs=needs)


def _own_loader(reading: Reading, parsed: Parsed | None, micro: int, accumulation: int, data_parallel: int) -> None:
    """A script that feeds the engine from a DataLoader of its own (no ``training_data=``): each engine step trains
    on that loader's batch, whatever ``train_micro_batch_size_per_gpu`` DeepSpeed counts with."""
    call = initialize_call(parsed) if parsed is not None else None
    if parsed is None or parsed.python is None or call is None or "training_data" in call.keywords:
        return
    loader = training_loader(parsed.python)
    if loader is None or isinstance(loader.value, bool) or not isinstance(loader.value, int) or loader.value == micro:
        return
    trained = loader.value * data_parallel * accumulation
    context = OwnLoader(
        loader.value, loader.where(parsed.source.name), micro, trained, micro * data_parallel * accumulation
    )
    reading.add(OWN_LOADER(context))

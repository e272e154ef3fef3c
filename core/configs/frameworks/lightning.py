"""PyTorch Lightning's batch arithmetic for a LightningCLI YAML (Lightning-AI/pytorch-lightning at 7f0c343, July
2026, src/lightning/pytorch/; run here as lightning 2.6.6).

- The batch is the DataLoader's, per device: Lightning injects a DistributedSampler and leaves the batch size
  alone (``trainer/connectors/data_connector.py:169-175``); in a LightningCLI YAML it sits in the DataModule's
  arguments (``data.batch_size``, ``data.init_args.batch_size``), under no name of Lightning's.
- DDP, FSDP, DeepSpeed: ``num_replicas = num_nodes * num_processes`` (``strategies/ddp.py:137-138``,
  ``fsdp.py:249``, ``deepspeed.py:599``), so B = b · devices · num_nodes · accumulate_grad_batches.
  ``devices`` (``trainer/trainer.py:96``) is per node; ``-1`` and ``"auto"`` take every GPU the machine has.
- ``ModelParallelStrategy``: d = ``data_parallel_size``; ``"auto"`` is num_nodes (and TP the GPUs of a node,
  ``strategies/model_parallel.py:153-156``); dp · tp must be the world size (fabric ``model_parallel.py:526-531``).
- The ``dp`` strategy (DataParallel) was removed in 2.0 (CHANGELOG.md:910, #16748): refused as an invalid
  strategy name (``trainer/connectors/accelerator_connector.py:191-196``).
- A ``GradientAccumulationScheduler`` callback sets the accumulation by epoch (epoch 0 defaults to 1,
  ``callbacks/gradient_accumulation_scheduler.py:86-87``), refused beside ``accumulate_grad_batches`` (``:132-136``).
- Lightning steps the optimizer on the last batch of an epoch, however short the window
  (``loops/training_epoch_loop.py:446-453``).
"""

from __future__ import annotations

from typing import Any

from effbatch.core.configs.base.pyscript import Instance, via_of
from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, lookup, whole, world_fix
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.frameworks._shared.megatron_core import nemo_yaml
from effbatch.core.configs.frameworks._shared.torch_loader import training_loader

ID = "lightning"
STRATEGY_MESSAGE = (
    "You selected an invalid strategy name: `strategy={strategy!r}`. It must be either a string or an instance of "
    "`lightning.pytorch.strategies.Strategy`. Example choices: auto, ddp, ddp_spawn, deepspeed, ... Find a complete "
    "list of options in our documentation at https://lightning.ai"
)
SCHEDULER_MESSAGE = (
    "You have set `accumulate_grad_batches` and are using the `GradientAccumulationScheduler` callback. Either "
    "remove `accumulate_grad_batches` from the Trainer or remove the callback."
)
MODEL_PARALLEL_MESSAGE = (
    "The sizes `data_parallel_size={dp}` and `tensor_parallel_size={tp}` multiplied should equal the world size "
    "({world})."
)
#: Strategy names Lightning 2.0 removed (CHANGELOG.md: DataParallel, ddp2, Horovod, sharded, Bagua, Colossal-AI).
REMOVED = ("dp", "ddp2", "horovod", "ddp_sharded", "ddp_sharded_spawn", "bagua", "colossalai")
TRAINER_KEYS = {"devices", "num_nodes", "accumulate_grad_batches", "strategy", "accelerator", "precision", "callbacks"}
BATCH_KEYS = ("batch_size", "train_batch_size")
SEQ_LEN_KEYS = ("seq_len", "max_length", "max_seq_length", "block_size", "seq_length")
SCHEDULER = "GradientAccumulationScheduler"
WORLD = "lightning/world"  # world = devices · num_nodes


@context
class Strategy:
    strategy: str


@context
class Sizes:
    data_parallel: int
    tensor_parallel: int
    world: int


@context
class FromMachine:
    devices: str
    world: int


@context
class Schedule:
    schedule: str


@context
class Window:
    accumulation: int


STRATEGY_REMOVED = Rule("lightning/strategy-removed", Effect.REFUSED, Strategy)
SCHEDULER_AND_ACCUMULATE = Rule("lightning/scheduler-and-accumulate", Effect.REFUSED, Nothing)
MODEL_PARALLEL_WORLD = Rule("lightning/model-parallel-world-size", Effect.REFUSED, Sizes)
MODEL_PARALLEL = Rule("lightning/model-parallel", Effect.NOTE, Sizes)
DEVICES_FROM_MACHINE = Rule("lightning/devices-from-machine", Effect.PITFALL, FromMachine)
ACCUMULATION_SCHEDULE = Rule("lightning/accumulation-schedule", Effect.NOTE, Schedule)
LAST_WINDOW = Rule("lightning/last-window", Effect.NOTE, Window)
BATCH_UNKNOWN = Rule("lightning/batch-in-datamodule", Effect.NOTE, Nothing)
RULES = (
    STRATEGY_REMOVED,
    SCHEDULER_AND_ACCUMULATE,
    MODEL_PARALLEL_WORLD,
    MODEL_PARALLEL,
    DEVICES_FROM_MACHINE,
    ACCUMULATION_SCHEDULE,
    LAST_WINDOW,
    BATCH_UNKNOWN,
)


def detect(parsed: Parsed) -> bool:
    """A LightningCLI YAML: a ``trainer`` section with the Trainer's own keys beside ``data``/``model``, not NeMo's;
    or a script that builds Lightning's ``Trainer`` (imported from ``lightning`` or ``pytorch_lightning``)."""
    if parsed.format is Format.PYTHON:
        return _trainer(parsed) is not None
    trainer = parsed.data.get("trainer")
    return (
        parsed.format is Format.YAML
        and isinstance(trainer, dict)
        and bool((TRAINER_KEYS | {"max_epochs", "max_steps"}) & set(trainer))
        and any(isinstance(parsed.data.get(key), dict) for key in ("data", "model"))
        and not nemo_yaml(parsed.data)
    )


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = _as_config(next((p for p in sources if detect(p)), sources[0]))
    world = None if world is not None and world.single else world  # plain python: the Trainer starts the processes
    reading = Reading(ID, pins)
    strategy = lookup(parsed.data, "trainer.strategy")
    if isinstance(strategy, str) and strategy in REMOVED:
        reading.raw(parsed, "trainer.strategy")
        reading.add(STRATEGY_REMOVED(Strategy(strategy), message=STRATEGY_MESSAGE.format(strategy=strategy)))
        return reading.finish(world)
    batch = _first(reading, parsed, BATCH_KEYS)
    seq_len = _first(reading, parsed, SEQ_LEN_KEYS)
    accumulation = _accumulation(reading, parsed)
    world, nodes = _world(reading, parsed, world)
    data_parallel = _data_parallel(reading, parsed, world.size, nodes)
    if accumulation is None or data_parallel is None:
        return reading.finish(world, data_parallel=data_parallel, micro_batch=batch, seq_len=seq_len)
    if accumulation > 1:
        reading.add(LAST_WINDOW(Window(accumulation)))
    if batch is None:
        reading.add(BATCH_UNKNOWN(Nothing()))
        return reading.finish(world, data_parallel=data_parallel, accumulation=accumulation, seq_len=seq_len)
    total = batch * data_parallel * accumulation
    reading.step(Derivation.B_PRODUCT, (batch, data_parallel, accumulation), total)
    _schedule(reading, parsed, batch * data_parallel)
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=batch,
        accumulation=accumulation,
        global_batch=total,
        seq_len=seq_len,
    )


def _first(reading: Reading, parsed: Parsed, keys: tuple[str, ...]) -> int | None:
    """The first of ``keys`` in the DataModule's arguments (``data.init_args`` or ``data``)."""
    for section in ("data.init_args", "data"):
        for key in keys:
            if isinstance(lookup(parsed.data, f"{section}.{key}"), int | str):
                return reading.value(parsed, f"{section}.{key}")
    return None


def _world(reading: Reading, parsed: Parsed, world: World | None) -> tuple[World, int]:
    """devices · num_nodes; where ``devices`` is -1 or ``"auto"`` (the default), the GPUs the machine has."""
    nodes = reading.value(parsed, "trainer.num_nodes") or 1
    devices = _devices(reading.raw(parsed, "trainer.devices"), parsed)
    if devices is None:
        given = reading.world(world)
        written = str(lookup(parsed.data, "trainer.devices") or "auto")
        reading.add(DEVICES_FROM_MACHINE(FromMachine(written, given.size)))
        return given, nodes
    reading.step(WORLD, (devices, nodes), devices * nodes)
    return World(devices * nodes, f"trainer.devices × trainer.num_nodes, {parsed.where('devices')}"), nodes


def _devices(value: Any, parsed: Parsed) -> int | None:
    """Devices per node as the Trainer parses them: a count, a list of ids, ``"0,1"``; None for -1 and auto."""
    accelerator = lookup(parsed.data, "trainer.accelerator")
    if value in (None, "auto", -1, "-1"):
        return 1 if accelerator == "cpu" and value in (None, "auto") else None
    if isinstance(value, list):
        return len(value) or None
    if isinstance(value, str) and "," in value:
        return len([part for part in value.split(",") if part.strip()]) or None
    return whole(value, "trainer.devices", parsed.where("devices"))


def _accumulation(reading: Reading, parsed: Parsed) -> int | None:
    """``accumulate_grad_batches``, or the scheduler's factor for epoch 0; None where Lightning refuses."""
    accumulation = reading.value(parsed, "trainer.accumulate_grad_batches")
    scheduling = _scheduling(parsed)
    if scheduling is None:
        return accumulation or 1
    if accumulation not in (None, 1):
        reading.add(SCHEDULER_AND_ACCUMULATE(Nothing(), message=SCHEDULER_MESSAGE))
        return None
    reading.note("GradientAccumulationScheduler.scheduling", str(scheduling), parsed.where("scheduling"))
    return scheduling.get(0, 1)


def _scheduling(parsed: Parsed) -> dict[int, int] | None:
    """The ``scheduling`` of a GradientAccumulationScheduler among ``trainer.callbacks``."""
    callbacks = lookup(parsed.data, "trainer.callbacks")
    for callback in callbacks if isinstance(callbacks, list) else []:
        if isinstance(callback, dict) and str(callback.get("class_path", "")).endswith(SCHEDULER):
            given = lookup(callback, "init_args.scheduling")
            if isinstance(given, dict):
                where = parsed.where("scheduling")
                return {
                    whole(k, "scheduling", where, minimum=0): whole(v, "scheduling", where) for k, v in given.items()
                }
    return None


def _schedule(reading: Reading, parsed: Parsed, per_step: int) -> None:
    """The batch by epoch where a scheduler changes the accumulation."""
    scheduling = _scheduling(parsed)
    if scheduling is not None and len(set(scheduling.values()) | {scheduling.get(0, 1)}) > 1:
        epochs = {0: 1} | scheduling
        reading.add(
            ACCUMULATION_SCHEDULE(Schedule(", ".join(f"{e}: {per_step * a}" for e, a in sorted(epochs.items()))))
        )


def _data_parallel(reading: Reading, parsed: Parsed, world: int, nodes: int) -> int | None:
    """Every rank, or ModelParallelStrategy's ``data_parallel_size`` (``"auto"``: the nodes)."""
    strategy = lookup(parsed.data, "trainer.strategy")
    if not isinstance(strategy, dict) or not str(strategy.get("class_path", "")).endswith("ModelParallelStrategy"):
        return world
    sizes = {}
    for key, auto in (("data_parallel_size", nodes), ("tensor_parallel_size", world // nodes)):
        value = reading.raw(parsed, f"trainer.strategy.init_args.{key}")
        sizes[key] = auto if value in (None, "auto") else whole(value, key, parsed.where(key))
    dp, tp = sizes["data_parallel_size"], sizes["tensor_parallel_size"]
    if dp * tp != world:
        message = MODEL_PARALLEL_MESSAGE.format(dp=dp, tp=tp, world=world)
        reading.add(MODEL_PARALLEL_WORLD(Sizes(dp, tp, world), message=message, fix=world_fix(dp * tp)))
        return None
    reading.add(MODEL_PARALLEL(Sizes(dp, tp, world)))
    return dp


# --- a training script: the Trainer it builds and its training DataLoader ---------------------------------------

#: Where Lightning's ``Trainer`` comes from.
PACKAGES = ("lightning.", "pytorch_lightning.")


def _trainer(parsed: Parsed) -> Instance | None:
    """The ``Trainer`` a script builds: the last one a run reaches, else the last one."""
    found = [
        i
        for i in (parsed.python.instances if parsed.python is not None else [])
        if i.kind.rsplit(".", 1)[-1] == "Trainer" and i.kind.startswith(PACKAGES)
    ]
    chosen = [i for i in found if i.reached] or found
    return chosen[-1] if chosen else None


def _as_config(parsed: Parsed) -> Parsed:
    """A script as the mapping a LightningCLI YAML would be: the Trainer's arguments under ``trainer``, the training
    DataLoader's batch under ``data``; each key's place is where the script wrote it."""
    trainer = _trainer(parsed)
    if trainer is None or parsed.python is None:
        return parsed
    name = parsed.source.name
    script = parsed.python
    places = {key: given.where(name) for key, given in trainer.fields.items()}
    vias = {key: via for key, given in trainer.fields.items() if (via := via_of(given, script, name)) is not None}
    data: dict[str, Any] = {"trainer": {key: _plain(given.value) for key, given in trainer.fields.items()}}
    loader = training_loader(script)
    if loader is not None:
        data["data"] = {"batch_size": loader.value}
        places["batch_size"] = loader.where(name)
        if (via := via_of(loader, script, name)) is not None:
            vias["batch_size"] = via
    return Parsed(parsed.source, Format.PYTHON, data, python=script, places=places, vias=vias)


def _plain(value: object) -> Any:
    """A Trainer argument as LightningCLI would write it: an object as its ``class_path`` and ``init_args``."""
    if isinstance(value, Instance):
        return {"class_path": value.kind, "init_args": {k: _plain(g.value) for k, g in value.fields.items()}}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value

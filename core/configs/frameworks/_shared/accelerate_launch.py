"""accelerate's launch, as every run it starts sees it (huggingface/accelerate at 16cb6eb, July 2026; run here as
1.16.0): the processes, d under a ``parallelism_config``, DeepSpeed's accumulation and ``split_batches``.

The Hugging Face Trainer and TRL take the world size, d and these findings from ``layout``; the ``accelerate``
framework module reports them for a config alone.

- ``utils/launch.py:216-218``: ``nproc_per_node = num_processes // num_machines``, ``nnodes = num_machines``:
  10 processes over 4 machines start 8, without a word. Launch flags (``--num_processes``, ``--num_machines``)
  win over the YAML; ``num_processes: -1`` is refused (``commands/launch.py:1299-1300``), and so is a YAML
  without it (ClusterConfig's default -1) unless the launch line passes ``--num_processes``.
- ``parallelism_config.py:177-179``: with a ``parallelism_config`` d = dp_replicate · dp_shard (the loader is
  sharded over those only, ``data_loader.py:1152-1165``); the product of all sizes must be the number of
  processes (``_validate_accelerator``, 1.16.0 ``parallelism_config.py:362-375``; a product of 1 becomes pure
  data parallelism, DeepSpeed's sequence parallelism is not checked); FSDP2 needs dp_shard or cp above 1.
- DeepSpeed: ``deepspeed_config.gradient_accumulation_steps`` (or ``--gradient_accumulation_steps``) is a
  (``utils/launch.py:568-569``), 1 where absent.
- ``split_batches`` (``DataLoaderConfiguration``; in TrainingArguments ``accelerator_config``): the loader batch
  is global, each process gets loader batch // d (``data_loader.py:1284``), and must divide (``:1171-1175``).
"""

from __future__ import annotations

from math import prod

from effbatch.core.configs.base.results import World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading, fix, lookup, whole, world_fix
from effbatch.core.configs.base.world import main_command

NUM_PROCESSES_MESSAGE = "You need to manually pass in `--num_processes` using this config yaml."
TOTAL_MESSAGE = (
    "ParallelismConfig total_size ({total}) does not match num_processes ({world}). Please adjust "
    "dp_replicate_size/ dp_shard_size/tp_size/cp_size/sp_size."
)
NO_SHARD_MESSAGE = (
    "FSDP is enabled but the parallelism config has no dimension for FSDP to shard across (both `dp_shard_size` "
    "and `cp_size` are 1). This usually means a model that is already parallelized another way -- e.g. loaded "
    "with `DistributedConfig(tp_size=N)` or `enable_expert_parallel=True`, which makes the whole world size "
    "tensor/expert parallel -- was launched under an FSDP config. Either launch it without the FSDP config, or "
    "leave ranks for FSDP to use by lowering `tp_size`."
)
SPLIT_MESSAGE = (
    "To use a `DataLoader` in `split_batches` mode, the batch size ({batch}) needs to be a round multiple of the "
    "number of processes ({processes})."
)
PROCESSES = "accelerate/processes"  # world = num_processes // num_machines · num_machines
DATA_PARALLEL = "accelerate/data_parallel"  # d = dp_replicate · dp_shard
SPLIT = "accelerate/split"  # b = loader batch / d
SIZES = ("dp_replicate", "dp_shard", "tp", "cp", "sp")
#: utils/dataclasses.py DistributedType (the values an ``accelerate config`` writes).
DISTRIBUTED_TYPES = {
    "NO",
    "MULTI_CPU",
    "MULTI_GPU",
    "MULTI_NPU",
    "MULTI_MLU",
    "MULTI_SDAA",
    "MULTI_MUSA",
    "MULTI_XPU",
    "MULTI_HPU",
    "MULTI_NEURON",
    "DEEPSPEED",
    "FSDP",
    "XLA",
    "MEGATRON_LM",
}
OWN_KEYS = {"num_processes", "num_machines", "machine_rank", "compute_environment", "main_training_function"}


@context
class Floored:
    processes: int
    machines: int
    real: int


@context
class Sizes:
    total: int
    world: int


@context
class ModelParallel:
    tp: int
    cp: int
    sp: int
    data_parallel: int


@context
class Split:
    loader: int
    data_parallel: int
    per_process: int
    reported: int


@context
class Indivisible:
    loader: int
    data_parallel: int


@context
class Unset:
    machines: int


@context
class Layout:
    """What accelerate launches: the world, d (None where it refuses) and DeepSpeed's accumulation."""

    world: World | None
    data_parallel: int | None
    accumulation: int


NUM_PROCESSES = Rule("accelerate/num-processes-unset", Effect.REFUSED, Unset)
NUM_PROCESSES_MISSING = Rule("accelerate/num-processes-missing", Effect.PITFALL, Nothing)
FLOORED = Rule("accelerate/processes-floored", Effect.CHANGED, Floored)
TOTAL = Rule("accelerate/parallelism-total", Effect.REFUSED, Sizes)
NO_SHARD = Rule("accelerate/fsdp-no-shard-dimension", Effect.REFUSED, Sizes)
MODEL_PARALLEL = Rule("accelerate/model-parallel", Effect.NOTE, ModelParallel)
SPLIT_BATCHES = Rule("accelerate/split-batches", Effect.CHANGED, Split)
SPLIT_INDIVISIBLE = Rule("accelerate/split-batches-divisible", Effect.REFUSED, Indivisible)


def is_accelerate_config(parsed: Parsed) -> bool:
    """An ``accelerate config`` file: ``distributed_type`` (one of accelerate's) or beside the launcher's own keys."""
    return (
        parsed.format in (Format.YAML, Format.JSON)
        and "distributed_type" in parsed.data
        and (parsed.data["distributed_type"] in DISTRIBUTED_TYPES or bool(OWN_KEYS & set(parsed.data)))
    )


def layout(reading: Reading, sources: list[Parsed], world: World | None) -> Layout | None:
    """The accelerate config and ``accelerate launch`` flags among ``sources``, read; None where there are none."""
    config = next((p for p in sources if is_accelerate_config(p)), None)
    options, line = _launch_options(sources)
    if config is None and not options:
        return None
    processes = _setting(reading, config, options, line, "num_processes", minimum=-1)
    machines = _setting(reading, config, options, line, "num_machines") or 1
    if config is not None and config.data.get("distributed_type") == "NO" and "num_processes" not in options:
        processes = 1  # launch_command: no distributed type, one process (simple_launcher)
    elif config is not None and processes is None and world is None:
        # ClusterConfig's default -1 (config_args.py:180): fine where the launch line passes --num_processes, as
        # accelerate's SLURM example does, refused where it does not
        reading.add(NUM_PROCESSES_MISSING(Nothing(), message=NUM_PROCESSES_MESSAGE))
        return Layout(None, None, 1)
    if processes == -1:
        reading.add(NUM_PROCESSES(Unset(machines), message=NUM_PROCESSES_MESSAGE))
        return Layout(world, None, 1)
    if processes is not None:
        world = processes_world(reading, processes, machines, world, line or config_name(config))
    world = reading.world(world)
    accumulation = _accumulation(reading, config, options, line, sources)
    return Layout(world, _data_parallel(reading, config, world.size), accumulation)


def processes_world(reading: Reading, processes: int, machines: int, world: World | None, where: str) -> World:
    """``num_processes // num_machines`` a machine (``utils/launch.py:216-218``), said where that starts fewer; a
    world size given from outside wins."""
    real = processes // machines * machines
    if machines > 1:
        reading.step(PROCESSES, (processes, machines, machines), real)
    if real != processes and (world is None or world.size == real):
        fixed = world_fix(real, (processes // machines + 1) * machines)
        reading.add(FLOORED(Floored(processes, machines, real), fix=fixed))
    return world or World(real, f"num_processes {processes}, num_machines {machines}, {where}")


def config_name(config: Parsed | None) -> str:
    return config.source.name if config is not None else ""


def _launch_options(sources: list[Parsed]) -> tuple[dict[str, str], str]:
    """The options of an ``accelerate launch`` line, and where it is."""
    for parsed in sources:
        found = main_command(parsed) if parsed.format is Format.SHELL else None
        if found is not None and found[1].launcher == "accelerate":
            options = {
                key.removeprefix("--").replace("-", "_"): value for key, value in found[1].launcher_options.items()
            }
            return options, f"{parsed.source.name}:{found[0].line}"
    return {}, ""


def _setting(
    reading: Reading, config: Parsed | None, options: dict[str, str], line: str, key: str, minimum: int = 1
) -> int | None:
    """A launch flag, else the YAML's value."""
    if key in options:
        reading.note(f"--{key}", options[key], line)
        return whole(options[key], f"--{key}", line, minimum=minimum)
    return reading.value(config, key, minimum=minimum) if config is not None else None


def _data_parallel(reading: Reading, config: Parsed | None, world: int) -> int | None:
    """d = dp_replicate · dp_shard under a ``parallelism_config``, else every process."""
    section = lookup(config.data, "parallelism_config") if config is not None else None
    if config is None or not isinstance(section, dict) or not section:
        return world
    sizes = {name: reading.value(config, f"parallelism_config.parallelism_config_{name}_size") or 1 for name in SIZES}
    total = prod(sizes.values())
    if total == 1:
        sizes["dp_replicate"] = total = world  # _validate_accelerator: pure data parallelism
    deepspeed_sp = sizes["sp"] > 1 and section.get("parallelism_config_sp_backend", "deepspeed") == "deepspeed"
    if total != world and not deepspeed_sp:
        reading.add(TOTAL(Sizes(total, world), message=TOTAL_MESSAGE.format(total=total, world=world)))
        return None
    fsdp2 = (
        config.data.get("distributed_type") == "FSDP" and str(lookup(config.data, "fsdp_config.fsdp_version")) == "2"
    )
    if fsdp2 and sizes["dp_shard"] == 1 and sizes["cp"] == 1:
        reading.add(NO_SHARD(Sizes(total, world), message=NO_SHARD_MESSAGE))
        return None
    data_parallel = sizes["dp_replicate"] * sizes["dp_shard"]
    reading.step(DATA_PARALLEL, (sizes["dp_replicate"], sizes["dp_shard"]), data_parallel)
    if data_parallel != world:
        reading.add(MODEL_PARALLEL(ModelParallel(sizes["tp"], sizes["cp"], sizes["sp"], data_parallel)))
    return data_parallel


def _accumulation(
    reading: Reading, config: Parsed | None, options: dict[str, str], line: str, sources: list[Parsed]
) -> int:
    """DeepSpeed's accumulation from the YAML (or the flag), or from the JSON its ``deepspeed_config_file`` names
    where that is among the sources and says a number; accelerate's own default of 1 otherwise."""
    if "gradient_accumulation_steps" in options:
        return _setting(reading, config, options, line, "gradient_accumulation_steps") or 1
    if config is None or config.data.get("distributed_type") != "DEEPSPEED":
        return 1
    if (from_file := _config_file_accumulation(reading, config, sources)) is not None:
        return from_file
    return reading.value(config, "deepspeed_config.gradient_accumulation_steps") or 1


def _config_file_accumulation(reading: Reading, config: Parsed, sources: list[Parsed]) -> int | None:
    """``deepspeed_config_file: ds.json`` with ds.json among the sources: its ``gradient_accumulation_steps`` where a
    whole number – DeepSpeedPlugin takes the file's value, and ``_prepare_deepspeed`` (1.16.0 accelerator.py:
    2170-2183) keeps it over the Accelerator's ("Using DeepSpeed's value"); "auto" or absent: None."""
    named = lookup(config.data, "deepspeed_config.deepspeed_config_file")
    if not isinstance(named, str):
        return None
    base = named.replace("\\", "/").rsplit("/", 1)[-1]
    found = next((p for p in sources if p.format is Format.JSON and p.source.name.rsplit("/", 1)[-1] == base), None)
    if found is None or not isinstance(found.data.get("gradient_accumulation_steps"), int):
        return None
    return reading.value(found, "gradient_accumulation_steps") or None


def split_batches(reading: Reading, parsed: Parsed, loader: int, data_parallel: int, reported: int) -> int | None:
    """``split_batches``: the loader batch is global, each process gets loader // d; None where accelerate refuses."""
    if loader > 1 and loader % data_parallel:
        message = SPLIT_MESSAGE.format(batch=loader, processes=data_parallel)
        below = loader // data_parallel * data_parallel or None
        fixed = fix(parsed, "per_device_train_batch_size", below, below + data_parallel if below else data_parallel)
        reading.add(SPLIT_INDIVISIBLE(Indivisible(loader, data_parallel), message=message, fix=fixed))
        return None
    per_process = max(loader // data_parallel, 1)
    reading.step(SPLIT, (loader, data_parallel), per_process)
    reading.add(SPLIT_BATCHES(Split(loader, data_parallel, per_process, reported)))
    return per_process

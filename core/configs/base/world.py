"""The world size a launch line or script sets: launcher options (torchrun, deepspeed, accelerate), the
environment (WORLD_SIZE, NNODES × GPUS_PER_NODE), ``#SBATCH`` headers; and the command that launches training.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from effbatch.core.configs.base.results import World
from effbatch.core.configs.base.script import Command, Script
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.words import Launch, flags, split_launch, split_words

_NODES = ("--nnodes", "--num_nodes", "--num-nodes", "--num_machines", "--num-machines")
_PER_NODE = ("--nproc_per_node", "--nproc-per-node", "--num_gpus", "--num-gpus")
_TOTAL = ("--num_processes", "--num-processes")
#: The DeepSpeed launcher's options that choose the GPUs themselves (deepspeed/launcher/runner.py): with one of them
#: given, CUDA_VISIBLE_DEVICES is ignored.
_DEEPSPEED_RESOURCES = frozenset(
    {"--include", "-i", "--exclude", "-e", "--num_gpus", "--num-gpus", "--num_nodes", "--num-nodes", "--hostfile", "-H"}
)
_ENV_WORLD = ("WORLD_SIZE",)
_ENV_NODES = ("NNODES", "NUM_NODES", "N_NODES", "NODES")
_ENV_PER_NODE = ("GPUS_PER_NODE", "NPROC_PER_NODE", "NUM_GPUS_PER_NODE", "GPUS")


def main_command(parsed: Parsed, marker: Iterable[str] = ()) -> tuple[Command, Launch] | None:
    """The command that launches training: one naming a ``marker`` flag, else the first with a launcher."""
    if parsed.script is None:
        return None
    markers = set(marker)
    candidates = [(command, split_launch(command.words)) for command in parsed.script.commands]
    for command, launch in candidates:
        names = {word.split("=", 1)[0] for word in command.words}
        if markers & names:
            return command, launch
    for command, launch in candidates:
        if launch.launcher is not None:
            return command, launch
    return None


def program_flags(
    parsed: Parsed, marker: Iterable[str], arity: Mapping[str, int] | None = None
) -> dict[str, list[str]]:
    """The flags of the training program in a launch line or script (empty for other formats)."""
    command = main_command(parsed, marker)
    found = flags(command[1].arguments, arity) if command else {}
    markers = set(marker)
    if parsed.script is None or not markers or markers & set(found):
        return found
    # no command carries them: a file that only defines the flags (a conf file a launcher sources, or a
    # command built in a string and run by ``bash -c``): the flags in its arrays and variables
    groups = [*parsed.script.arrays.values(), *(value.split() for value in parsed.script.variables.values())]
    defined = flags(tuple(word for group in groups if any(w.startswith("--") for w in group) for word in group), arity)
    return defined if markers & set(defined) else found


def launched_world(sources: Iterable[Parsed]) -> World | None:
    """The world size a launch line or script sets: launcher options, else WORLD_SIZE, else nodes × GPUs."""
    sources = list(sources)
    hostfiles = {_base(p.source.name): p.data.get("hosts", {}) for p in sources if p.format is Format.HOSTFILE}
    for parsed in sources:
        if parsed.format is not Format.SHELL or parsed.script is None:
            continue
        found = main_command(parsed)
        if found is not None and (world := _from_hostfile(parsed, *found, hostfiles)) is not None:
            return world
        if found is not None and (world := _from_launcher(parsed, *found)) is not None:
            return world
        variables, lines = _environment(parsed.script, found)
        for name in _ENV_WORLD:
            if (size := _int(variables.get(name))) is not None:
                return World(size, f"{name}={size}, {parsed.source.name}:{lines.get(name, 0)}")
        nodes = next((n for name in _ENV_NODES if (n := _int(variables.get(name))) is not None), None)
        per_node = next((n for name in _ENV_PER_NODE if (n := _int(variables.get(name))) is not None), None)
        if nodes is not None and per_node is not None:
            return World(nodes * per_node, f"{nodes} × {per_node}, {parsed.source.name}")
        if (world := _slurm_world(parsed)) is not None:
            return world
        if (world := _one_process(parsed)) is not None:
            return world
    return None


def _one_process(parsed: Parsed) -> World | None:
    """``python train.py`` started on its own (no launcher, no ``srun``/``mpirun`` before it): one process."""
    for command in parsed.script.commands if parsed.script is not None else []:
        launch = split_launch(command.words)
        starts = [word.rsplit("/", 1)[-1] for word in command.words[:3]]
        if (
            launch.launcher is None
            and (launch.program or "").endswith(".py")
            and _python(starts)
            and not _wrapped(starts)
        ):
            return World(1, f"python, {parsed.source.name}:{command.line}", single=True)
    return None


def _python(words: list[str]) -> bool:
    return any(re.fullmatch(r"python(\d+(\.\d+)?)?", word) for word in words)


def _wrapped(words: list[str]) -> bool:
    return any(word in ("srun", "mpirun", "mpiexec", "ray") for word in words)


_SBATCH = re.compile(r"^#SBATCH[ \t]+(.*)$", re.MULTILINE)
_SLURM_NODES = ("--nodes", "-N")
#: Ranks per node: tasks per node (srun starts the program on each) or the GPUs the job asks for per node.
_SLURM_PER_NODE = ("--ntasks-per-node", "--gpus-per-node", "--gres")


def _slurm_world(parsed: Parsed) -> World | None:
    """``#SBATCH --nodes=4`` with ``--ntasks-per-node=8`` (or ``--gpus-per-node=8``, ``--gres=gpu:8``)."""
    options: dict[str, str] = {}
    headers = list(_SBATCH.finditer(parsed.source.text))
    for header in headers:
        words = split_words(header[1])
        for index, word in enumerate(words):
            key, has_value, value = word.partition("=")
            if not has_value and index + 1 < len(words) and key in (*_SLURM_NODES, *_SLURM_PER_NODE):
                value = words[index + 1]
            options.setdefault(key, value)
    nodes = next((_int(options[k].split("-")[-1]) for k in _SLURM_NODES if k in options), None)
    # the larger: one task per GPU, or one task (torchrun) per node that starts a process per GPU
    per_node = max(
        (n for k in _SLURM_PER_NODE if k in options and (n := _int(options[k].rsplit(":", 1)[-1]))), default=None
    )
    if nodes is None or per_node is None:
        return None
    line = parsed.source.text.count("\n", 0, headers[0].start()) + 1  # the job's first #SBATCH line
    return World(nodes * per_node, f"#SBATCH {nodes} × {per_node}, {parsed.source.name}:{line}")


def partial_world(sources: Iterable[Parsed]) -> tuple[int | None, int | None]:
    """Nodes and GPUs per node as far as a launch line or script names them, for a form to start from."""
    nodes = per_node = None
    for parsed in sources:
        if parsed.format is not Format.SHELL or parsed.script is None:
            continue
        found = main_command(parsed)
        variables = _environment(parsed.script, found)[0]
        options = found[1].launcher_options if found else {}
        nodes = nodes or next((_int(options[name].split(":")[-1]) for name in _NODES if name in options), None)
        nodes = nodes or next((n for name in _ENV_NODES if (n := _int(variables.get(name))) is not None), None)
        per_node = per_node or next((_int(options[name]) for name in _PER_NODE if name in options), None)
        per_node = per_node or next((n for name in _ENV_PER_NODE if (n := _int(variables.get(name))) is not None), None)
    return nodes, per_node


def _environment(script: Script, found: tuple[Command, Launch] | None) -> tuple[dict[str, str], dict[str, int]]:
    """The script's variables, overridden by the ``VAR=value`` prefixes of the launch command, and their lines.

    Without a launcher (``WORLD_SIZE=16 python …``, ``NNODES=2 llamafactory-cli …``) every command's prefixes count.
    """
    commands = [found[0]] if found is not None else script.commands
    variables, lines = dict(script.variables), dict(script.lines)
    for command in commands:
        variables.update(command.env)
        lines.update(dict.fromkeys(command.env, command.line))
    return variables, lines


def _from_launcher(parsed: Parsed, command: Command, launch: Launch) -> World | None:
    options = launch.launcher_options
    where = f"{launch.launcher}, {parsed.source.name}:{command.line}"
    if launch.launcher == "deepspeed" and "--include" in options:
        included = _included(options["--include"])  # deepspeed/launcher/runner.py parse_inclusion_exclusion
        return World(included, f"--include {options['--include']}, {where}") if included else None
    if launch.launcher == "deepspeed" and not _DEEPSPEED_RESOURCES & set(options):
        # runner.py: with no resource option and no hostfile, CUDA_VISIBLE_DEVICES becomes --include localhost:<it>
        visible = _visible({**(parsed.script.variables if parsed.script else {}), **command.env})
        if visible is not None:
            return World(visible, f"CUDA_VISIBLE_DEVICES, {where}")
    total = next((_int(options[name]) for name in _TOTAL if name in options), None)
    nodes_text = next((options[name] for name in _NODES if name in options), None)
    machines = _int(nodes_text)
    if total is not None and launch.launcher == "accelerate" and machines:
        total = total // machines * machines  # accelerate's utils/launch.py: num_processes // num_machines a node
    if total is not None:
        return World(total, where)
    if nodes_text is None and "--standalone" in options:
        nodes_text = "1"
    per_node = next((_int(options[name]) for name in _PER_NODE if name in options), None)
    if per_node is None and any(options.get(name) in ("gpu", "auto") for name in _PER_NODE):
        per_node = _visible({**(parsed.script.variables if parsed.script else {}), **command.env})
    nodes = _int(nodes_text.split(":")[-1]) if nodes_text else (1 if per_node is not None else None)
    if nodes is None or per_node is None:
        return None
    return World(nodes * per_node, where)


def _base(name: str) -> str:
    return name.replace("\\", "/").rsplit("/", 1)[-1]


def _from_hostfile(
    parsed: Parsed, command: Command, launch: Launch, hostfiles: Mapping[str, dict[str, int]]
) -> World | None:
    """``deepspeed --hostfile F`` with F among the sources, as deepspeed/launcher/runner.py main() takes it: the
    hosts' slots, filtered by --include/--exclude (parse_resource_filter), then the first --num_nodes hosts, then
    --num_gpus slots on each; None where F is not among the sources or an option is not a number."""
    options = launch.launcher_options
    name = options.get("--hostfile", options.get("-H"))
    if launch.launcher != "deepspeed" or name is None or (pool := hostfiles.get(_base(name))) is None:
        return None
    slots = _filtered({host: list(range(count)) for host, count in pool.items()}, options)
    nodes, gpus = (options.get(o, options.get(o.replace("_", "-"), "-1")) for o in ("--num_nodes", "--num_gpus"))
    if slots is None or not all(re.fullmatch(r"-?\d+", text) for text in (nodes, gpus)):
        return None
    if int(nodes) > 0:
        slots = dict(list(slots.items())[: int(nodes)])
    if int(gpus) > 0:
        slots = {host: list(range(int(gpus))) for host in slots}
    total = sum(len(ranks) for ranks in slots.values())
    where = f"deepspeed --hostfile {name} ({_base(name)}), {parsed.source.name}:{command.line}"
    return World(total, where) if total else None


def _filtered(pool: dict[str, list[int]], options: Mapping[str, str]) -> dict[str, list[int]] | None:
    """runner.py parse_resource_filter: --include keeps the hosts (and slots) it names, --exclude drops them; a host
    or slot the pool lacks makes the launcher refuse (None)."""
    include, exclude = options.get("--include", options.get("-i")), options.get("--exclude", options.get("-e"))
    if include is not None:
        kept: dict[str, list[int]] = {}
        for host, spec in (_host_slots(part) for part in include.split("@")):
            if host not in pool or any(slot not in pool[host] for slot in spec or []):
                return None
            kept[host] = spec if spec is not None else pool[host]
        return kept
    for host, spec in (_host_slots(part) for part in (exclude.split("@") if exclude else [])):
        if host not in pool or any(slot not in pool[host] for slot in spec or []):
            return None
        pool = {h: [s for s in ranks if h != host or (spec is not None and s not in spec)] for h, ranks in pool.items()}
        pool = {h: ranks for h, ranks in pool.items() if ranks}
    return pool


def _host_slots(part: str) -> tuple[str, list[int] | None]:
    """``worker-0:0,2`` (host and slots) or ``worker-1`` (every slot)."""
    host, has_slots, slots = part.partition(":")
    if not has_slots:
        return host, None
    return host, [int(slot) for slot in slots.split(",") if slot.strip().isdigit()]


def _included(spec: str) -> int | None:
    """``--include localhost:2,3`` (2) or ``worker-0:0,1@worker-1:0,1`` (4): the slots it names; a host named without
    slots takes all of its GPUs, which only its hostfile says (None)."""
    total = 0
    for host in spec.split("@"):
        _, has_slots, slots = host.partition(":")
        if not has_slots:
            return None
        total += len([slot for slot in slots.split(",") if slot.strip()])
    return total or None


def _visible(variables: Mapping[str, str]) -> int | None:
    """The GPUs ``CUDA_VISIBLE_DEVICES`` leaves visible (``--nproc_per_node gpu`` starts one process each)."""
    devices = variables.get("CUDA_VISIBLE_DEVICES")
    if devices is None or "$" in devices or not devices.strip():
        return None
    return len([device for device in devices.split(",") if device.strip()])


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() and int(text) > 0 else None

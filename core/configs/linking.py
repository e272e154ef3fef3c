"""A run spread over files: the launch line's program linked to the Python script it names.

A training script alone leaves its command-line arguments and its environment open; the launch line that runs
it (``torchrun … train.py --bs 16``, ``python train.py``) closes them. Each Python source a launch line among the
sources names is read again with that line's arguments (``argv``) and the environment its launcher gives each
process (``WORLD_SIZE`` where the world size is known; none at all for a plain ``python train.py``, which is one
process). A script no launch line names keeps its first reading, told the world size where it was given.
``settings`` (``--set KEY=VALUE``) pass on as further ``--KEY VALUE`` arguments to every script, and as variables
of its environment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from core.configs.base import Command, Format, Launch, Parsed, World, launched_world, split_launch
from core.configs.read.bounds import hostile
from core.configs.read.python import PartialEnviron, read_python
from core.configs.read.python_source import python_parsed


@dataclass(frozen=True)
class Context:
    """What a launch line gives the script it runs: its arguments and its environment (None: unknown)."""

    argv: tuple[str, ...] | None
    environ: dict[str, str] | None
    #: Where the launch line is (``launch.sh:3``).
    where: str = ""


def link(parsed: Sequence[Parsed], world: World | None, settings: Mapping[str, str] | None = None) -> list[Parsed]:
    """``parsed`` with each Python source read in the context of the launch line that runs it."""
    launches = [found for p in parsed if p.script is not None for found in _launches(p)]
    extra = tuple(word for key, value in (settings or {}).items() for word in (f"--{key}", value))
    linked: list[Parsed] = []
    for source in parsed:
        if source.format is not Format.PYTHON or source.python is None:
            linked.append(source)
            continue
        context = _context(source, launches, world, extra, settings or {})
        if context == Context(None, None):
            linked.append(source)
            continue
        with hostile(source.source):
            text, name = source.source.text, source.source.name
            script = read_python(text, name, argv=context.argv, environ=context.environ, launch=context.where)
        linked.append(python_parsed(source.source, script))
    return linked


def _launches(parsed: Parsed) -> list[tuple[Parsed, Command, Launch]]:
    script = parsed.script
    if script is None:
        return []
    return [(parsed, command, launch) for command in script.commands if (launch := split_launch(command.words)).program]


def _context(
    source: Parsed,
    launches: Sequence[tuple[Parsed, Command, Launch]],
    world: World | None,
    extra: tuple[str, ...],
    settings: Mapping[str, str],
) -> Context:
    found = next((entry for entry in launches if _names(entry[2].program or "", source.source.name)), None)
    given = dict(settings)
    if found is None:
        world_size = {"WORLD_SIZE": str(world.size)} if world is not None else {}
        return Context(extra or None, PartialEnviron(world_size | given) if world_size or given else None)
    holder, command, launch = found
    environ: dict[str, str] = {**(holder.script.variables if holder.script else {}), **command.env, **given}
    size = world or launched_world([holder])
    if launch.launcher is not None or _wrapped(command):  # the launcher sets the rest of each process's environment
        environ = PartialEnviron(environ if size is None else environ | {"WORLD_SIZE": str(size.size)})
    return Context((*launch.arguments, *extra), environ, f"{holder.source.name}:{command.line}")


def _names(program: str, source_name: str) -> bool:
    """Whether a launch line's program (``scripts/train.py``, ``-m pkg.train``) is the source ``source_name``."""
    wanted = PurePosixPath(source_name.replace("\\", "/")).name
    if program.endswith(".py"):
        return PurePosixPath(program).name == wanted
    return bool(program) and f"{program.rsplit('.', 1)[-1]}.py" == wanted


def _wrapped(command: Command) -> bool:
    """A command started under a scheduler that starts several (``srun``, ``mpirun`` …): not one process."""
    return any(word.rsplit("/", 1)[-1] in ("srun", "mpirun", "mpiexec") for word in command.words[:4])

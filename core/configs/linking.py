"""A run spread over files: the launch line's program linked to the Python script it names.

A training script alone leaves its command-line arguments and its environment open; the launch line that runs
it (``torchrun … train.py --bs 16``, ``python train.py``) closes them. Each Python source a launch line among the
sources names is read again with that line's arguments (``argv``) and the environment its launcher gives each
process (``WORLD_SIZE`` where the world size is known; none at all for a plain ``python train.py``, which is one
process). A script whose run hands over to a function of another script among the sources (``train_mem.py``:
``from pkg.train import train`` … ``train()``) passes that line on: Python gives the function the same ``sys.argv``.
A script no launch line reaches keeps its first reading, told the world size where it was given.
``settings`` (``--set KEY=VALUE``) pass on as further ``--KEY VALUE`` arguments to every script, and as variables
of its environment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from effbatch.core.configs.base import (
    CheckError,
    Command,
    Format,
    Launch,
    Parsed,
    ProblemKind,
    World,
    launched_world,
    split_launch,
)
from effbatch.core.configs.read.bounds import hostile

# The Python reader and the shell reader are imported where a source needs them: a check of a JSON or YAML file
# loads neither (start-up of ``effbatch check``).


@dataclass(frozen=True)
class Context:
    """What a launch line gives the script it runs: its arguments and its environment (None: unknown)."""

    argv: tuple[str, ...] | None
    environ: dict[str, str] | None
    #: Where the launch line is (``launch.sh:3``).
    where: str = ""


def link(parsed: Sequence[Parsed], world: World | None, settings: Mapping[str, str] | None = None) -> list[Parsed]:
    """``parsed`` with each Python source read in the context of the launch line that runs it."""
    parsed = _wrapped(_sourcing(parsed))
    launches = [found for p in parsed if p.script is not None for found in _launches(p)]
    extra = tuple(word for key, value in (settings or {}).items() for word in (f"--{key}", value))
    scripts = [p for p in parsed if p.format is Format.PYTHON and p.python is not None]
    linked: list[Parsed] = []
    for source in parsed:
        if source.format is not Format.PYTHON or source.python is None:
            linked.append(source)
            continue
        context = _context(source, (scripts, launches), world, extra, settings or {})
        modules = {
            PurePosixPath(other.source.name).name: other.source.text
            for other in scripts
            if other is not source and _delegates(source, other, reached=False)
        }
        if context == Context(None, None) and not modules:
            linked.append(source)
            continue
        linked.append(_read_in(source, context, settings or {}, modules))
    return linked


def _read_in(source: Parsed, context: Context, settings: Mapping[str, str], modules: Mapping[str, str]) -> Parsed:
    """A Python source read again with what its launch line gives it, and the sources it imports functions from."""
    from effbatch.core.configs.read.python import read_python
    from effbatch.core.configs.read.python_source import python_parsed

    with hostile(source.source):
        text, name = source.source.text, source.source.name
        script = read_python(
            text,
            name,
            argv=context.argv,
            environ=context.environ,
            launch=context.where,
            settings=settings,
            includes=modules,
        )
    return python_parsed(source.source, script)


#: ``parser.add_argument("--bs", "-b", type=int, …)``: its option strings and the rest of the call.
_ADD_ARGUMENT = re.compile(r"add_argument\(\s*((?:[\"'][^\"']+[\"']\s*,\s*)+)([^)]*)\)")
_OPTION = re.compile(r"[\"'](-{1,2}[\w-]+)[\"']")
#: Parsers whose options are a library's dataclass fields (``TrainingArguments``), not listed in the script.
_LIBRARY_PARSERS = re.compile(
    r"\b(?:HfArgumentParser|TrlParser|H4ArgumentParser|parse_args_into_dataclasses)\b|sys\.argv"
)
_WHOLE = {"int": re.compile(r"[+-]?\d+"), "float": re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")}


def check_settings(parsed: Sequence[Parsed], settings: Mapping[str, str]) -> None:
    """``--set`` settings no Python script among ``parsed`` reads, or whose value its option's type refuses:
    ``CheckError`` naming the setting and what the scripts read (never a typo silently ignored)."""
    scripts = [p for p in parsed if p.format is Format.PYTHON]
    options: dict[str, str] = {}  # option name → its type as written ("" where none)
    for script in scripts:
        text = script.source.text
        if _LIBRARY_PARSERS.search(text):
            return  # a library's fields: the script does not list what it reads
        for names, rest in _ADD_ARGUMENT.findall(text):
            kind = next((t for t in _WHOLE if re.search(rf"\btype\s*=\s*{t}\b", rest)), "")
            options |= {name.lstrip("-").replace("-", "_"): kind for name in _OPTION.findall(names)}
    files = ", ".join(p.source.name for p in scripts)
    for name, value in settings.items():
        key = name.replace("-", "_")
        if key not in options and not any(f"{q}{name}{q}" in s.source.text for s in scripts for q in "\"'"):
            raise CheckError(ProblemKind.UNKNOWN_SETTING, setting=name, value=value, files=files, known=list(options))
        kind = options.get(key, "")
        if kind and not _WHOLE[kind].fullmatch(value):
            raise CheckError(ProblemKind.BAD_SETTING, setting=name, value=value, type=kind)


#: Commands that run a shell script: ``bash train.sh``, ``sh train.sh``, ``source train.sh``, ``. train.sh``.
_SHELLS = frozenset({"bash", "sh", "source", "."})


def _shell_files(parsed: Sequence[Parsed]) -> dict[str, str]:
    """The shell sources a ``source FILE`` line may read: name → text."""
    return {p.source.name: p.source.text for p in parsed if p.format is Format.SHELL}


def _sourcing(parsed: Sequence[Parsed]) -> list[Parsed]:
    """Each shell script that ``source``s a file read again with the shell sources at hand: what the sourced file
    sets is the script's, as in bash (``shell.sourcing`` says which source a path names)."""
    files = _shell_files(parsed)
    result = list(parsed)
    for index, found in enumerate(parsed):
        commands = found.script.commands if found.script is not None and found.format is Format.SHELL else []
        if len(files) < 2 or not any(c.words[:1] in (("source",), (".",)) for c in commands):
            continue
        from effbatch.core.configs.shell import Sources, read_script  # a shell source is there: its reader is loaded

        with _named(found):
            script = read_script(found.source.text, sources=Sources(files, found.source.name))
        result[index] = replace(found, script=script)
    return result


@contextmanager
def _named(found: Parsed) -> Iterator[None]:
    """A bound the shell reader reaches, named by the source it was reading (as ``read.parse_shell`` does)."""
    with hostile(found.source):
        try:
            yield
        except CheckError as error:
            raise CheckError(error.kind, **{**error.ctx, "name": found.source.name}) from None


def _wrapped(parsed: Sequence[Parsed]) -> list[Parsed]:
    """Each shell script another one among the sources runs (``export N_GPUS=4; bash train.sh 2 8``), read again with
    the variables that one set, the command's own prefixes and its words after the script as ``$1`` … (unknown
    where one of them is), as bash hands them on."""
    result = list(parsed)
    for caller in parsed:
        for command in caller.script.commands if caller.script is not None else []:
            target, arguments = _runs_script(command, result)
            if target is None or target is caller:
                continue
            from effbatch.core.configs.shell import Sources, read_script  # a shell source is there: it is loaded

            variables = {**(caller.script.variables if caller.script else {}), **command.env}
            given = None if any("$" in word for word in arguments) else arguments  # one only the run knows
            with _named(target):
                sources = Sources(_shell_files(result), target.source.name)
                script = read_script(target.source.text, variables, given, sources)
            result[result.index(target)] = replace(target, script=script)
    return result


def _runs_script(command: Command, sources: Sequence[Parsed]) -> tuple[Parsed | None, tuple[str, ...]]:
    """The shell source a command runs (``bash train.sh``, ``./train.sh``), and the words it is given."""
    words = command.words
    at = 1 if len(words) > 1 and PurePosixPath(words[0]).name in _SHELLS else 0
    name = PurePosixPath(words[at]).name if words else ""
    if not name.endswith((".sh", ".bash")):
        return None, ()
    found = (p for p in sources if p.format is Format.SHELL and PurePosixPath(p.source.name).name == name)
    return next(found, None), words[at + 1 :]


def _launches(parsed: Parsed) -> list[tuple[Parsed, Command, Launch]]:
    script = parsed.script
    if script is None:
        return []
    return [(parsed, command, launch) for command in script.commands if (launch := split_launch(command.words)).program]


def _context(
    source: Parsed,
    among: tuple[Sequence[Parsed], Sequence[tuple[Parsed, Command, Launch]]],
    world: World | None,
    extra: tuple[str, ...],
    settings: Mapping[str, str],
) -> Context:
    from effbatch.core.configs.read.python import PartialEnviron  # a Python source is there: its reader is loaded

    found = _launch_of(source, *among)
    given = dict(settings)
    if found is None:
        world_size = {"WORLD_SIZE": str(world.size)} if world is not None else {}
        return Context(extra or None, PartialEnviron(world_size | given) if world_size or given else None)
    holder, command, launch = found
    environ: dict[str, str] = {**(holder.script.variables if holder.script else {}), **command.env, **given}
    size = world or launched_world([holder])
    if launch.launcher is not None or _under_scheduler(command):  # the launcher sets the rest of the environment
        environ = PartialEnviron(environ if size is None else environ | {"WORLD_SIZE": str(size.size)})
    return Context((*launch.arguments, *extra), environ, f"{holder.source.name}:{command.line}")


#: How many scripts deep a launch line's arguments follow a script that hands its run to another's function.
DELEGATION_DEPTH = 4


def _launch_of(
    source: Parsed, scripts: Sequence[Parsed], launches: Sequence[tuple[Parsed, Command, Launch]], depth: int = 0
) -> tuple[Parsed, Command, Launch] | None:
    """The launch line that runs ``source``: one that names it, else the one that runs a script whose run calls a
    function ``source`` defines (``train_mem.py``: ``from pkg.train import train`` … ``train()``), which reads the
    same ``sys.argv`` and environment; followed ``DELEGATION_DEPTH`` scripts deep."""
    found = next((entry for entry in launches if _names(entry[2].program or "", source.source.name)), None)
    if found is not None or depth >= DELEGATION_DEPTH:
        return found
    callers = (caller for caller in scripts if caller is not source and _delegates(caller, source))
    return next((f for caller in callers if (f := _launch_of(caller, scripts, launches, depth + 1))), None)


def _delegates(caller: Parsed, callee: Parsed, *, reached: bool = True) -> bool:
    """Whether a run of ``caller`` (with ``reached`` False: any reading of it) calls a function ``callee`` defines
    at its top level, by the module path it imports it from (``toolbench.train.train.train`` is ``train()`` of a
    file ``train.py``)."""
    if caller.python is None or callee.python is None:
        return False
    defined = set(callee.python.functions)
    for call in caller.python.calls:
        module, _, function = call.callee.rpartition(".")
        run = call.reached or not reached
        if call.imported and run and function in defined and _names(module, callee.source.name):
            return True
    return False


def _names(program: str, source_name: str) -> bool:
    """Whether a launch line's program (``scripts/train.py``, ``-m pkg.train``) is the source ``source_name``."""
    wanted = PurePosixPath(source_name.replace("\\", "/")).name
    if program.endswith(".py"):
        return PurePosixPath(program).name == wanted
    return bool(program) and f"{program.rsplit('.', 1)[-1]}.py" == wanted


def _under_scheduler(command: Command) -> bool:
    """A command started under a scheduler that starts several (``srun``, ``mpirun`` …): not one process."""
    return any(word.rsplit("/", 1)[-1] in ("srun", "mpirun", "mpiexec") for word in command.words[:4])

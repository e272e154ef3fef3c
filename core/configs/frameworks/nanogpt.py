"""nanoGPT's batch arithmetic (``train.py`` and ``configurator.py``, karpathy/nanoGPT).

Config files (``config/train_gpt2.py``) are Python assignments that ``configurator.py`` runs over
``train.py``'s globals (batch_size 12, block_size 1024, gradient_accumulation_steps 5 * 8), then
``--key=value`` arguments override them. effbatch reads them with ``ast`` and runs nothing. Under
DDP ``train.py`` asserts ``gradient_accumulation_steps % ddp_world_size == 0`` and divides it by the
world size: the configured accumulation is global, and each GPU accumulates the quotient.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath
from typing import Any

from effbatch.core.configs.base.errors import CheckError, ProblemKind
from effbatch.core.configs.base.pyscript import PyScript
from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Fix, Rule, Syntax, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, whole
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.base.world import program_flags
from effbatch.core.configs.frameworks._shared.deepspeed_config import initialize_call
from effbatch.core.configs.read.bounds import hostile
from effbatch.core.configs.read.python import read_python

ID = "nanogpt"
DEFAULTS = {"batch_size": 12, "block_size": 1024, "gradient_accumulation_steps": 5 * 8}
#: train.py's globals, the only names configurator.py lets a config set.
GLOBALS = frozenset(
    {
        *DEFAULTS,
        *("out_dir", "eval_interval", "log_interval", "eval_iters", "eval_only", "always_save_checkpoint"),
        *("init_from", "wandb_log", "wandb_project", "wandb_run_name", "dataset", "n_layer", "n_head"),
        *("n_embd", "dropout", "bias", "learning_rate", "max_iters", "weight_decay", "beta1", "beta2"),
        *("grad_clip", "decay_lr", "warmup_iters", "lr_decay_iters", "min_lr", "backend", "device", "dtype"),
        "compile",
    }
)
DIVISIBLE_MESSAGE = "assert gradient_accumulation_steps % ddp_world_size == 0"
A_GLOBAL = "nanogpt/accumulation"  # a = gradient_accumulation_steps / world


@context
class Global:
    configured: int
    world: int
    per_gpu: int


@context
class Divisible:
    accumulation: int
    world: int


@context
class Defaults:
    defaults: str


@context
class Assertion:
    condition: str
    line: int


GLOBAL = Rule("nanogpt/accumulation-is-global", Effect.PITFALL, Global)
DIVISIBLE = Rule("nanogpt/accumulation-divisible", Effect.REFUSED, Divisible)
TRAIN_PY_DEFAULTS = Rule("nanogpt/train-py-defaults", Effect.NOTE, Defaults)
ASSERTION = Rule("nanogpt/train-py-assertion", Effect.REFUSED, Assertion)
RULES = (GLOBAL, DIVISIBLE, TRAIN_PY_DEFAULTS, ASSERTION)


def detect(parsed: Parsed) -> bool:
    """A config module that only assigns train.py's globals (a batch key among them), nanoGPT's ``train.py`` (or a
    fork's: it ``exec``s ``configurator.py``), or ``train.py config/…`` on a launch line."""
    if parsed.format is Format.PYTHON:
        if _is_train_py(parsed):
            return True
        names = {key for key in parsed.data if not key.startswith("registry_")}
        shape = parsed.python.shape if parsed.python is not None else frozenset({"assign"})
        config = shape <= {"assign", "import", "docstring"}  # a training script does much else
        return config and len(names) >= 2 and names <= GLOBALS and bool(names & set(DEFAULTS))
    if parsed.format is Format.SHELL and parsed.script is not None:
        words = {word.split("=", 1)[0] for command in parsed.script.commands for word in command.words}
        return any(w == "train.py" or w.endswith("/train.py") for w in words) and (
            any(w.startswith("config/") for w in words) or bool({f"--{key}" for key in DEFAULTS} & words)
        )
    return False


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    if (train := next((p for p in sources if _is_train_py(p)), None)) is not None:
        return fork_check(sources, train, world, pins)
    reading = Reading(ID, pins)
    values = _values(sources)
    numbers = {}
    for key, default in DEFAULTS.items():
        value, where = values.get(key, (default, ""))
        if where:
            reading.note(key, value, where)
        numbers[key] = whole(value, key, where) if where else default
    if defaults := [key for key in DEFAULTS if key not in values]:
        written = ", ".join(f"{key} = {DEFAULTS[key]}" for key in defaults)
        reading.add(TRAIN_PY_DEFAULTS(Defaults(written)))
    world = reading.world(world)
    micro, seq_len, configured = numbers["batch_size"], numbers["block_size"], numbers["gradient_accumulation_steps"]
    reading.step(Derivation.DP_WORLD, (world.size,), world.size)
    if configured % world.size:
        below = configured // world.size * world.size
        fixed = _fix(sources, below or None, below + world.size)
        reading.add(DIVISIBLE(Divisible(configured, world.size), message=DIVISIBLE_MESSAGE, fix=fixed))
        return reading.finish(world, data_parallel=world.size, micro_batch=micro, seq_len=seq_len)
    accumulation = configured // world.size
    reading.step(A_GLOBAL, (configured, world.size), accumulation)
    reading.add(GLOBAL(Global(configured, world.size, accumulation)))
    return _trained(reading, world, micro, accumulation, seq_len)


def _values(sources: list[Parsed]) -> dict[str, tuple[Any, str]]:
    """Each batch value and where it is set: config files first, then ``--key=value`` on the command line."""
    values: dict[str, tuple[Any, str]] = {}
    for parsed in sources:
        if parsed.format is Format.PYTHON:
            values |= {key: (value, parsed.where(key)) for key, value in parsed.data.items() if key in DEFAULTS}
        elif parsed.format is Format.SHELL:
            found = program_flags(parsed, ())
            values |= {
                key: (given[0], parsed.where(flag))
                for flag, given in found.items()
                if (key := flag.removeprefix("--")) in DEFAULTS and given
            }
    return values


def _fix(sources: list[Parsed], *values: int | None) -> Fix | None:
    """In the config file where there is one, else as configurator.py takes it: ``--key=value``."""
    config = next((p for p in sources if p.format is Format.PYTHON), None)
    if config is not None:
        return fix(config, "gradient_accumulation_steps", *values)
    return Fix("--gradient_accumulation_steps", tuple(v for v in values if v), Syntax.OVERRIDE)


# --- nanoGPT's own train.py, or a fork's: read as it runs, configurator.py and the config files included ----------

#: karpathy/nanoGPT ``configurator.py`` at 3adf61e (MIT License, Copyright (c) 2022 Andrej Karpathy), verbatim: what
#: ``exec(open('configurator.py').read())`` runs where the sources do not include a configurator of their own.
CONFIGURATOR = r'''"""
Poor Man's Configurator. Probably a terrible idea. Example usage:
$ python train.py config/override_file.py --batch_size=32
this will first run config/override_file.py, then override batch_size to 32

The code in this file will be run as follows from e.g. train.py:
>>> exec(open('configurator.py').read())

So it's not a Python module, it's just shuttling this code away from train.py
The code in this script then overrides the globals()

I know people are not going to love this, I just really dislike configuration
complexity and having to prepend config. to every single variable. If someone
comes up with a better simple Python solution I am all ears.
"""

import sys
from ast import literal_eval

for arg in sys.argv[1:]:
    if '=' not in arg:
        # assume it's the name of a config file
        assert not arg.startswith('--')
        config_file = arg
        print(f"Overriding config with {config_file}:")
        with open(config_file) as f:
            print(f.read())
        exec(open(config_file).read())
    else:
        # assume it's a --key=value argument
        assert arg.startswith('--')
        key, val = arg.split('=')
        key = key[2:]
        if key in globals():
            try:
                # attempt to eval it it (e.g. if bool, number, or etc)
                attempt = literal_eval(val)
            except (SyntaxError, ValueError):
                # if that goes wrong, just use the string
                attempt = val
            # ensure the types match ok
            assert type(attempt) == type(globals()[key])
            # cross fingers
            print(f"Overriding: {key} = {attempt}")
            globals()[key] = attempt
        else:
            raise ValueError(f"Unknown config key: {key}")
'''
_RUNS_CONFIGURATOR = re.compile(r"""exec\(\s*open\(\s*['"]configurator\.py['"]\s*\)\.read\(\)\s*\)""")
#: The names a fork keeps the batch in (nanoGPT's own first; build-nanogpt's ``B``, ``T``, ``grad_accum_steps``).
MICRO_NAMES = ("batch_size", "B", "micro_batch_size", "device_batch_size")
LENGTH_NAMES = ("block_size", "T", "sequence_length", "seq_len")
ACCUMULATION_NAMES = ("gradient_accumulation_steps", "grad_accum_steps", "grad_accum")


def _is_train_py(parsed: Parsed) -> bool:
    """nanoGPT's train.py or a fork's: it runs configurator.py, or sets nanoGPT's ``ddp_world_size`` beside a batch
    and an accumulation of its own (build-nanogpt's ``B``, ``T``, ``grad_accum_steps``)."""
    if parsed.format is not Format.PYTHON or parsed.python is None or initialize_call(parsed) is not None:
        return False  # a script that hands DeepSpeed its config: DeepSpeed's batch, not train.py's product
    if _RUNS_CONFIGURATOR.search(parsed.source.text) is not None:
        return True
    names = parsed.python.names
    if (
        "ddp_world_size" in names
        and any(n in names for n in MICRO_NAMES)
        and any(n in names for n in ACCUMULATION_NAMES)
    ):
        return True
    roles = deciding_names(parsed.source.text)
    return ACCUMULATION in roles and (MICRO in roles or DIVIDED in roles)


def fork_check(sources: list[Parsed], train: Parsed, world: World | None, pins: Pins) -> Check:
    """The train.py given, read as it runs (configurator.py, the config files, ``--key=value``, DDP's environment):
    B = batch_size · gradient_accumulation_steps · ddp_world_size from its own globals at the end of its set-up."""
    reading = Reading(ID, pins)
    world = reading.world(world)
    script = _run(sources, train, world.size)
    name = train.source.name
    for condition, holds in script.asserts:
        if holds is False:
            reading.add(ASSERTION(Assertion(condition.text, condition.line), message=f"assert {condition.text}"))
            return reading.finish(world)
    roles = deciding_names(train.source.text)
    micro, seq_len, accumulation = (
        _global(reading, script, name, (roles[role], *names) if role in roles else names)
        for role, names in ((MICRO, MICRO_NAMES), (LENGTH, LENGTH_NAMES), (ACCUMULATION, ACCUMULATION_NAMES))
    )
    if micro is None or accumulation is None:
        missing = "batch_size" if micro is None else "gradient_accumulation_steps"  # nanoGPT's own name for it
        raise CheckError(ProblemKind.BAD_VALUE, key=missing, value="?", where=name, runtime=True, needs=f"--{missing}")
    reading.step(Derivation.DP_WORLD, (world.size,), world.size)
    return _trained(reading, world, micro, accumulation, seq_len)


def _trained(reading: Reading, world: World, micro: int, accumulation: int, seq_len: int | None) -> Check:
    """What DDP trains, in train.py and in its forks: every process is a replica, B = b · world · a."""
    batch = micro * world.size * accumulation
    reading.step(Derivation.B_PRODUCT, (micro, world.size, accumulation), batch)
    return finish_with_tokens(
        reading,
        world,
        data_parallel=world.size,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
    )


def _run(sources: list[Parsed], train: Parsed, world: int) -> PyScript:
    """train.py read again: the launch line's arguments (else ``train.py <each config given>``), torchrun's
    environment of rank 0 (``python train.py``, one process: none), its configurator and config files included."""
    configs = [p for p in sources if p.format is Format.PYTHON and p is not train]
    linked = train.python
    argv = linked.argv if linked is not None and linked.argv is not None else tuple(p.source.name for p in configs)
    environ = {"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": str(world)} if world > 1 else {}
    includes = {"configurator.py": CONFIGURATOR} | {PurePosixPath(p.source.name).name: p.source.text for p in configs}
    with hostile(train.source):
        return read_python(
            train.source.text,
            train.source.name,
            argv=argv,
            environ=environ,
            launch=linked.launch if linked is not None else "",
            includes=includes,
        )


def _global(reading: Reading, script: PyScript, name: str, names: tuple[str, ...]) -> int | None:
    """The first of ``names`` the script sets, recorded with where it was set last."""
    found = next((n for n in names if n in script.names), None)
    if found is None:
        return None
    given = script.names[found]
    where = (script.launch or name) if given.file == "configurator.py" else given.where(name)
    reading.note(found, given.value, where)
    return whole(given.value, found, where)


# --- nanoGPT's deciding lines, read by their structure where a fork renames its names ----------------------------

MICRO, LENGTH, ACCUMULATION, DIVIDED = "micro", "length", "accumulation", "divided"
LOOPS = (ast.For, ast.While)


def deciding_names(text: str) -> dict[str, str]:
    """The names nanoGPT's own lines decide the batch with, found by the lines' shape whatever a fork calls them:
    the accumulation is the ``range(N)`` of the innermost loop that calls ``.backward()``, inside the iteration
    loop (``for micro_step in range(gradient_accumulation_steps)``; a single loop counts iterations, not
    micro-steps); the micro-batch and the length are ``get_batch``'s ``torch.randint(len(data) - L, (B,))``;
    ``N //= …`` is train.py's division by the world size. A role two lines answer differently is left out
    (undecided, never guessed)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    found: dict[str, set[str]] = {MICRO: set(), LENGTH: set(), ACCUMULATION: set(), DIVIDED: set()}
    inner = {id(n) for loop in ast.walk(tree) if isinstance(loop, LOOPS) for n in ast.walk(loop) if n is not loop}
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and id(node) in inner and _innermost_backward(node):
            if (counted := _range_name(node.iter)) is not None:
                found[ACCUMULATION].add(counted)
        elif isinstance(node, ast.Call) and (drawn := _randint_batch(node)) is not None:
            found[LENGTH].add(drawn[0])
            found[MICRO].add(drawn[1])
        elif (
            isinstance(node, ast.AugAssign) and isinstance(node.op, ast.FloorDiv) and isinstance(node.target, ast.Name)
        ):
            found[DIVIDED].add(node.target.id)
    roles = {role: next(iter(names)) for role, names in found.items() if len(names) == 1 and role != DIVIDED}
    if ACCUMULATION in roles and roles[ACCUMULATION] in found[DIVIDED]:
        roles[DIVIDED] = roles[ACCUMULATION]
    return roles


def _range_name(node: ast.expr) -> str | None:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"):
        return None
    return node.args[0].id if len(node.args) == 1 and isinstance(node.args[0], ast.Name) else None


def _backward(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "backward" for n in ast.walk(node))


def _innermost_backward(loop: ast.For) -> bool:
    """The loop calls ``.backward()`` and no loop inside it does (the micro-step loop, not the iteration loop)."""
    inner = [n for n in ast.walk(loop) if isinstance(n, LOOPS) and n is not loop]
    return _backward(loop) and not any(_backward(n) for n in inner)


def _randint_batch(call: ast.Call) -> tuple[str, str] | None:
    """``torch.randint(len(data) - L, (B,))``: (L, B)."""
    func = call.func
    named = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if named != "randint" or len(call.args) < 2:
        return None
    high, size = call.args[0], call.args[1]
    if not (isinstance(high, ast.BinOp) and isinstance(high.op, ast.Sub) and isinstance(high.right, ast.Name)):
        return None
    if not (isinstance(size, ast.Tuple) and len(size.elts) == 1 and isinstance(size.elts[0], ast.Name)):
        return None
    return high.right.id, size.elts[0].id

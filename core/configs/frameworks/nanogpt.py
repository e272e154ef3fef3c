"""nanoGPT's batch arithmetic (``train.py`` and ``configurator.py``, karpathy/nanoGPT).

Config files (``config/train_gpt2.py``) are Python assignments that ``configurator.py`` runs over
``train.py``'s globals (batch_size 12, block_size 1024, gradient_accumulation_steps 5 * 8), then
``--key=value`` arguments override them. effbatch reads them with ``ast`` and runs nothing. Under
DDP ``train.py`` asserts ``gradient_accumulation_steps % ddp_world_size == 0`` and divides it by the
world size: the configured accumulation is global, and each GPU accumulates the quotient.
"""

from __future__ import annotations

from typing import Any

from core.configs.base import (
    Check,
    Derivation,
    Effect,
    Fix,
    Format,
    Parsed,
    Reading,
    Rule,
    Syntax,
    World,
    context,
    fix,
    program_flags,
    whole,
)

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


GLOBAL = Rule("nanogpt/accumulation-is-global", Effect.PITFALL, Global)
DIVISIBLE = Rule("nanogpt/accumulation-divisible", Effect.REFUSED, Divisible)
TRAIN_PY_DEFAULTS = Rule("nanogpt/train-py-defaults", Effect.NOTE, Defaults)
RULES = (GLOBAL, DIVISIBLE, TRAIN_PY_DEFAULTS)


def detect(parsed: Parsed) -> bool:
    """A config module that sets only train.py's globals (a batch key among them), or ``train.py config/…``."""
    if parsed.format is Format.PYTHON:
        names = {key for key in parsed.data if not key.startswith("registry_")}
        return len(names) >= 2 and names <= GLOBALS and bool(names & set(DEFAULTS))
    if parsed.format is Format.SHELL and parsed.script is not None:
        words = {word.split("=", 1)[0] for command in parsed.script.commands for word in command.words}
        return any(w == "train.py" or w.endswith("/train.py") for w in words) and (
            any(w.startswith("config/") for w in words) or bool({f"--{key}" for key in DEFAULTS} & words)
        )
    return False


def check(sources: list[Parsed], world: World | None) -> Check:
    reading = Reading(ID)
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
    batch = micro * world.size * accumulation
    reading.step(Derivation.B_PRODUCT, (micro, world.size, accumulation), batch)
    reading.step(Derivation.T_PRODUCT, (batch, seq_len), batch * seq_len)
    return reading.finish(
        world,
        data_parallel=world.size,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
    )


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

"""nanoGPT's batch arithmetic (``train.py`` and ``configurator.py``, karpathy/nanoGPT).

Config files (``config/train_gpt2.py``) are Python assignments that ``configurator.py`` runs over
``train.py``'s defaults (batch_size 12, block_size 1024, gradient_accumulation_steps 5 * 8), then
``--key=value`` arguments override them. effbatch reads them with ``ast`` and runs nothing. Under
DDP ``train.py`` asserts ``gradient_accumulation_steps % ddp_world_size == 0`` and divides it by the
world size: the configured accumulation is global, and each GPU accumulates the quotient.
"""

from __future__ import annotations

from typing import Any

from core.configs.common import Reading, check_data, program_flags, require_world, whole
from core.configs.model import Check, CheckError, Derivation, Framework, Level, ProblemKind, Rule, World
from core.configs.reading import Format, Parsed

DEFAULTS = {"batch_size": 12, "block_size": 1024, "gradient_accumulation_steps": 5 * 8}


def check(sources: list[Parsed], world: World | None) -> Check:
    reading = Reading(Framework.NANOGPT)
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
    if not values and not any(p.format is Format.SHELL for p in sources):
        raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[p.source.name for p in sources])
    numbers = {}
    for key, default in DEFAULTS.items():
        if key in values:
            value, where = values[key]
            reading.note(key, value, where)
            number = whole(value, key, where, auto=False)
            assert isinstance(number, int)
            numbers[key] = number
        else:
            numbers[key] = default
    defaults = [key for key in DEFAULTS if key not in values]
    if defaults:
        reading.finding(Level.INFO, Rule.NANOGPT_DEFAULTS, keys=defaults, values=[DEFAULTS[k] for k in defaults])
    world = require_world(world, Framework.NANOGPT)
    reading.note("world_size", world.size, world.where)
    micro, seq_len, configured = numbers["batch_size"], numbers["block_size"], numbers["gradient_accumulation_steps"]
    reading.step(Derivation.DP_WORLD, (world.size,), world.size)
    if configured % world.size:
        reading.finding(Level.ERROR, Rule.NANOGPT_DIVISIBLE, accumulation=configured, world=world.size)
        numbers_ = {"data_parallel": world.size, "micro_batch": micro, "accumulation": None, "global_batch": None}
        return Check(**check_data(Framework.NANOGPT, reading, world, seq_len=seq_len, **numbers_))
    accumulation = configured // world.size
    reading.step(Derivation.A_NANOGPT, (configured, world.size), accumulation)
    reading.finding(Level.WARNING, Rule.NANOGPT_GLOBAL, configured=configured, world=world.size, per_gpu=accumulation)
    batch = micro * world.size * accumulation
    reading.step(Derivation.B_PRODUCT, (micro, world.size, accumulation), batch)
    reading.step(Derivation.T_PRODUCT, (batch, seq_len), batch * seq_len)
    return Check(
        **check_data(
            Framework.NANOGPT,
            reading,
            world,
            data_parallel=world.size,
            micro_batch=micro,
            accumulation=accumulation,
            global_batch=batch,
            seq_len=seq_len,
        )
    )

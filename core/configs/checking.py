"""One check: the texts read, the framework detected (or taken as named), the world size found, that framework's
arithmetic run, and each branch of a launch script the start decides checked as well."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from effbatch.core.configs import branches, memory
from effbatch.core.configs.base import (
    Check,
    CheckError,
    Format,
    Framework,
    Parsed,
    ProblemKind,
    Rule,
    Source,
    World,
    launched_world,
    partial_world,
)
from effbatch.core.configs.base.versions import pins_in, requirements
from effbatch.core.configs.linking import check_settings, link
from effbatch.core.configs.read import MAX_CONFIG_BYTES, parse
from effbatch.core.configs.registry import all_frameworks, detect
from effbatch.core.configs.registry import framework as framework_named


def rules() -> tuple[Rule[Any], ...]:
    """Every rule of every framework, and of the checking itself, each once."""
    seen: dict[str, Rule[Any]] = {}
    for group in (*(framework.rules for framework in all_frameworks()), branches.RULES, memory.RULES):
        for rule in group:
            seen.setdefault(rule.code, rule)
    return tuple(seen.values())


def check_config(
    sources: Sequence[Source],
    world: World | None = None,
    framework: str | None = None,
    max_bytes: int = MAX_CONFIG_BYTES,
    settings: Mapping[str, str] | None = None,
    versions: Mapping[str, str] | None = None,
    gpu: str | None = None,
) -> Check:
    """What ``framework`` (an id; detected when not named) does with ``sources``; ``CheckError`` when it cannot
    be said.

    ``world`` (the world size given from outside) wins over one a launcher in the sources sets;
    ``max_bytes`` caps each source (pasted text by default; the CLI reads files up to ``MAX_FILE_BYTES``);
    ``settings`` (``--set bs=16``) are passed to every Python script as its command line would (``--bs 16``);
    ``versions`` (``{"trl": "==0.18.0"}``) pin framework releases, over what the sources pin.
    ``gpu`` (``h100``) is the accelerator the memory estimate holds a run against, over one the sources name.
    When the world size is needed, the error's ``nodes`` and ``per_node`` hold what the sources say of it.
    """
    if not sources:
        raise CheckError(ProblemKind.EMPTY, name="")
    named = memory.accelerator(gpu)
    parsed = [parse(source, max_bytes) for source in sources]
    if settings:
        check_settings(parsed, settings)
    parsed = link(parsed, world, settings)
    chosen = framework_named(framework) if framework else detect(parsed)
    pinned = pins(parsed) | requirements(f"{name}{specifiers}" for name, specifiers in (versions or {}).items())
    try:
        check = chosen.check(parsed, world or launched_world(parsed), pinned)
        if framework and not _read_anything(chosen, parsed, check):
            raise CheckError(ProblemKind.NOT_THIS_FRAMEWORK, framework=framework, names=[p.source.name for p in parsed])
        check = branches.with_alternatives(
            check, parsed, world, lambda p, w: chosen.check(p, w or launched_world(p), pinned)
        )
        return memory.with_memory(_world_over_launch(check, world, launched_world(parsed)), named)
    except CheckError as error:
        if error.kind is ProblemKind.WORLD_SIZE_NEEDED:
            error.ctx["nodes"], error.ctx["per_node"] = partial_world(parsed)
        raise


#: What a check reads of the world size, not of the framework's own settings.
_WORLD_KEYS = frozenset({"world_size"})


def _world_over_launch(check: Check, given: World | None, launched: World | None) -> Check:
    """The world size given from outside over a different one the launch line sets: „Gelesen“ says which wins."""
    if given is None or launched is None or launched.size == given.size:
        return check
    over = (launched.size, launched.where)
    read = tuple(replace(r, over=over) if r.key == "world_size" and r.over is None else r for r in check.read)
    return replace(check, read=read)


def _read_anything(framework: Framework, parsed: list[Parsed], check: Check) -> bool:
    """Whether a framework named by ``--framework`` found something of its own: a source it recognises, or a value
    it read beyond the world size (else its answer would be its defaults alone)."""
    return any(framework.detect(p) for p in parsed) or any(read.key not in _WORLD_KEYS for read in check.read)


def pins(parsed: list[Parsed]) -> dict[str, str]:
    """The releases the sources pin: ``requirements*.txt``, ``pyproject.toml``, ``environment.yml`` and what
    ``setup.py`` passes to ``setup(install_requires=[…])``."""
    found: dict[str, str] = {}
    for source in parsed:
        if source.format is Format.PINS:
            found |= source.data.get("pins", {})
        elif source.format in (Format.TOML, Format.YAML):
            found |= pins_in(source.data)
        elif source.format is Format.PYTHON and source.python is not None:
            for call in source.python.called("setup"):
                given = call.keywords.get("install_requires")
                if given is not None and isinstance(given.value, list):
                    found |= requirements(str(item) for item in given.value if isinstance(item, str))
    return found

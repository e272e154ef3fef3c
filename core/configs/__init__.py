"""Reading teams' real training configs: the batch each framework will really use, and what it refuses.

``check_config`` takes the texts (a config file, a launch line or script, or both), detects the
framework (or takes the one named), finds the world size (given, or from the launcher) and runs
that framework's own arithmetic. Pure: nothing is executed, nothing is read from disk here.

A framework is one module here: ``ID``, ``detect``, ``check`` and its ``RULES``; ``FRAMEWORKS``
lists them once, in the order detection tries them (the more specific first: a Hugging Face
launch beside a DeepSpeed JSON is the Trainer's run).
"""

from collections.abc import Sequence
from typing import Any

from core.configs import (
    accelerate,
    axolotl,
    branches,
    deepspeed,
    huggingface,
    levanter,
    lightning,
    litgpt,
    llamafactory,
    llmfoundry,
    maxtext,
    megatron,
    megatron_bridge,
    nanogpt,
    nanotron,
    nemo,
    olmo,
    olmo_core,
    openrlhf,
    torchtitan,
    torchtune,
    trl,
    verl,
)
from core.configs.common import launched_world, partial_world
from core.configs.model import (
    Check,
    CheckError,
    Derivation,
    Effect,
    Finding,
    Fix,
    Framework,
    Level,
    Nothing,
    Phase,
    ProblemKind,
    Read,
    Rollout,
    Rule,
    Step,
    Syntax,
    World,
)
from core.configs.reading import MAX_CONFIG_BYTES, MAX_FILE_BYTES, Parsed, Source, clean, parse

FRAMEWORKS: tuple[Framework, ...] = tuple(
    Framework(module.ID, module.detect, module.check, module.RULES)
    for module in (
        megatron,
        verl,
        openrlhf,
        llamafactory,
        trl,
        huggingface,
        nanotron,
        llmfoundry,
        olmo,
        litgpt,
        torchtune,
        maxtext,
        nemo,
        olmo_core,
        megatron_bridge,
        levanter,
        torchtitan,
        nanogpt,
        axolotl,
        deepspeed,
        lightning,
        accelerate,
    )
)
BY_ID = {framework.id: framework for framework in FRAMEWORKS}


def rules() -> tuple[Rule[Any], ...]:
    """Every rule of every framework, each once."""
    seen: dict[str, Rule[Any]] = {}
    for group in (*(framework.rules for framework in FRAMEWORKS), branches.RULES):
        for rule in group:
            seen.setdefault(rule.code, rule)
    return tuple(seen.values())


def detect(parsed: Sequence[Parsed]) -> Framework:
    """The first framework, in ``FRAMEWORKS``' order, that one of the sources belongs to."""
    for framework in FRAMEWORKS:
        if any(framework.detect(source) for source in parsed):
            return framework
    raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[p.source.name for p in parsed])


def check_config(
    sources: Sequence[Source],
    world: World | None = None,
    framework: str | None = None,
    max_bytes: int = MAX_CONFIG_BYTES,
) -> Check:
    """What ``framework`` (an id; detected when not named) does with ``sources``; ``CheckError`` when it cannot
    be said.

    ``world`` (the world size given from outside) wins over one a launcher in the sources sets;
    ``max_bytes`` caps each source (pasted text by default; the CLI reads files up to ``MAX_FILE_BYTES``).
    When the world size is needed, the error's ``nodes`` and ``per_node`` hold what the sources say of it.
    """
    if not sources:
        raise CheckError(ProblemKind.EMPTY, name="")
    parsed = [parse(source, max_bytes) for source in sources]
    chosen = BY_ID[framework] if framework else detect(parsed)
    try:
        check = chosen.check(parsed, world or launched_world(parsed))
        return branches.with_alternatives(check, parsed, world, lambda p, w: chosen.check(p, w or launched_world(p)))
    except CheckError as error:
        if error.kind is ProblemKind.WORLD_SIZE_NEEDED:
            error.ctx["nodes"], error.ctx["per_node"] = partial_world(parsed)
        raise


__all__ = [
    "BY_ID",
    "FRAMEWORKS",
    "MAX_CONFIG_BYTES",
    "MAX_FILE_BYTES",
    "Check",
    "CheckError",
    "Derivation",
    "Effect",
    "Finding",
    "Fix",
    "Framework",
    "Level",
    "Nothing",
    "Phase",
    "ProblemKind",
    "Read",
    "Rollout",
    "Rule",
    "Source",
    "Step",
    "Syntax",
    "World",
    "check_config",
    "clean",
    "rules",
]

"""Reading teams' real training configs: the batch each framework will really use, and what it refuses.

``check_config`` takes the texts (a config file, a launch line or script, or both), detects the
framework (or takes the one named), finds the world size (given, or from the launcher) and runs
that framework's own arithmetic: DeepSpeed, Hugging Face Trainer, Megatron-LM, NeMo, torchtitan,
nanoGPT, axolotl, OLMo. Pure: nothing is executed, nothing is read from disk here.
"""

from collections.abc import Callable, Mapping, Sequence

from core.configs import axolotl, deepspeed, huggingface, megatron, nanogpt, nemo, olmo, torchtitan
from core.configs.common import launched_world, partial_world
from core.configs.model import (
    Check,
    CheckError,
    Derivation,
    Finding,
    Framework,
    Level,
    Phase,
    ProblemKind,
    Read,
    Rule,
    Step,
    World,
)
from core.configs.reading import MAX_CONFIG_BYTES, MAX_FILE_BYTES, Parsed, Source, clean, detect, parse

CHECKS: Mapping[Framework, Callable[[list[Parsed], World | None], Check]] = {
    Framework.DEEPSPEED: deepspeed.check,
    Framework.HUGGINGFACE: huggingface.check,
    Framework.MEGATRON: megatron.check,
    Framework.NEMO: nemo.check,
    Framework.TORCHTITAN: torchtitan.check,
    Framework.NANOGPT: nanogpt.check,
    Framework.AXOLOTL: axolotl.check,
    Framework.OLMO: olmo.check,
}


def check_config(
    sources: Sequence[Source],
    world: World | None = None,
    framework: Framework | None = None,
    max_bytes: int = MAX_CONFIG_BYTES,
) -> Check:
    """What ``framework`` (detected when not named) does with ``sources``; ``CheckError`` when it cannot be said.

    ``world`` (the world size given from outside) wins over one a launcher in the sources sets;
    ``max_bytes`` caps each source (pasted text by default; the CLI reads files up to ``MAX_FILE_BYTES``).
    When the world size is needed, the error's ``nodes`` and ``per_node`` hold what the sources say of it.
    """
    if not sources:
        raise CheckError(ProblemKind.EMPTY, name="")
    parsed = [parse(source, max_bytes) for source in sources]
    chosen = framework or detect(parsed)
    try:
        return CHECKS[chosen](parsed, world or launched_world(parsed))
    except CheckError as error:
        if error.kind is ProblemKind.WORLD_SIZE_NEEDED:
            error.ctx["nodes"], error.ctx["per_node"] = partial_world(parsed)
        raise


__all__ = [
    "MAX_CONFIG_BYTES",
    "MAX_FILE_BYTES",
    "Check",
    "CheckError",
    "Derivation",
    "Finding",
    "Framework",
    "Level",
    "Phase",
    "ProblemKind",
    "Read",
    "Rule",
    "Source",
    "Step",
    "World",
    "check_config",
    "clean",
]

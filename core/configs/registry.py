"""The frameworks effbatch reads, in the order detection tries them: the only place that knows the order.

The more specific first: a Hugging Face launch beside a DeepSpeed JSON is the Trainer's run, a NeMo YAML is not
a Lightning one, an accelerate config beside TrainingArguments is the Trainer's launch.
"""

from __future__ import annotations

from collections.abc import Sequence

from effbatch.core.configs.base import CheckError, Format, Framework, Parsed, ProblemKind
from effbatch.core.configs.frameworks import (
    accelerate,
    axolotl,
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


def detect(parsed: Sequence[Parsed]) -> Framework:
    """The first framework, in ``FRAMEWORKS``' order, that one of the sources belongs to; a Python script among
    them decides first (the code that runs is the framework's, whatever flags the launch line passes it)."""
    scripts = [source for source in parsed if source.format is Format.PYTHON]
    for group in (scripts, parsed):
        for framework in FRAMEWORKS:
            if any(framework.detect(source) for source in group):
                return framework
    raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[p.source.name for p in parsed])

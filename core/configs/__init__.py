"""Reading teams' real training configs: the batch each framework will really use, and what it refuses.

``check_config`` takes the texts (a config file, a launch line or script, or both), detects the
framework (or takes the one named), finds the world size (given, or from the launcher) and runs
that framework's own arithmetic. Pure: nothing is executed, nothing is read from disk here.

The package in floors, each importing only those below it (``[tool.importlinter]`` in pyproject.toml holds this):

- ``checking`` (with ``branches`` and ``memory``): one check over the sources, every branch a launch script leaves
  open, and the memory per GPU where the files fix the model;
- ``registry``: the frameworks in detection order;
- ``frameworks``: one module per framework (``ID``, ``detect``, ``check``, ``RULES``), never importing another;
  what several share lives in ``frameworks._shared`` (Megatron-Core's layout, the HF Trainer's batch,
  accelerate's launch, DeepSpeed's config);
- ``read``: from text to data (sizes, formats, JSON/TOML/YAML/Python, bounded);
- ``shell``: the bash grammar and evaluator (launch scripts read, never run);
- ``base``: the data all of them share (errors, rules, results, sources, values with file:line, the world).
"""

from effbatch.core.configs.base import (
    Check,
    CheckError,
    CheckMemory,
    Derivation,
    Effect,
    Finding,
    Fix,
    Framework,
    Level,
    Nothing,
    Origin,
    Phase,
    ProblemKind,
    Read,
    Rollout,
    Rule,
    Since,
    Source,
    Step,
    Syntax,
    Via,
    World,
)
from effbatch.core.configs.checking import check_config, rules
from effbatch.core.configs.read import MAX_CONFIG_BYTES, MAX_FILE_BYTES, clean
from effbatch.core.configs.registry import IDS as FRAMEWORK_IDS
from effbatch.core.configs.registry import all_frameworks, framework

__all__ = [
    "FRAMEWORK_IDS",
    "MAX_CONFIG_BYTES",
    "MAX_FILE_BYTES",
    "Check",
    "CheckError",
    "CheckMemory",
    "Derivation",
    "Effect",
    "Finding",
    "Fix",
    "Framework",
    "Level",
    "Nothing",
    "Origin",
    "Phase",
    "ProblemKind",
    "Read",
    "Rollout",
    "Rule",
    "Since",
    "Source",
    "Step",
    "Syntax",
    "Via",
    "World",
    "all_frameworks",
    "check_config",
    "clean",
    "framework",
    "rules",
]

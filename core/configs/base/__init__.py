"""The floor every layer of ``core.configs`` stands on: the data they share and nothing else.

- ``errors``: why an input cannot be checked (``ProblemKind``, ``CheckError``);
- ``rules``: a framework's rules as data (``Rule``, ``Effect``, ``Level``, ``Fix``, ``@context``);
- ``results``: what a check reads, derives and finds (``Check``, ``Read``, ``Step``, ``World`` …);
- ``source``, ``script``, ``pyscript``: an input (``Source``) and what a reader made of it (``Parsed``, a shell
  ``Script``, a Python ``PyScript``);
- ``values``: reading values with file:line and finishing a check (``Reading``, ``whole``, ``fix``);
- ``tokens``: the end every check with a known batch shares, T = B · L as a step (``finish_with_tokens``, imported
  from its module);
- ``memory``: what a config fixes of the model and its memory techniques (``MemoryFacts``), and the estimate;
- ``words``, ``world``: launch lines as words, and the world size a launcher, the environment or SLURM sets.

Imports only the standard library and the modules of this floor.
"""

from effbatch.core.configs.base.errors import CheckError, ProblemKind
from effbatch.core.configs.base.memory import Architecture, CheckMemory, MemoryFacts
from effbatch.core.configs.base.pyscript import (
    CallSite,
    Condition,
    Given,
    Instance,
    Origin,
    PyScript,
    Unknown,
    Via,
    via_of,
)
from effbatch.core.configs.base.results import (
    Check,
    Derivation,
    Framework,
    ModelShape,
    Phase,
    Read,
    Rollout,
    Step,
    World,
)
from effbatch.core.configs.base.rules import (
    Effect,
    Finding,
    Fix,
    Level,
    Nothing,
    Rule,
    Syntax,
    context,
    context_fields,
)
from effbatch.core.configs.base.script import Command, Script, Undecided
from effbatch.core.configs.base.source import Format, Parsed, Source
from effbatch.core.configs.base.values import MAX_VALUE, Auto, Reading, fix, lookup, neighbours, whole, world_fix
from effbatch.core.configs.base.versions import Pins, Since, holds
from effbatch.core.configs.base.words import LAUNCHERS, Launch, flags, split_launch, split_words
from effbatch.core.configs.base.world import launched_world, main_command, partial_world, program_flags

__all__ = [
    "LAUNCHERS",
    "MAX_VALUE",
    "Architecture",
    "Auto",
    "CallSite",
    "Check",
    "CheckError",
    "CheckMemory",
    "Command",
    "Condition",
    "Derivation",
    "Effect",
    "Finding",
    "Fix",
    "Format",
    "Framework",
    "Given",
    "Instance",
    "Launch",
    "Level",
    "MemoryFacts",
    "ModelShape",
    "Nothing",
    "Origin",
    "Parsed",
    "Phase",
    "Pins",
    "ProblemKind",
    "PyScript",
    "Read",
    "Reading",
    "Rollout",
    "Rule",
    "Script",
    "Since",
    "Source",
    "Step",
    "Syntax",
    "Undecided",
    "Unknown",
    "Via",
    "World",
    "context",
    "context_fields",
    "fix",
    "flags",
    "holds",
    "launched_world",
    "lookup",
    "main_command",
    "neighbours",
    "partial_world",
    "program_flags",
    "split_launch",
    "split_words",
    "via_of",
    "whole",
    "world_fix",
]

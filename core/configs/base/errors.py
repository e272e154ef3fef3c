"""Why a config cannot be checked at all: the one error every layer raises (``bot.texts.checks`` words it)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ProblemKind(StrEnum):
    """Why a config cannot be checked at all (exit code 2)."""

    TOO_LARGE = "too_large"
    UNREADABLE = "unreadable"
    UNSAFE = "unsafe"
    UNKNOWN_FORMAT = "unknown_format"
    NOTHING_TO_CHECK = "nothing_to_check"
    #: ``--framework`` named, but none of the sources holds anything of that framework.
    NOT_THIS_FRAMEWORK = "not_this_framework"
    WORLD_SIZE_NEEDED = "world_size_needed"
    BAD_VALUE = "bad_value"
    EMPTY = "empty"
    #: ``--gpu``/``gpu=`` names an accelerator the memory estimate does not know.
    UNKNOWN_GPU = "unknown_gpu"
    #: ``--set name=value`` with a name no script among the sources reads.
    UNKNOWN_SETTING = "unknown_setting"
    #: ``--set name=value`` with a value the option's type refuses (``type=int`` and ``abc``).
    BAD_SETTING = "bad_setting"


class CheckError(ValueError):
    """The input cannot be checked; ``kind`` and ``ctx`` say why."""

    def __init__(self, kind: ProblemKind, **ctx: Any) -> None:
        self.kind = kind
        self.ctx = ctx
        super().__init__(f"{kind.value}: {ctx}")

"""From the text after ``/effbatch`` to a validated request.

Grammar (this version)::

    command   := word*
    word      := help | private | positional | named
    help      := "hilfe" | "help" | "?"               anywhere: the whole answer is the help
    private   := "privat" | "private"                  anywhere: answer only to the caller
    positional:= number                                b d a [L], before any named value
    named     := key "=" number                        any order, after the positionals

Keys are case-insensitive, except ``B`` and ``T``, which are reserved for the
global batch and the tokens per step. Every problem found is reported at once.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from types import MappingProxyType

from pydantic import ValidationError

from core.errors import InputError, Problem, ProblemKind
from core.model import Argument, BatchSetup
from core.numbers import COUNT_SUFFIXES, SEQ_LEN_SUFFIXES, NumberError, parse_whole_number

HELP_WORDS = frozenset({"hilfe", "help", "?", "-h", "--help"})
PRIVATE_WORDS = frozenset({"privat", "private"})
#: Standalone signs people put between factors ("8 × 64 × 4"); they carry no value.
SEPARATOR_WORDS = frozenset({"x", "×", "*", "·"})
RESERVED_KEYS = frozenset({"B", "T"})

POSITIONAL_ORDER = (
    Argument.MICRO_BATCH,
    Argument.DATA_PARALLEL,
    Argument.ACCUMULATION,
    Argument.SEQ_LEN,
)
REQUIRED = POSITIONAL_ORDER[:3]

#: Every accepted key (case-folded) and the argument it names; the help lists them.
KEY_ALIASES = MappingProxyType(
    {
        **dict.fromkeys(("b", "micro", "micro_batch", "microbatch", "mbs"), Argument.MICRO_BATCH),
        **dict.fromkeys(
            ("d", "dp", "geraete", "geräte", "devices", "replicas", "data_parallel"), Argument.DATA_PARALLEL
        ),
        **dict.fromkeys(("a", "akku", "gas", "ga", "accum", "accumulation", "grad_accum"), Argument.ACCUMULATION),
        **dict.fromkeys(("l", "seq", "len", "seq_len", "seqlen", "laenge", "länge"), Argument.SEQ_LEN),
    }
)

_SPACES_AROUND_EQUALS = re.compile(r"\s*=\s*")


@dataclass(frozen=True)
class HelpRequest:
    """The user asked for the help text."""


@dataclass(frozen=True)
class CalculationRequest:
    """Compute B (and T) for ``setup``; ``private`` asks for an answer only to the caller."""

    setup: BatchSetup
    private: bool = False


ParsedCommand = HelpRequest | CalculationRequest


def parse_command(text: str) -> ParsedCommand:
    """Parse the command text; raise ``InputError`` listing every problem found."""
    words = _words(text)
    if any(word.casefold() in HELP_WORDS for word in words):
        return HelpRequest()
    collected = _Collector()
    for word in words:
        collected.add(word)
    return CalculationRequest(setup=collected.setup(), private=collected.private)


def _words(text: str) -> list[str]:
    normalized = _SPACES_AROUND_EQUALS.sub("=", unicodedata.normalize("NFC", text).strip())
    words = [word.rstrip(",") for word in normalized.split()]
    return [word for word in words if word and word not in SEPARATOR_WORDS]


class _Collector:
    """Assigns words to arguments and gathers problems on the way."""

    def __init__(self) -> None:
        self.private = False
        self.raw: dict[Argument, str] = {}
        self.problems: list[Problem] = []
        self._positionals = 0
        self._seen_named = False

    def add(self, word: str) -> None:
        if word.casefold() in PRIVATE_WORDS:
            self.private = True
        elif "=" in word:
            self._seen_named = True
            self._add_named(word)
        elif self._seen_named:
            self.problems.append(Problem(ProblemKind.POSITIONAL_AFTER_NAMED, text=word))
        elif self._positionals >= len(POSITIONAL_ORDER):
            self.problems.append(Problem(ProblemKind.TOO_MANY_VALUES, text=word))
        else:
            self._assign(POSITIONAL_ORDER[self._positionals], word)
            self._positionals += 1

    def _add_named(self, word: str) -> None:
        key, _, value = word.partition("=")
        if key in RESERVED_KEYS:
            self.problems.append(Problem(ProblemKind.RESERVED_KEY, text=word, ctx={"key": key}))
            return
        argument = KEY_ALIASES.get(key.casefold().replace("-", "_"))
        if argument is None:
            close = difflib.get_close_matches(key.casefold(), KEY_ALIASES, n=3, cutoff=0.6)
            self.problems.append(Problem(ProblemKind.UNKNOWN_KEY, text=word, ctx={"key": key, "suggestions": close}))
        elif not value:
            self.problems.append(Problem(ProblemKind.EMPTY_VALUE, argument=argument, text=word))
        else:
            self._assign(argument, value)

    def _assign(self, argument: Argument, text: str) -> None:
        if argument in self.raw:
            self.problems.append(
                Problem(ProblemKind.DUPLICATE, argument=argument, text=text, ctx={"first": self.raw[argument]})
            )
        else:
            self.raw[argument] = text

    def setup(self) -> BatchSetup:
        values: dict[str, int] = {}
        for argument, text in self.raw.items():
            suffixes = SEQ_LEN_SUFFIXES if argument is Argument.SEQ_LEN else COUNT_SUFFIXES
            try:
                values[argument.value] = parse_whole_number(text, suffixes)
            except NumberError as problem:
                self.problems.append(problem.for_argument(argument, text))
        missing = [argument for argument in REQUIRED if argument not in self.raw]
        if missing:
            self.problems.append(Problem(ProblemKind.MISSING_VALUES, ctx={"missing": missing}))
        try:
            setup = BatchSetup.model_validate(values)
        except ValidationError as error:
            self.problems.extend(self._bound_problems(error))
            raise InputError(self.problems) from None
        if self.problems:
            raise InputError(self.problems)
        return setup

    def _bound_problems(self, error: ValidationError) -> list[Problem]:
        """Translate pydantic's machine-readable errors; 'missing' is reported above."""
        problems = []
        for detail in error.errors():
            if detail["type"] == "missing":
                continue
            argument = Argument(str(detail["loc"][0]))
            kind = ProblemKind.TOO_LARGE if detail["type"] == "less_than_equal" else ProblemKind.NOT_A_NUMBER
            problems.append(Problem(kind, argument=argument, text=self.raw[argument], ctx=dict(detail.get("ctx", {}))))
        return problems

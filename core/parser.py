"""From the text after ``/effbatch`` to a validated request.

Grammar::

    command    := setup [("vs" | "gegen") setup]
    setup      := word*
    word       := help | private | positional | named
    help       := "hilfe" | "help" | "?"           anywhere: the whole answer is the help
    private    := "privat" | "private"              anywhere: answer only to the caller
    positional := number                            b d a [L], before any named value
    named      := key "=" value                     any order, after the positionals

Keys are case-insensitive, except ``B`` (target global batch) and ``T`` (target
tokens per step), which differ from ``b`` (micro-batch). After ``vs`` every key not
repeated is taken from the first setup. Every problem found is reported at once.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from pydantic import ValidationError

from core.calculation import factor_problem
from core.errors import InputError, Problem, ProblemKind
from core.model import UPPER_BOUNDS, Argument, PlanRequest
from core.numbers import (
    BYTE_SUFFIXES,
    SEQ_LEN_SUFFIXES,
    TOKEN_SUFFIXES,
    NumberError,
    parse_positive_decimal,
    parse_whole_number,
)

HELP_WORDS = frozenset({"hilfe", "help", "?", "-h", "--help"})
PRIVATE_WORDS = frozenset({"privat", "private"})
COMPARE_WORDS = frozenset({"vs", "vs.", "versus", "gegen"})
#: Standalone signs people put between factors ("8 × 64 × 4"); they carry no value.
SEPARATOR_WORDS = frozenset({"x", "×", "*", "·"})

POSITIONAL_ORDER = (
    Argument.MICRO_BATCH,
    Argument.DATA_PARALLEL,
    Argument.ACCUMULATION,
    Argument.SEQ_LEN,
)

#: Keys matched exactly: capital B and T are targets, lower-case b is the micro-batch.
CASE_SENSITIVE_KEYS = MappingProxyType({"B": Argument.TARGET_BATCH, "T": Argument.TARGET_TOKENS})

#: Every other accepted key (case-folded) and the argument it names; the help lists them.
KEY_ALIASES = MappingProxyType(
    {
        **dict.fromkeys(("b", "micro", "micro_batch", "microbatch", "mbs"), Argument.MICRO_BATCH),
        **dict.fromkeys(
            ("d", "dp", "geraete", "geräte", "devices", "replicas", "data_parallel"), Argument.DATA_PARALLEL
        ),
        **dict.fromkeys(("a", "akku", "gas", "ga", "accum", "accumulation", "grad_accum"), Argument.ACCUMULATION),
        **dict.fromkeys(("l", "seq", "len", "seq_len", "seqlen", "laenge", "länge"), Argument.SEQ_LEN),
        **dict.fromkeys(("gpus", "gpu", "world", "world_size", "ngpus"), Argument.GPUS),
        **dict.fromkeys(("tp", "tensor"), Argument.TP),
        **dict.fromkeys(("pp", "pipeline"), Argument.PP),
        **dict.fromkeys(("cp", "context"), Argument.CP),
        **dict.fromkeys(("sp", "ulysses"), Argument.SP),
        **dict.fromkeys(("gbs", "global_batch"), Argument.TARGET_BATCH),
        **dict.fromkeys(("tokens", "tokens_per_step"), Argument.TARGET_TOKENS),
        **dict.fromkeys(("budget", "total_tokens"), Argument.BUDGET),
        **dict.fromkeys(("act", "activation", "aktivierung"), Argument.ACTIVATION),
        **dict.fromkeys(("lr", "learning_rate", "lernrate"), Argument.LR),
    }
)

#: How each argument's value is read; everything else is a count (k = ×1.000).
_VALUE_PARSERS: Mapping[Argument, Callable[[str], Any]] = MappingProxyType(
    {
        Argument.SEQ_LEN: lambda text: parse_whole_number(text, SEQ_LEN_SUFFIXES),
        Argument.TARGET_TOKENS: lambda text: parse_whole_number(text, TOKEN_SUFFIXES),
        Argument.BUDGET: lambda text: parse_whole_number(text, TOKEN_SUFFIXES),
        Argument.ACTIVATION: lambda text: parse_whole_number(text, BYTE_SUFFIXES, unit_required=True),
        Argument.LR: lambda text: parse_positive_decimal(text, UPPER_BOUNDS[Argument.LR]),
    }
)

#: Giving one of these after ``vs`` replaces the inherited other: d and GPUs, B and T.
_REPLACES = MappingProxyType(
    {
        Argument.DATA_PARALLEL: Argument.GPUS,
        Argument.GPUS: Argument.DATA_PARALLEL,
        Argument.TARGET_BATCH: Argument.TARGET_TOKENS,
        Argument.TARGET_TOKENS: Argument.TARGET_BATCH,
    }
)

#: The key each argument is written with in a canonical command (what-if buttons carry these).
CANONICAL_KEYS = MappingProxyType(
    {
        Argument.MICRO_BATCH: "b",
        Argument.DATA_PARALLEL: "d",
        Argument.ACCUMULATION: "a",
        Argument.SEQ_LEN: "L",
        Argument.GPUS: "gpus",
        Argument.TP: "tp",
        Argument.PP: "pp",
        Argument.CP: "cp",
        Argument.SP: "sp",
        Argument.TARGET_BATCH: "B",
        Argument.TARGET_TOKENS: "T",
        Argument.BUDGET: "budget",
        Argument.ACTIVATION: "act",
    }
)

#: (field name, key, unit) in canonical order, resolved once: command_text runs for every what-if button.
_CANONICAL_FIELDS = tuple(
    (argument.value, key, "B" if argument is Argument.ACTIVATION else "") for argument, key in CANONICAL_KEYS.items()
)

_SPACES_AROUND_EQUALS = re.compile(r"\s*=\s*")
_V = TypeVar("_V")


@dataclass(frozen=True)
class HelpRequest:
    """The user asked for the help text."""


@dataclass(frozen=True)
class PlanCommand:
    """Compute one setup; ``private`` asks for an answer only to the caller."""

    request: PlanRequest
    private: bool = False


@dataclass(frozen=True)
class CompareCommand:
    """Compare two setups, optionally scaling a learning rate ``lr``."""

    before: PlanRequest
    after: PlanRequest
    lr: float | None = None
    private: bool = False


ParsedCommand = HelpRequest | PlanCommand | CompareCommand


def parse_command(text: str) -> ParsedCommand:
    """Parse the command text; raise ``InputError`` listing every problem found."""
    words = _words(text)
    if any(word.casefold() in HELP_WORDS for word in words):
        return HelpRequest()
    sides = _split_sides(words)
    private = any(word.casefold() in PRIVATE_WORDS for word in words)
    collectors = [_Collector(side, label) for side, label in zip(sides, ("before", "after"), strict=False)]
    problems = [p for c in collectors for p in c.problems]
    if len(sides) > 2:
        problems.append(Problem(ProblemKind.TOO_MANY_COMPARISONS))
    if len(sides) > 1 and any(not side for side in sides):
        problems.append(Problem(ProblemKind.EMPTY_SIDE))
    lr_values = [c.values.pop(Argument.LR) for c in collectors if Argument.LR in c.values]
    if lr_values and len(sides) == 1:
        problems.append(Problem(ProblemKind.LR_WITHOUT_COMPARISON, argument=Argument.LR))
    first = collectors[0]
    requests = [_request(first.values, first.raw, problems)]
    if len(collectors) > 1:
        second = collectors[1]
        values, raw = _inherit(first.values, second.values), _inherit(first.raw, second.raw)
        requests.append(_request(values, raw, problems, side="after"))
    if problems:
        raise InputError(problems)
    if len(requests) == 1:
        return PlanCommand(request=requests[0], private=private)
    return CompareCommand(
        before=requests[0], after=requests[1], lr=lr_values[0] if lr_values else None, private=private
    )


def command_text(request: PlanRequest, lr: float | None = None) -> str:
    """The canonical command for ``request``: named keys and plain integers, read back by ``parse_command``."""
    parts = [f"{key}={value}{unit}" for field, key, unit in _CANONICAL_FIELDS if (value := getattr(request, field))]
    if lr is not None:
        parts.append(f"lr={lr!r}")
    return " ".join(parts)


def comparison_text(before: PlanRequest, after: PlanRequest, lr: float | None) -> str:
    """The canonical command comparing two requests; the second is written out in full."""
    return f"{command_text(before)} vs {command_text(after, lr)}"


def parse_fields(fields: Mapping[Argument, str]) -> PlanRequest:
    """Values typed into a form, one text per argument; ``InputError`` exactly as for a typed command."""
    collector = _Collector([], "before", preset={a: text.strip() for a, text in fields.items() if text.strip()})
    problems = list(collector.problems)
    request = _request(collector.values, collector.raw, problems)
    if problems or request is None:
        raise InputError(problems)
    return request


def _words(text: str) -> list[str]:
    normalized = _SPACES_AROUND_EQUALS.sub("=", unicodedata.normalize("NFC", text).strip())
    words = [word.rstrip(",") for word in normalized.split()]
    return [word for word in words if word and word not in SEPARATOR_WORDS]


def _split_sides(words: list[str]) -> list[list[str]]:
    sides: list[list[str]] = [[]]
    for word in words:
        if word.casefold() in COMPARE_WORDS:
            sides.append([])
        elif word.casefold() not in PRIVATE_WORDS:
            sides[-1].append(word)
    return sides


def _inherit(first: dict[Argument, _V], second: dict[Argument, _V]) -> dict[Argument, _V]:
    """The second setup: its own values, the rest from the first (d and GPUs, B and T replace each other)."""
    kept = {a: v for a, v in first.items() if _REPLACES.get(a) not in second}
    return kept | second


def _request(
    values: dict[Argument, Any], raw: dict[Argument, str], problems: list[Problem], side: str = "before"
) -> PlanRequest | None:
    """Validate ``values`` into a request; problems are appended, None returned when there are any."""
    found = []
    stray = any(p.kind is ProblemKind.POSITIONAL_AFTER_NAMED for p in problems)  # the cause of anything missing
    if not stray and (missing := factor_problem(raw)) is not None:  # a bad number still counts as given
        found.append(missing)
    try:
        request = PlanRequest.model_validate({a.value: v for a, v in values.items()})
    except ValidationError as error:
        found.extend(_bound_problems(error, raw))
        request = None
    problems.extend(_tag(p, side) for p in found)
    return None if found else request


def _tag(problem: Problem, side: str) -> Problem:
    if side == "before":
        return problem
    return Problem(problem.kind, argument=problem.argument, text=problem.text, ctx={**problem.ctx, "side": side})


def _bound_problems(error: ValidationError, raw: dict[Argument, str]) -> list[Problem]:
    """Translate pydantic's machine-readable errors into problems quoting the typed text."""
    problems = []
    for detail in error.errors():
        argument = Argument(str(detail["loc"][0]))
        kind = ProblemKind.TOO_LARGE if detail["type"] == "less_than_equal" else ProblemKind.NOT_A_NUMBER
        problems.append(Problem(kind, argument=argument, text=raw.get(argument), ctx=dict(detail.get("ctx", {}))))
    return problems


class _Collector:
    """Assigns the words of one setup to arguments, reads their values, gathers problems."""

    def __init__(self, words: list[str], side: str, preset: Mapping[Argument, str] | None = None) -> None:
        self.side = side
        self.raw: dict[Argument, str] = dict(preset or {})
        self.values: dict[Argument, Any] = {}
        self.problems: list[Problem] = []
        self._positionals = 0
        self._seen_named = False
        self._stray: list[str] = []
        for word in words:
            self._add(word)
        if self._stray:
            self._problem(ProblemKind.POSITIONAL_AFTER_NAMED, text=self._stray[0], ctx={"texts": self._stray})
        for argument, text in self.raw.items():
            self._read(argument, text)

    def _problem(self, kind: ProblemKind, **fields: Any) -> None:
        self.problems.append(_tag(Problem(kind, **fields), self.side))

    def _add(self, word: str) -> None:
        if "=" in word:
            self._seen_named = True
            self._add_named(word)
        elif self._seen_named:
            self._stray.append(word)
        elif self._positionals >= len(POSITIONAL_ORDER):
            self._problem(ProblemKind.TOO_MANY_VALUES, text=word)
        else:
            self._assign(POSITIONAL_ORDER[self._positionals], word)
            self._positionals += 1

    def _add_named(self, word: str) -> None:
        key, _, value = word.partition("=")
        argument = CASE_SENSITIVE_KEYS.get(key) or KEY_ALIASES.get(key.casefold().replace("-", "_"))
        if argument is None:
            close = difflib.get_close_matches(key.casefold(), KEY_ALIASES, n=3, cutoff=0.6)
            if key.upper() in CASE_SENSITIVE_KEYS:
                close.insert(0, key.upper())
            self._problem(ProblemKind.UNKNOWN_KEY, text=word, ctx={"key": key, "suggestions": close})
        elif not value:
            self._problem(ProblemKind.EMPTY_VALUE, argument=argument, text=word)
        else:
            self._assign(argument, value)

    def _assign(self, argument: Argument, text: str) -> None:
        if argument in self.raw:
            self._problem(ProblemKind.DUPLICATE, argument=argument, text=text, ctx={"first": self.raw[argument]})
        else:
            self.raw[argument] = text

    def _read(self, argument: Argument, text: str) -> None:
        parse = _VALUE_PARSERS.get(argument, parse_whole_number)
        try:
            self.values[argument] = parse(text)
        except NumberError as error:
            self.problems.append(_tag(error.for_argument(argument, text), self.side))

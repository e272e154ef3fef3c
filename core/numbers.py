"""Whole numbers as people type them in a planning discussion.

Accepted: ``4096``; German thousands ``4.096``, ``1.048.576`` (a dot only between
groups of exactly three digits); Python-style ``4_096``; a suffix from a table
(``8k``, ``1M``, ``2Ki``), optionally after a decimal comma when the product is
whole (``1,5k``); exponent notation as papers write counts (``7e9``, ``1.5e9``,
``1,5e9``) when the value is whole. Only ASCII digits count: a number is something one
can retype.

A comma before exactly three digits (``2,000``, ``1,024``, ``1,000T``) is a German decimal comma
or an English thousands separator; it is refused with both readings, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from effbatch.core.arguments import Argument
from effbatch.core.errors import Problem, ProblemKind

#: The German number words: Million, Milliarde, Billion (10¹², not the English billion).
GERMAN_WORDS: Mapping[str, int] = MappingProxyType({"Mio": 1000**2, "Mrd": 1000**3, "Bio": 1000**4})
#: The words as written out or abbreviated with a dot ("2 Billionen", "2 Bio."), each read as its suffix.
GERMAN_WORD_SPELLINGS: Mapping[str, str] = MappingProxyType(
    {
        **dict.fromkeys(("mio", "mio.", "million", "millionen"), "Mio"),
        **dict.fromkeys(("mrd", "mrd.", "milliarde", "milliarden"), "Mrd"),
        **dict.fromkeys(("bio", "bio.", "billion", "billionen"), "Bio"),
    }
)
#: ×1.000 / ×1.000.000 and the binary ×1.024 / ×1.048.576, for counts.
COUNT_SUFFIXES: Mapping[str, int] = MappingProxyType(
    {"k": 1000, "K": 1000, "M": 1000**2, "Ki": 1024, "Mi": 1024**2, **GERMAN_WORDS}
)
#: For sequence lengths ``k`` means ×1.024: context lengths are powers of two (4k = 4.096).
SEQ_LEN_SUFFIXES: Mapping[str, int] = MappingProxyType(
    {"k": 1024, "K": 1024, "M": 1000**2, "Mio": 1000**2, "Ki": 1024, "Mi": 1024**2}
)

#: Token counts and budgets: also G/B (×10⁹, the English "300B tokens") and T (×10¹²).
TOKEN_SUFFIXES: Mapping[str, int] = MappingProxyType(
    {**COUNT_SUFFIXES, "G": 1000**3, "B": 1000**3, "T": 1000**4, "Gi": 1024**3}
)
#: Memory: decimal KB/MB/GB/TB and binary KiB/MiB/GiB/TiB; a unit is required.
BYTE_SUFFIXES: Mapping[str, int] = MappingProxyType(
    {
        "B": 1,
        "kB": 1000,
        "KB": 1000,
        "MB": 1000**2,
        "GB": 1000**3,
        "TB": 1000**4,
        "KiB": 1024,
        "MiB": 1024**2,
        "GiB": 1024**3,
        "TiB": 1024**4,
    }
)

#: Longer than this is no count anyone types; refused before any conversion.
MAX_NUMBER_TEXT = 32

_NUMBER = re.compile(
    r"""
    (?P<whole>[0-9]{1,3}(?:\.[0-9]{3})+     # 1.048.576
             |[0-9]+(?:_[0-9]+)*)           # 4096, 4_096
    (?:,(?P<fraction>[0-9]+))?              # 1,5
    (?P<suffix>[A-Za-z]+)?                  # k, M, Ki, Mi
    """,
    re.VERBOSE | re.ASCII,
)
#: 7e9, 1.5e9, 1,5e9, 2000e-3: a mantissa with one decimal point or comma, then the power of ten.
_SCIENTIFIC = re.compile(r"(?P<whole>[0-9]+)(?:[.,](?P<fraction>[0-9]+))?[eE](?P<exponent>[+-]?[0-9]+)", re.ASCII)
#: Beyond this the exponent changes nothing a bound would not say: 10⁻³⁰ · 10⁶⁰ still exceeds every bound (2⁷⁶).
_MAX_EXPONENT = 60
#: 1,000 / 1,024T / 1,048,576: a comma before exactly three digits after one to three digits.
_ENGLISH_THOUSANDS = re.compile(r"(?P<groups>[0-9]{1,3}(?:,[0-9]{3})+)(?P<suffix>[A-Za-z]*)", re.ASCII)
_NEGATIVE = re.compile(r"[-−–][0-9]", re.ASCII)
_DOTTED = re.compile(r"[0-9][0-9.]*\.[0-9.]*[A-Za-z]*", re.ASCII)


class NumberError(ValueError):
    """A text is not a positive whole number; ``kind`` and ``ctx`` say why."""

    def __init__(self, kind: ProblemKind, **ctx: object) -> None:
        self.kind = kind
        self.ctx = ctx
        super().__init__(kind.value)

    def for_argument(self, argument: Argument, text: str) -> Problem:
        """This problem, tied to the argument and the text it was meant for."""
        return Problem(self.kind, argument=argument, text=text, ctx=dict(self.ctx))


def parse_whole_number(text: str, suffixes: Mapping[str, int] = COUNT_SUFFIXES, *, unit_required: bool = False) -> int:
    """The positive whole number ``text`` denotes, or ``NumberError``."""
    if len(text) > MAX_NUMBER_TEXT:
        # a long word is no number at all ("vs ääää…"); only a long run of digits has too many of them
        has_digits = any("0" <= c <= "9" for c in text)
        raise NumberError(ProblemKind.TOO_LONG if has_digits else ProblemKind.NOT_A_NUMBER, max_chars=MAX_NUMBER_TEXT)
    if _NEGATIVE.match(text):
        raise NumberError(ProblemKind.NOT_POSITIVE)
    if english := _ENGLISH_THOUSANDS.fullmatch(text):
        groups, suffix = english["groups"], english["suffix"]
        dotted, plain = groups.replace(",", ".") + suffix, groups.replace(",", "") + suffix
        raise NumberError(ProblemKind.THOUSANDS_COMMA, dotted=dotted, plain=plain)
    if scientific := _SCIENTIFIC.fullmatch(text):
        return _whole(_mantissa(scientific["whole"], scientific["fraction"]) * _power(int(scientific["exponent"])))
    match = _NUMBER.fullmatch(text)
    if match is None:
        dotted = _DOTTED.fullmatch(text) is not None
        raise NumberError(ProblemKind.BAD_GROUPING if dotted else ProblemKind.NOT_A_NUMBER)
    value = _mantissa(match["whole"].replace(".", "").replace("_", ""), match["fraction"])
    if unit_required and not match["suffix"]:
        raise NumberError(ProblemKind.MISSING_UNIT, allowed=list(suffixes))
    if match["suffix"]:
        if match["suffix"] not in suffixes:
            raise NumberError(ProblemKind.UNKNOWN_SUFFIX, suffix=match["suffix"], allowed=list(suffixes))
        value *= suffixes[match["suffix"]]
    return _whole(value)


def _mantissa(whole: str, fraction: str | None) -> Fraction:
    """``whole,fraction`` exactly (no float on the way)."""
    value = Fraction(int(whole))
    return value + Fraction(int(fraction), 10 ** len(fraction)) if fraction else value


def _power(exponent: int) -> Fraction:
    """10 to ``exponent``, clamped so that a typed ``1e99999`` costs nothing and still exceeds every bound."""
    return Fraction(10) ** max(-_MAX_EXPONENT, min(_MAX_EXPONENT, exponent))


def _whole(value: Fraction) -> int:
    """``value`` as a positive whole number, or why not."""
    if value.denominator != 1:
        raise NumberError(ProblemKind.NOT_WHOLE)
    if value < 1:
        raise NumberError(ProblemKind.NOT_POSITIVE)
    return int(value)


_DECIMAL = re.compile(r"(?P<int>[0-9]+)?(?:[.,](?P<frac>[0-9]+))?(?:[eE](?P<exp>[-+]?[0-9]{1,3}))?", re.ASCII)


def parse_positive_decimal(text: str, maximum: float) -> float:
    """A positive decimal such as a learning rate: ``3e-4``, ``0,0003``, ``0.0003``."""
    if len(text) > MAX_NUMBER_TEXT:
        raise NumberError(ProblemKind.TOO_LONG, max_chars=MAX_NUMBER_TEXT)
    if _NEGATIVE.match(text):
        raise NumberError(ProblemKind.NOT_POSITIVE)
    match = _DECIMAL.fullmatch(text)
    if match is None or not (match["int"] or match["frac"]):
        raise NumberError(ProblemKind.NOT_A_NUMBER)
    value = float(f"{match['int'] or 0}.{match['frac'] or 0}e{match['exp'] or 0}")
    if value <= 0:
        raise NumberError(ProblemKind.NOT_POSITIVE)
    if value > maximum:
        raise NumberError(ProblemKind.TOO_LARGE, le=maximum)
    return value

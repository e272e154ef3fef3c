"""German number formats (through Babel, loaded where a format needs its locale data) and quoting of user text."""

from __future__ import annotations

import decimal as _decimal
import math
import re
from contextlib import AbstractContextManager
from fractions import Fraction
from functools import lru_cache

LOCALE = "de_DE"
#: From here on a rounded reading ("8,4 Mio.") says more than the digits.
ROUNDED_FROM = 1_000_000
#: User text quoted back in a message is cut to this many characters.
MAX_QUOTE = 40


def number(value: int) -> str:
    """2048 → '2.048': a whole number as Babel's de_DE pattern writes it (groups of three, a dot between them;
    tests/test_properties.py holds the two equal). Without Babel, whose locale data costs a check's start-up ~10 ms
    where every number shown is whole."""
    return f"{value:,}".replace(",", ".")


@lru_cache(maxsize=4096)
def rounded(value: int) -> str | None:
    """8388608 → '8,4 Mio.'; None below a million, where the digits read fine."""
    if value < ROUNDED_FROM:
        return None
    from babel.numbers import format_compact_decimal  # Babel's locale data loads where a reading is shown

    with _precise(value):
        return format_compact_decimal(value, format_type="short", locale=LOCALE, fraction_digits=1)


def _precise(value: int) -> AbstractContextManager[_decimal.Context]:
    """Babel rounds in the current decimal context (28 digits); products of config values can have more."""
    return _decimal.localcontext(prec=max(28, len(str(abs(value))) + 8))


def decimal(value: float, pattern: str = "#,##0.##") -> str:
    """A non-integer in German notation: 2,83; the pattern is Babel's (CLDR) number pattern."""
    from babel.numbers import format_decimal

    return format_decimal(value, format=pattern, locale=LOCALE)


def significant(value: float) -> str:
    """Up to three significant digits, for learning rates: 0,000849; from 1.000 on grouped: 2.670."""
    if abs(value) >= 1000:
        return number(int(float(f"{value:.3g}")))
    from babel.numbers import format_decimal

    return format_decimal(value, format="@##", locale=LOCALE)


def factor(value: float | Fraction) -> str:
    """A scaling factor as arithmetic shows it: whole ones exact (8, 4.096), else three significant digits
    (0,125, 0,354, 2,83), so that ``0,0003 × 0,354 = 0,000106`` adds up as written."""
    if float(value).is_integer():
        return number(int(value))
    return significant(float(value))


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


#: Below this a quantity reads better as a number (42, 4.200) than as a power of ten.
SCIENTIFIC_FROM = 1_000_000


def scientific(value: float, *, fixed: bool = False) -> str:
    """Large quantities as a German power of ten: 8,5 · 10²² (two significant digits); below a million plain: 42.

    ``fixed``: always two significant digits, 1,0 · 10¹⁸ beside 5,8 · 10¹⁰ (a column of computed values)."""
    if 1 <= value < SCIENTIFIC_FROM:
        return decimal(float(f"{value:.2g}"), "#,##0.#")
    exponent = math.floor(math.log10(value))
    mantissa = round(value / 10**exponent, 1)
    if mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{decimal(mantissa, '0.0' if fixed else '0.#')} · 10{str(exponent).translate(_SUPERSCRIPT)}"


def reading(value: float) -> str:
    """A count as people read it: 9,2 Mio. from a million on, else the whole number (118.325)."""
    whole = round(value)
    return rounded(whole) or number(whole)


_DECIMAL_UNITS = (("TB", 1000**4), ("GB", 1000**3), ("MB", 1000**2), ("KB", 1000))
_BINARY_UNITS = (("TiB", 1024**4), ("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024))


def byte_size(value: int) -> str:
    """Bytes in the largest fitting unit; binary (GiB) when the amount is binary, else decimal (GB)."""
    binary = value % 1024 == 0 and value % 1000 != 0
    for unit, size in _BINARY_UNITS if binary else _DECIMAL_UNITS:
        if value >= size:
            return f"{decimal(value / size)}\u00a0{unit}"
    return f"{number(value)}\u00a0B"


def unescape(text: str) -> str:
    """Undo Slack's escaping of the text it sends (``&lt;`` for a typed ``<``)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def quote(text: str, *, keep_end: bool = False) -> str:
    """User text as typed, shortened, in German quotes: „acht“. Each layout escapes it for its medium.

    ``keep_end``: a file name or place keeps its end (``„…/lightning__imagenet.py“``), where it differs.
    """
    typed = unescape(text)
    if len(typed) <= MAX_QUOTE:
        return f"„{typed}“"
    return f"„…{typed[1 - MAX_QUOTE :]}“" if keep_end else f"„{typed[: MAX_QUOTE - 1]}…“"


#: Lone UTF-16 surrogates (``\ud800``): valid in Slack's JSON, no character; nothing can encode them.
_SURROGATES = re.compile("[\ud800-\udfff]")


def readable(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so that it can be checked, quoted and sent."""
    return _SURROGATES.sub("\ufffd", text)


GIB = 1024**3
MIB = 1024**2


_GERMAN_MARKS = str.maketrans(",.", ".,")


def german(value: float, places: int, *, keep_zeros: bool = True) -> str:
    """1234,5 in German notation without Babel (an answer shows some 20 of these; Babel takes ~0,4 ms each):
    ``german(1234.56, 1)`` → 1.234,6; without ``keep_zeros`` 40,0 → 40."""
    shown = f"{value:,.{places}f}".translate(_GERMAN_MARKS)
    if not keep_zeros and places:
        shown = shown.rstrip("0").rstrip(",")
    return shown


def seconds(value: float) -> str:
    """Seconds to three significant digits, as every time in an answer reads: 0,053 s, 13,6 s, 121 s;
    a part never reads as „0 s“ unless it is zero."""
    if value <= 0:
        return "0\u00a0s"
    places = max(0, 2 - math.floor(math.log10(value)))
    return f"{german(value, places)}\u00a0s"


def percent(share: float) -> str:
    """A share of 0–1 as a German percentage with at most one decimal: 0,573 → 57,3 %."""
    return f"{german(share * 100, 1, keep_zeros=False)}\u00a0%"


def launch_shown() -> dict[str, str]:
    """The MoE host time's assumption as an answer says it: kernels a local expert launches, µs a launch."""
    from effbatch.core.memory.moe_step import launch_assumption

    kernels, seconds = launch_assumption()
    return {"kernels": str(kernels), "launch": german(seconds * 1e6, 0)}


def size(value: float) -> str:
    """Bytes as GiB with one decimal (MiB below 1 GiB): 14,9 GiB, 512 MiB."""
    if abs(value) < GIB:
        return f"{german(value / MIB, 0)}\u00a0MiB"
    return f"{german(value / GIB, 1)}\u00a0GiB"

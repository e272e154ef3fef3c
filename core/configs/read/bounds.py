"""The readers' bounds, for text anyone may paste: sizes, digits, nesting, and what a parser still raises.

Every reader is bounded by construction: nesting refused beyond ``MAX_NESTING`` before a parser recurses, no
number beyond ``MAX_DIGITS`` digits in the data, and whatever a parser still raises on hostile input
(RecursionError, MemoryError, OverflowError, ValueError) caught where it arises and turned into a
``CheckError`` with its reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from effbatch.core.configs.base import CheckError, ProblemKind, Source

#: The largest pasted config, in bytes of UTF-8 (a long Megatron script is ~10 KiB; Slack caps a message at 40.000).
MAX_CONFIG_BYTES = 64 * 1024
#: The largest file the CLI reads: OLMo's configs list their data files and reach ~310 KB.
MAX_FILE_BYTES = 1024 * 1024
#: YAML aliases allowed in one document; real configs use a handful.
MAX_ALIASES = 50
#: Values in one YAML document with every alias expanded; 64 KiB of text hold ~30.000 without aliases.
MAX_YAML_VALUES = 100_000
#: Brackets (JSON, TOML, Python, YAML flow) or YAML blocks nested in each other; real configs nest a few deep.
MAX_NESTING = 64

#: Digits in a row no config needs (a batch size has a handful).
MAX_DIGITS = 100
LONG_NUMBER = re.compile(rf"(?<!\d)\d{{{MAX_DIGITS + 1}}}")  # tried only where a run of digits starts: linear


#: Formats whose parsers recurse per bracket (YAML's composer counts its own nesting; shell has its bounds).
BRACKETED = frozenset({"json", "toml", "python"})


def unreadable(source: Source, detail: str, offset: int | None = None) -> CheckError:
    line = source.text.count("\n", 0, offset) + 1 if offset is not None else None
    return CheckError(ProblemKind.UNREADABLE, name=source.name, line=line, detail=detail, **_limit(detail))


def _limit(detail: str) -> dict[str, int]:
    """The limit a reason names (the German text says it)."""
    limits = {"nesting": MAX_NESTING, "long_number": MAX_DIGITS}
    return {"max": limits[detail]} if detail in limits else {}


def too_deep(text: str) -> int | None:
    """The line's offset where brackets first nest deeper than ``MAX_NESTING`` (in strings too: no config nests
    so deep), or None. Parsers recurse per level (json, tomllib, ast, PyYAML's constructor); refused here first.
    """
    if sum(text.count(opening) for opening in "[{(") <= MAX_NESTING:
        return None
    depth = 0
    for match in _BRACKET.finditer(text):
        if match.group() in "[{(":
            depth += 1
            if depth > MAX_NESTING:
                return match.start()
        elif depth:
            depth -= 1
    return None


_BRACKET = re.compile(r"[\[\]{}()]")


@contextmanager
def hostile(source: Source) -> Iterator[None]:
    """What a parser may still raise on hostile input, as the reason it could not be read (never a crash)."""
    try:
        yield
    except RecursionError:
        raise unreadable(source, "nesting") from None
    except MemoryError:
        raise unreadable(source, "memory") from None
    except OverflowError:
        raise unreadable(source, "long_number") from None
    except CheckError:
        raise
    except ValueError as error:  # int() beyond 4.300 digits (hex, underscores), a NUL byte for ast
        raise unreadable(source, "long_number" if "digits" in str(error) else "invalid") from None


#: Numbers spelled so that their digits are not one run (hex, octal, binary, ``1_000``), which ``LONG_NUMBER``
#: cannot see: only then are the values read walked for huge ones.
SPELLED_NUMBER = re.compile(r"\d_\d|0[xXoObB][0-9a-fA-F]")


def huge_value(data: object) -> bool:
    """Whether a number in ``data`` has more than ``MAX_DIGITS`` digits; every value once, iteratively."""
    limit = 10**MAX_DIGITS
    pending: list[object] = [data]
    seen: set[int] = set()
    while pending:
        value = pending.pop()
        if isinstance(value, int) and abs(value) >= limit:
            return True
        if isinstance(value, dict | list) and id(value) not in seen:  # YAML aliases share one object
            seen.add(id(value))
            pending.extend(value.values() if isinstance(value, dict) else value)
    return False

"""German agreement, applied once to a whole document before any layout: „1 Sequenz“, never „1 Sequenzen“.

Templates take numbers already formatted, so a template cannot know whether it says one thing or many; the
plural is right for every number but 1. Here every text of a document is read once more and a lone 1 (not
the end of 2.001 or 0,1) before a counted noun of ``bot.texts.glossary.SINGULARS`` takes its singular.
"""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar

from bot.texts.glossary import SINGULARS

_ONE = re.compile(
    r"(?<![\d.,])(1)(\u00a0| )(" + "|".join(re.escape(n) for n in sorted(SINGULARS, key=len, reverse=True)) + r")\b"
)
_T = TypeVar("_T")


def singular_after_one(text: str) -> str:
    """„1 Sequenzen“ → „1 Sequenz“, „× 1 Antworten“ → „× 1 Antwort“; every other number keeps its plural."""
    return _ONE.sub(lambda match: f"{match[1]}{match[2]}{SINGULARS[match[3]]}", text)


def agreed(value: _T) -> _T:
    """``value`` (a document, or any of its parts) with every text in it agreeing in number."""
    if isinstance(value, str):
        return singular_after_one(value)  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(agreed(item) for item in value)  # type: ignore[return-value]
    if is_dataclass(value) and not isinstance(value, type):
        changes: dict[str, Any] = {f.name: agreed(getattr(value, f.name)) for f in fields(value)}
        return replace(value, **changes)
    return value

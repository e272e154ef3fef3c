"""German agreement, applied by each layout to every text it lays out: „1 Sequenz“, never „1 Sequenzen“.

Templates take numbers already formatted, so a template cannot know whether it says one thing or many; the
plural is right for every number but 1. Each layout (Block Kit, plain text) reads every text once more, where
it escapes or prints it, and a lone 1 (not the end of 2.001 or 0,1) before a counted noun of
``bot.texts.glossary.SINGULARS`` takes its singular.
"""

from __future__ import annotations

import re

from effbatch.bot.texts.glossary import SINGULARS

_ONE = re.compile(
    r"(?<![\d.,])(1)(\u00a0| )(" + "|".join(re.escape(n) for n in sorted(SINGULARS, key=len, reverse=True)) + r")\b"
)


def singular_after_one(text: str) -> str:
    """„1 Sequenzen“ → „1 Sequenz“, „× 1 Antworten“ → „× 1 Antwort“; every other number keeps its plural."""
    if "1 " not in text and "1\u00a0" not in text:  # most texts: nothing to look at
        return text
    return _ONE.sub(lambda match: f"{match[1]}{match[2]}{SINGULARS[match[3]]}", text)

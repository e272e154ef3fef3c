"""Pasted text as it was typed: Slack's escapes undone, code fences and link brackets dropped."""

from __future__ import annotations

import re
from html import unescape

# [ \t], not \s: with re.MULTILINE, ^\s* at every line start would run over all following blank lines (quadratic)
_FENCE = re.compile(r"^[ \t]*```[\w+-]*[ \t\r]*$", re.MULTILINE)
# no < inside: each attempt stops at the next link's start, so many unclosed links stay linear
_SLACK_LINK = re.compile(r"<((?:https?|mailto):[^|<>\s]+)(?:\|[^<>]*)?>")


def clean(text: str) -> str:
    """Pasted text as it was typed: Slack's escapes undone, code fences and link brackets dropped."""
    text = unescape(text)  # Slack sends &amp; &lt; &gt;
    text = _SLACK_LINK.sub(lambda m: m.group(1), text)
    text = _FENCE.sub("", text)
    text = text.replace("```", "\n")  # inline fences: ```{"a": 1}```
    return text.strip("\n")

"""A Slack message payload rendered as terminal text, for the console and the CLI."""

from __future__ import annotations

import re
from typing import Any

from bot.formatting import unescape

_EMOJI = re.compile(r":[a-z0-9_+-]+: ?")
_BOLD = re.compile(r"(?<!\w)\*(\S[^*\n]*?)\*(?!\w)")
_ITALIC = re.compile(r"(?<!\w)_(\S[^_\n]*?)_(?!\w)")


def mrkdwn_to_text(mrkdwn: str) -> str:
    """Drop mrkdwn markup and undo Slack's escaping: what a reader should see."""
    text = _ITALIC.sub(r"\1", _BOLD.sub(r"\1", _EMOJI.sub("", mrkdwn))).replace("`", "")
    return unescape(text)


def render_text(payload: dict[str, Any]) -> str:
    """Header underlined, sections as paragraphs, fields as 'Name: Wert', context indented."""
    blocks = payload.get("blocks") or []
    if not blocks:
        return mrkdwn_to_text(payload.get("text", ""))
    parts = [_render_block(block) for block in blocks]
    return "\n\n".join(part for part in parts if part)


def _render_block(block: dict[str, Any]) -> str:
    match block.get("type"):
        case "header":
            title = block["text"]["text"]
            return f"{title}\n{'=' * len(title)}"
        case "section":
            lines = [mrkdwn_to_text(block["text"]["text"])] if "text" in block else []
            lines += [mrkdwn_to_text(field["text"]).replace("\n", ": ", 1) for field in block.get("fields", [])]
            return "\n".join(lines)
        case "context":
            return "\n".join("  " + mrkdwn_to_text(element.get("text", "")) for element in block["elements"])
        case "divider":
            return "-" * 40
        case _:
            return ""

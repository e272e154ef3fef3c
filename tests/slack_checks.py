"""What Slack would refuse, checked the way Slack documents it.

Limits from https://api.slack.com/reference/block-kit/blocks: at most 50 blocks
per message, section text ≤ 3.000 characters, a section field ≤ 2.000 and at most
10 fields, header text ≤ 150, context at most 10 elements.
"""

from __future__ import annotations

from typing import Any

from slack_sdk.models.blocks import Block

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_FIELD_TEXT = 2000
MAX_FIELDS = 10
MAX_HEADER_TEXT = 150
MAX_CONTEXT_ELEMENTS = 10


def assert_valid_message(payload: dict[str, Any], posted: bool = False) -> None:
    """Fail if slack_sdk's own validation or Slack's documented limits reject ``payload``.

    ``posted``: sent with chat.postMessage, which has no ``response_type``.
    """
    if not posted:
        assert payload["response_type"] in ("in_channel", "ephemeral")
    assert isinstance(payload["text"], str)
    assert payload["text"].strip(), "a message needs a fallback text"
    blocks = payload.get("blocks", [])
    assert len(blocks) <= MAX_BLOCKS
    for raw in blocks:
        block = Block.parse(raw)
        assert block is not None, f"unknown block {raw}"
        block.validate_json()
        assert block.to_dict() == raw, "a block must round-trip through slack_sdk unchanged"
        match raw["type"]:
            case "header":
                assert len(raw["text"]["text"]) <= MAX_HEADER_TEXT
            case "section":
                assert len(raw.get("text", {}).get("text", "")) <= MAX_SECTION_TEXT
                assert len(raw.get("fields", [])) <= MAX_FIELDS
                assert all(len(field["text"]) <= MAX_FIELD_TEXT for field in raw.get("fields", []))
            case "context":
                assert len(raw["elements"]) <= MAX_CONTEXT_ELEMENTS


def all_text(payload: dict[str, Any]) -> str:
    """Every text a person could read in ``payload``, joined."""
    parts = [payload.get("text", "")]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "text" and isinstance(value, str):
                    parts.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(payload.get("blocks", []))
    return "\n".join(parts)

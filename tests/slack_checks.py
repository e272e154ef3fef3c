"""What Slack would refuse, checked the way Slack documents it.

Limits from https://api.slack.com/reference/block-kit/blocks: at most 50 blocks
per message, section text ≤ 3.000 characters, a section field ≤ 2.000 and at most
10 fields, header text ≤ 150, context at most 10 elements (each text ≤ 3.000);
https://api.slack.com/reference/block-kit/block-elements#button: a button's text ≤ 75, its value
≤ 2.000, an actions block at most 25 elements; https://api.slack.com/reference/surfaces/views: a
modal or the App Home at most 100 blocks, a modal's title, submit and close ≤ 24 characters, its
private_metadata ≤ 3.000. slack_sdk's classes check most of these (``validate_json``); the rest are
checked here by hand. effbatch's own bound: the notification text (``text``) ≤ 3.000 characters.
"""

from __future__ import annotations

from typing import Any

from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_FIELD_TEXT = 2000
MAX_FIELDS = 10
MAX_HEADER_TEXT = 150
MAX_CONTEXT_ELEMENTS = 10
MAX_CONTEXT_TEXT = 3000
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_ACTIONS = 25
MAX_VIEW_BLOCKS = 100
MAX_VIEW_TITLE = 24
MAX_METADATA = 3000
#: effbatch's own bound for the notification text beside the blocks (Slack cuts at 40.000).
MAX_FALLBACK_TEXT = 3000


def assert_valid_message(payload: dict[str, Any], posted: bool = False) -> None:
    """Fail if slack_sdk's own validation or Slack's documented limits reject ``payload``.

    ``posted``: sent with chat.postMessage, which has no ``response_type``.
    """
    if not posted:
        assert payload["response_type"] in ("in_channel", "ephemeral")
    assert isinstance(payload["text"], str)
    assert payload["text"].strip(), "a message needs a fallback text"
    assert len(payload["text"]) <= MAX_FALLBACK_TEXT
    blocks = payload.get("blocks", [])
    assert len(blocks) <= MAX_BLOCKS
    assert_valid_blocks(blocks)


def assert_valid_blocks(blocks: list[dict[str, Any]]) -> None:
    """Each block as slack_sdk validates it, and within the limits it does not check."""
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
                assert all(len(element.get("text", "")) <= MAX_CONTEXT_TEXT for element in raw["elements"])
            case "actions":
                assert len(raw["elements"]) <= MAX_ACTIONS
                for element in raw["elements"]:
                    assert len(element["text"]["text"]) <= MAX_BUTTON_TEXT
                    assert len(element.get("value", "")) <= MAX_BUTTON_VALUE


def assert_valid_view(view: dict[str, Any]) -> None:
    """A modal or the App Home as slack_sdk validates it, its blocks as in a message, within 100 blocks."""
    parsed = View(**view)
    parsed.validate_json()
    assert 0 < len(view["blocks"]) <= MAX_VIEW_BLOCKS
    for key in ("title", "submit", "close"):
        if key in view:
            assert 0 < len(view[key]["text"]) <= MAX_VIEW_TITLE, key
    assert len(view.get("private_metadata", "")) <= MAX_METADATA
    assert_valid_blocks([b for b in view["blocks"] if b["type"] != "input"])


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

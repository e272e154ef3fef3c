"""Request payloads as Slack sends them, for the stand-ins and the end-to-end tests.

Shapes from https://api.slack.com/interactivity/slash-commands,
https://api.slack.com/reference/interaction-payloads/block-actions,
https://api.slack.com/reference/interaction-payloads/views,
https://api.slack.com/reference/interaction-payloads/shortcuts and
https://api.slack.com/events/app_home_opened.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

TEAM_ID = "T0TEST"
CHANNEL_ID = "C0TEST"
USER_ID = "U0USER"
APP_ID = "A0TEST"


def command(text: str, response_url: str) -> dict[str, str]:
    """The fields of a slash command."""
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM_ID,
        "team_domain": "test",
        "channel_id": CHANNEL_ID,
        "channel_name": "planung",
        "user_id": USER_ID,
        "user_name": "ada",
        "command": "/effbatch",
        "text": text,
        "api_app_id": APP_ID,
        "response_url": response_url,
        "trigger_id": "1337.42.abc",
    }


def block_actions(button: dict[str, Any], response_url: str, block_id: str = "whatif") -> dict[str, Any]:
    """A click on ``button`` (a button element as the bot sent it) in a channel message."""
    return {
        "type": "block_actions",
        "user": {"id": USER_ID, "username": "ada", "team_id": TEAM_ID},
        "api_app_id": APP_ID,
        "token": "legacy-verification-token",
        "container": {"type": "message", "message_ts": "1700000000.000100", "channel_id": CHANNEL_ID},
        "trigger_id": "1337.43.def",
        "team": {"id": TEAM_ID, "domain": "test"},
        "channel": {"id": CHANNEL_ID, "name": "planung"},
        "response_url": response_url,
        "actions": [
            {
                "action_id": button["action_id"],
                "block_id": block_id,
                "text": button["text"],
                "value": button.get("value", ""),
                "type": "button",
                "action_ts": "1700000001.000200",
            }
        ],
    }


def message_shortcut(text: str, response_url: str, thread_ts: str | None = None) -> dict[str, Any]:
    """The message shortcut "Batch-Konfiguration prüfen" clicked on a message holding ``text``."""
    message = {"type": "message", "user": "U0AUTHOR", "ts": "1700000005.000500", "text": text}
    if thread_ts:
        message["thread_ts"] = thread_ts
    return {
        "type": "message_action",
        "callback_id": "effbatch_check",
        "trigger_id": "1337.46.mno",
        "action_ts": "1700000006.000600",
        "message_ts": message["ts"],
        "team": {"id": TEAM_ID, "domain": "test"},
        "user": {"id": USER_ID, "username": "ada", "team_id": TEAM_ID, "name": "ada"},
        "channel": {"id": CHANNEL_ID, "name": "planung"},
        "message": message,
        "response_url": response_url,
        "token": "legacy-verification-token",
        "api_app_id": APP_ID,
    }


def home_button(button: dict[str, Any]) -> dict[str, Any]:
    """A click on a button in the App Home: no channel, no response_url."""
    return {
        "type": "block_actions",
        "user": {"id": USER_ID, "username": "ada", "team_id": TEAM_ID},
        "api_app_id": APP_ID,
        "token": "legacy-verification-token",
        "container": {"type": "view", "view_id": "V0HOME"},
        "trigger_id": "1337.44.ghi",
        "team": {"id": TEAM_ID, "domain": "test"},
        "view": {"id": "V0HOME", "type": "home"},
        "actions": [{"action_id": button["action_id"], "block_id": "home", "text": button["text"], "type": "button"}],
    }


def form_state(view: dict[str, Any], overrides: dict[str, str | None] | None = None) -> dict[str, Any]:
    """The state Slack reports for ``view`` as opened: each input at its initial value, then ``overrides``."""
    overrides = overrides or {}
    values: dict[str, Any] = {}
    for block in view["blocks"]:
        if block["type"] != "input":
            continue
        element = block["element"]
        if element["type"] == "number_input":
            value = overrides.get(block["block_id"], element.get("initial_value"))
            values[block["block_id"]] = {element["action_id"]: {"type": "number_input", "value": value}}
        elif element["type"] == "static_select":
            chosen = overrides.get(block["block_id"])
            selected = {"value": chosen} if chosen else element.get("initial_option")
            values[block["block_id"]] = {element["action_id"]: {"type": "static_select", "selected_option": selected}}
        elif element["type"] == "radio_buttons":
            values[block["block_id"]] = {
                element["action_id"]: {"type": "radio_buttons", "selected_option": element.get("initial_option")}
            }
    return values


def view_submission(view: dict[str, Any], overrides: dict[str, str | None] | None = None) -> dict[str, Any]:
    """Submitting ``view`` (as sent to views.open) with its initial values, changed by ``overrides``."""
    submitted = {**view, "id": "V0FORM", "state": {"values": form_state(view, overrides)}}
    return {
        "type": "view_submission",
        "team": {"id": TEAM_ID, "domain": "test"},
        "user": {"id": USER_ID, "username": "ada", "team_id": TEAM_ID},
        "api_app_id": APP_ID,
        "token": "legacy-verification-token",
        "trigger_id": "1337.45.jkl",
        "view": submitted,
    }


def app_home_opened(tab: str = "home") -> dict[str, Any]:
    """The Events API envelope of an app_home_opened event."""
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM_ID,
        "api_app_id": APP_ID,
        "event": {"type": "app_home_opened", "user": USER_ID, "channel": "D0HOME", "tab": tab, "event_ts": "1.2"},
        "type": "event_callback",
        "event_id": "Ev0TEST",
        "event_time": 1700000000,
        "authorizations": [{"team_id": TEAM_ID, "user_id": "U0BOT", "is_bot": True}],
    }


def form_body(payload: dict[str, Any]) -> str:
    """Interactivity requests arrive form-encoded with the JSON in ``payload``."""
    return urlencode({"payload": json.dumps(payload)})

"""Signed requests to an HTTP bot, as Slack sends them, and what the Web API stand-in was asked to open."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any
from urllib.parse import urlencode

import slack_payloads
from bot_process import BotProcess
from fake_slack import FakeWebAPI
from slack_signing import SIGNING_SECRET, signed_headers


def post(bot: BotProcess, body: str, content_type: str = "application/x-www-form-urlencoded") -> tuple[int, Any]:
    headers = {**signed_headers(SIGNING_SECRET, body), "Content-Type": content_type}
    request = urllib.request.Request(bot.base + "/slack/events", data=body.encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        raw = response.read()
        return response.status, json.loads(raw) if raw else None


def command(bot: BotProcess, api: FakeWebAPI, text: str) -> tuple[int, Any]:
    return post(bot, urlencode(slack_payloads.command(text, api.response_url("cmd"))))


def interaction(bot: BotProcess, payload: dict[str, Any]) -> tuple[int, Any]:
    return post(bot, slack_payloads.form_body(payload))


def opened_view(api: FakeWebAPI) -> dict[str, Any]:
    """The form last opened; waits a moment for it (a shortcut is acknowledged first, and opens it after)."""
    deadline = time.monotonic() + 10  # a hang guard
    while not (calls := api.method_calls("views.open")) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert calls, "views.open was not called"
    view = calls[-1]["view"]
    return json.loads(view) if isinstance(view, str) else view

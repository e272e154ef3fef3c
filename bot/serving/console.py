"""A local console: type ``/effbatch 8 64 4 4096``, read the answer, no Slack workspace needed.

Each line goes through the same Bolt app and listener as in Slack: the console
builds a slash-command request, signs it as Slack would with a local secret,
dispatches it and renders the acknowledgement as text.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable
from typing import TextIO
from urllib.parse import urlencode

from pydantic import SecretStr
from slack_bolt import App, BoltRequest
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient

from bot import texts
from bot.app import create_app
from bot.plaintext import render_text
from bot.settings import Settings

_SECRET = "effbatch-console"
_TEAM, _CHANNEL, _USER = "T0CONSOLE", "C0CONSOLE", "U0CONSOLE"
EXIT_WORDS = frozenset({"exit", "quit", "ende", "q"})


def _offline_authorize(**_: object) -> AuthorizeResult:
    """The console's stand-in for ``auth.test``: a fixed bot identity, no network."""
    return AuthorizeResult(enterprise_id=None, team_id=_TEAM, bot_token="xoxb-console", bot_user_id="U0BOT")


def create_console_app(settings: Settings) -> App:
    """The bot's app, authorized offline and verifying the console's own signatures."""
    offline = settings.model_copy(update={"slack_signing_secret": SecretStr(_SECRET)})
    # No token and an unroutable base URL: nothing here may reach the network.
    client = WebClient(token=None, base_url="http://127.0.0.1:9/api/")
    return create_app(offline, client=client, authorize=_offline_authorize)


def dispatch_line(app: App, line: str) -> str:
    """One typed line through the app, the answer as text."""
    text = line.strip().removeprefix(texts.COMMAND).strip()
    body = urlencode(
        {
            "command": texts.COMMAND,
            "text": text,
            "team_id": _TEAM,
            "channel_id": _CHANNEL,
            "user_id": _USER,
            "user_name": "console",
        }
    )
    timestamp = str(int(time.time()))
    digest = hmac.new(_SECRET.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256).hexdigest()
    headers = {
        "content-type": "application/x-www-form-urlencoded",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": f"v0={digest}",
    }
    response = app.dispatch(BoltRequest(body=body, headers=headers))
    payload = json.loads(response.body) if response.body else {}
    visibility = texts.CONSOLE_EPHEMERAL if payload.get("response_type") == "ephemeral" else ""
    return visibility + render_text(payload)


def run_console(settings: Settings, read_line: Callable[[], str | None], out: TextIO) -> int:
    """Answer each line from ``read_line`` on ``out`` until it returns None or an exit word."""
    app = create_console_app(settings)
    out.write(texts.CONSOLE_INTRO + "\n")
    while (line := read_line()) is not None and line.strip().casefold() not in EXIT_WORDS:
        if line.strip():
            out.write(dispatch_line(app, line) + "\n\n")
            out.flush()
    return 0


def terminal_reader() -> str | None:
    """A line typed at the prompt, with line editing; None at Ctrl+D or Ctrl+C."""
    import readline  # noqa: F401 - importing it gives input() history and cursor keys

    try:
        return input(texts.CONSOLE_PROMPT)
    except (EOFError, KeyboardInterrupt):
        return None


def stream_reader(stream: TextIO) -> Callable[[], str | None]:
    """Lines from a pipe or file; None at its end."""
    return lambda: stream.readline() or None

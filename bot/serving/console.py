"""A local console: type ``/effbatch 8 64 4 4096``, read the answer, no Slack workspace needed.

Each line goes through the same Bolt app and listener as in Slack: the console builds
a slash-command request, signs it as Slack would with a local secret, dispatches it
and prints the acknowledgement, which the console's layout made terminal text.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO
from urllib.parse import urlencode

from pydantic import SecretStr
from slack_bolt import App, BoltRequest
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient
from slack_sdk.signature import SignatureVerifier

from bot.document import Document, Visibility
from bot.operations.settings import Settings
from bot.rendering.plain_text import plain_text
from bot.slack.app import create_app
from bot.texts import answers as texts
from bot.texts.glossary import COMMAND

_SIGNER = SignatureVerifier("effbatch-console")
_TEAM, _CHANNEL, _USER = "T0CONSOLE", "C0CONSOLE", "U0CONSOLE"
EXIT_WORDS = frozenset({"exit", "quit", "ende", "q"})


def _offline_authorize(**_: object) -> AuthorizeResult:
    """The console's stand-in for ``auth.test``: a fixed bot identity, no network."""
    return AuthorizeResult(enterprise_id=None, team_id=_TEAM, bot_token="xoxb-console", bot_user_id="U0BOT")


def console_message(document: Document) -> dict[str, Any]:
    """The console's layout: the document as terminal text, with its visibility."""
    return {"response_type": document.visibility.value, "text": plain_text(document)}


def create_console_app(settings: Settings) -> App:
    """The bot's app, authorized offline, verifying the console's own signatures, answering as text."""
    offline = settings.model_copy(update={"slack_signing_secret": SecretStr(_SIGNER.signing_secret)})
    # No token and an unroutable base URL: nothing here may reach the network.
    client = WebClient(token=None, base_url="http://127.0.0.1:9/api/")
    return create_app(offline, client=client, authorize=_offline_authorize, layout=console_message)


def dispatch_line(app: App, line: str) -> str:
    """One typed line through the app, the answer as text."""
    text = line.strip().removeprefix(COMMAND).strip()
    fields = {"command": COMMAND, "text": text, "team_id": _TEAM, "channel_id": _CHANNEL, "user_id": _USER}
    body = urlencode(fields | {"user_name": "console"})
    timestamp = str(int(time.time()))
    headers: dict[str, str | Sequence[str]] = {
        "content-type": "application/x-www-form-urlencoded",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": _SIGNER.generate_signature(timestamp=timestamp, body=body) or "",
    }
    response = app.dispatch(BoltRequest(body=body, headers=headers))
    payload = json.loads(response.body) if response.body else {}
    private = payload.get("response_type") == Visibility.EPHEMERAL
    return (texts.CONSOLE_EPHEMERAL + "\n" if private else "") + str(payload.get("text", ""))


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

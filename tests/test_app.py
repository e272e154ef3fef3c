"""The Bolt app in-process, as Bolt's own scenario tests do it: a fresh app, signed requests, dispatch."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from urllib.parse import urlencode

import pytest
from pydantic import SecretStr
from slack_bolt import App, BoltRequest
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient

from effbatch.bot.document import Answer, Visibility
from effbatch.bot.operations.settings import Settings
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.slack.app import BotParts, create_app
from effbatch.bot.slack.listeners import AnswerFunction

from slack_checks import all_text, assert_valid_message
from slack_signing import signed_headers

SECRET = "in-process-secret"


def offline_authorize(**_: object) -> AuthorizeResult:
    return AuthorizeResult(enterprise_id=None, team_id="T0TEST", bot_token="xoxb-test", bot_user_id="U0BOT")


def make_app(answer: AnswerFunction = answer_command) -> App:
    settings = Settings(slack_signing_secret=SecretStr(SECRET))
    client = WebClient(base_url="http://127.0.0.1:9/api/")  # unroutable: the test fails if anything calls out
    return create_app(settings, BotParts(client=client, authorize=offline_authorize, answer=answer))


def dispatch(app: App, text: str, command: str = "/effbatch") -> tuple[int, dict]:
    body = urlencode({"command": command, "text": text, "team_id": "T0TEST", "channel_id": "C0TEST", "user_id": "U1"})
    headers: dict[str, str | Sequence[str]] = {**signed_headers(SECRET, body)}
    response = app.dispatch(BoltRequest(body=body, headers=headers))
    return response.status, json.loads(response.body) if response.body else {}


def test_command_is_answered_in_the_ack() -> None:
    """The answer is the acknowledgement's body itself: no Web API call, no response_url."""
    status, payload = dispatch(make_app(), "8 64 4 4096")
    assert status == 200
    assert_valid_message(payload)
    assert "8.388.608" in all_text(payload)


def test_other_commands_are_not_handled() -> None:
    """Only /effbatch has a listener; Bolt answers anything else with 404."""
    status, _ = dispatch(make_app(), "8 64 4", command="/other")
    assert status == 404


def test_unexpected_error_is_logged_and_the_user_told(caplog: pytest.LogCaptureFixture) -> None:
    """A bug in the answer path reaches the one error handler: logged with traceback, user told in German."""

    def broken(text: str, visibility: Visibility, /) -> Answer:
        msg = "simulated bug"
        raise RuntimeError(msg)

    with caplog.at_level(logging.ERROR):
        status, payload = dispatch(make_app(answer=broken), "8 64 4")
    assert status == 200
    assert payload["response_type"] == "ephemeral"
    assert "Da ist bei mir etwas schiefgegangen – es lag nicht an deiner Eingabe." in payload["text"]
    record = next(r for r in caplog.records if r.getMessage() == "unhandled error in listener")
    assert record.exc_info is not None
    assert "simulated bug" in str(record.exc_info[1])


def test_log_line_names_kind_team_channel_but_not_the_text(caplog: pytest.LogCaptureFixture) -> None:
    """Logs say what kind of answer went where, never what was typed."""
    with caplog.at_level(logging.INFO, logger="effbatch"):
        dispatch(make_app(), "8 64 4 987654")
    records = [r for r in caplog.records if r.name == "effbatch"]
    assert [(r.getMessage(), r.kind, r.team, r.channel) for r in records] == [  # type: ignore[attr-defined]
        ("answered", "calculation", "T0TEST", "C0TEST")
    ]
    assert not hasattr(records[0], "text")
    assert "987654" not in caplog.text


def test_command_text_is_logged_only_when_configured(caplog: pytest.LogCaptureFixture) -> None:
    """EFFBATCH_LOG_COMMAND_TEXT=true adds the typed text to the log record."""
    settings = Settings(slack_signing_secret=SecretStr(SECRET), effbatch_log_command_text=True)
    app = create_app(
        settings, BotParts(client=WebClient(base_url="http://127.0.0.1:9/api/"), authorize=offline_authorize)
    )
    with caplog.at_level(logging.INFO, logger="effbatch"):
        dispatch(app, "8 64 4 987654")
    assert [r.text for r in caplog.records if r.name == "effbatch"] == ["8 64 4 987654"]  # type: ignore[attr-defined]

"""HTTP mode end to end: ``effbatch-bot --mode http`` under uvicorn, signed requests as Slack sends them."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import pytest

import slack_payloads
from bot_process import BotProcess, get, start_http_bot
from fake_slack import BOT_TOKEN, FakeWebAPI
from slack_checks import all_text, assert_valid_message
from slack_signing import SIGNING_SECRET, signed_headers


def command_body(text: str) -> str:
    """A slash-command body with the fields Slack sends."""
    return urlencode(slack_payloads.command(text, "https://hooks.slack.com/commands/1"))


def post(bot: BotProcess, body: str, headers: dict[str, str]) -> tuple[int, bytes]:
    request = urllib.request.Request(bot.base + "/slack/events", data=body.encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def send_command(bot: BotProcess, text: str) -> dict:
    body = command_body(text)
    status, raw = post(bot, body, signed_headers(SIGNING_SECRET, body))
    assert status == 200
    payload = json.loads(raw)
    assert_valid_message(payload)
    return payload


def test_worked_example_in_channel(bot: BotProcess, slack_api: FakeWebAPI) -> None:
    """A signed /effbatch 8 64 4 4096 is answered in the channel with B, T and the breakdown."""
    assert slack_api.method_calls("auth.test"), "the app checks its token at start-up"
    payload = send_command(bot, "8 64 4 4096")
    assert payload["response_type"] == "in_channel"
    text = all_text(payload)
    for fragment in ("2.048", "8.388.608", "8 × 64 × 4", "≈ 8,4\u00a0Mio. Tokens"):
        assert fragment in text


def test_help_is_ephemeral(bot: BotProcess) -> None:
    """`hilfe` returns the help only to the caller."""
    payload = send_command(bot, "hilfe")
    assert payload["response_type"] == "ephemeral"
    assert "effbatch – Hilfe" in all_text(payload)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8 64", "Es fehlt noch a (Akkumulationsschritte)"),
        ("8,5 64 4", "„8,5“ ist keine ganze Zahl"),
        ("-8 64 4", "„-8“ ist nicht positiv"),
        ("0 64 4", "„0“ ist nicht positiv"),
        ("8 64 4 1e-3", "„1e-3“ ist keine ganze Zahl"),
        ("8 2,000 4", "„2,000“ lese ich nicht eindeutig"),
        ("acht 64 4", "„acht“ ist keine Zahl"),
        ("8 64 4 " + "1" * 1900, "hat zu viele Stellen"),
        ("8 64 4 b=2", "Doppelt angegeben"),
        ("&lt;!channel&gt; 64 4", "„&lt;!channel&gt;“ ist keine Zahl"),
    ],
)
def test_bad_input_is_answered_ephemerally(bot: BotProcess, text: str, expected: str) -> None:
    """Each bad input from the issue gets its specific German message, only to the caller."""
    payload = send_command(bot, text)
    assert payload["response_type"] == "ephemeral"
    assert expected in all_text(payload)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gpus=384 tp=4 pp=12 b=2 B=2048 L=2048", "`a = B / (b · d) = 2.048 / (2 · 8) = 128`"),
        ("b=3 d=8 B=2000", "• `a = 84` → B = 2.016"),
        ("8 64 4 4096 budget=2T", "= 238.419`"),
        ("8 64 4 act=1,5GiB", "= 12\u00a0GiB`"),
        ("8 64 4 4096 vs d=512 lr=3e-4", "`0,0003 × 8 = 0,0024`"),
    ],
)
def test_planning_answers_in_channel(bot: BotProcess, text: str, expected: str) -> None:
    """Planning questions are answered over HTTP in the channel, with their breakdown."""
    payload = send_command(bot, text)
    assert payload["response_type"] == "in_channel"
    assert expected in all_text(payload)


@pytest.mark.parametrize(
    ("case", "headers"),
    [
        ("unsigned", {"Content-Type": "application/x-www-form-urlencoded"}),
        ("forged", {**signed_headers("wrong-secret", command_body("8 64 4 4096"))}),
        ("stale", signed_headers(SIGNING_SECRET, command_body("8 64 4 4096"), timestamp=int(time.time()) - 6 * 60)),
        ("signature of another body", signed_headers(SIGNING_SECRET, command_body("1 1 1"))),
    ],
)
def test_bad_signatures_get_401(bot: BotProcess, case: str, headers: dict[str, str]) -> None:
    """Missing, forged, stale (> 5 min) or mismatched signatures are refused with 401 and no answer."""
    status, raw = post(bot, command_body("8 64 4 4096"), headers)
    assert status == 401, case
    assert b"2.048" not in raw


def test_health_endpoint(bot: BotProcess) -> None:
    """GET /healthz answers 200 for liveness probes; unknown paths 404."""
    assert get(bot.base + "/healthz") == (200, "ok\n")
    assert get(bot.base + "/nothing")[0] == 404


def test_sigterm_exits_cleanly(tmp_path: Path) -> None:
    """SIGTERM stops the server with exit code 0 after a request was answered."""
    with FakeWebAPI() as api:
        process = start_http_bot(api.url, tmp_path)
        assert send_command(process, "8 64 4")["response_type"] == "in_channel"
        output = process.stop()
    assert process.returncode == 0, output
    assert SIGNING_SECRET not in output
    assert BOT_TOKEN not in output

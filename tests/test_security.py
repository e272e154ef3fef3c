"""Forged, stale, replayed, oversized and malformed requests against HTTP mode: 4xx, nothing executed, still serving."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import re
import time
from urllib.parse import urlencode

import pytest
from slack_sdk.signature import SignatureVerifier

import slack_payloads
from bot_process import BotProcess, get
from slack_signing import SIGNING_SECRET, signed_headers

SIGNING_SECRET = SIGNING_SECRET
FORM = "application/x-www-form-urlencoded"


def post(bot: BotProcess, body: bytes, headers: dict[str, str], chunked: bool = False) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", bot.port, timeout=10)
    try:
        if chunked:
            connection.request("POST", "/slack/events", body=iter([body]), headers=headers, encode_chunked=True)
        else:
            connection.request("POST", "/slack/events", body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def answers_so_far(bot: BotProcess) -> float:
    """All answers counted at /metrics: a refused request must not add one."""
    text = get(bot.base + "/metrics")[1]
    return sum(float(v) for v in re.findall(r"^effbatch_answers_total\{[^}]*\} ([0-9.e+]+)$", text, re.MULTILINE))


COMMAND = urlencode(slack_payloads.command("8 64 4 4096", "https://hooks.slack.com/commands/1"))


def unsigned() -> dict[str, str]:
    return {"Content-Type": FORM}


def signed_at(offset: int, secret: str = SIGNING_SECRET, body: str = COMMAND) -> dict[str, str]:
    """Headers signed now + ``offset`` seconds (computed when the test runs, not when it is collected)."""
    return signed_headers(secret, body, timestamp=int(time.time()) + offset)


BAD_REQUESTS = {
    "no signature headers": lambda: (COMMAND, unsigned()),
    "timestamp without signature": lambda: (
        COMMAND,
        {**unsigned(), "X-Slack-Request-Timestamp": str(int(time.time()))},
    ),
    "forged signature": lambda: (COMMAND, {**signed_at(0), "X-Slack-Signature": "v0=" + "0" * 64}),
    "wrong secret": lambda: (COMMAND, signed_at(0, secret="another-apps-secret")),
    "older than 5 minutes": lambda: (COMMAND, signed_at(-5 * 60 - 30)),
    "from the future": lambda: (COMMAND, signed_at(5 * 60 + 30)),
    "replayed with another timestamp": lambda: (
        COMMAND,
        {**signed_at(-60), "X-Slack-Request-Timestamp": str(int(time.time()))},
    ),
    "ssl_check beside a command, unsigned": lambda: ("ssl_check=1&" + COMMAND, unsigned()),
    "non-numeric timestamp": lambda: (COMMAND, {**signed_at(0), "X-Slack-Request-Timestamp": "now"}),
    "signature of a different body": lambda: (COMMAND, signed_at(0, body=COMMAND.replace("4096", "8192"))),
}


@pytest.mark.parametrize("case", BAD_REQUESTS)
def test_bad_signatures_are_refused(bot: BotProcess, case: str) -> None:
    """Every request without a valid, fresh signature over exactly its body gets 401 and runs nothing."""
    body, headers = BAD_REQUESTS[case]()
    before = answers_so_far(bot)
    status, raw = post(bot, body.encode(), headers)
    assert status == 401, case
    assert json.loads(raw) == {"error": "invalid_signature"}
    assert answers_so_far(bot) == before


def test_signed_ssl_check_is_acknowledged_without_running_anything(bot: BotProcess) -> None:
    """Slack's own (signed) ssl_check gets 200 with an empty body and no answer."""
    body = "ssl_check=1&token=legacy-verification-token"
    before = answers_so_far(bot)
    assert post(bot, body.encode(), signed_headers(SIGNING_SECRET, body)) == (200, b"")
    assert answers_so_far(bot) == before


def test_url_verification_gets_its_challenge_back_only_when_signed(bot: BotProcess) -> None:
    """Slack's Events API handshake: answered by the guard (Bolt's own middleware is off), after the signature."""
    body = json.dumps(
        {
            "token": "legacy",
            "challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
            "type": "url_verification",
        }
    )
    raw, headers = signed(body, "application/json")
    status, answer = post(bot, raw, headers)
    assert (status, json.loads(answer)) == (200, {"challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"})
    assert post(bot, raw, {"Content-Type": "application/json"})[0] == 401
    assert post(bot, raw, {**headers, "X-Slack-Signature": "v0=" + "0" * 64})[0] == 401


def test_a_forged_command_is_refused_before_any_answer(bot: BotProcess) -> None:
    """Bolt no longer verifies a second time: the guard alone stands, for the fast path of plain commands too."""
    before = answers_so_far(bot)
    forged = {**signed_headers("not-the-secret", COMMAND), "Content-Type": FORM}
    assert post(bot, COMMAND.encode(), forged)[0] == 401
    stale = signed_at(-301)
    assert post(bot, COMMAND.encode(), {**stale, "Content-Type": FORM})[0] == 401
    assert answers_so_far(bot) == before
    assert post(bot, COMMAND.encode(), {**signed_at(0), "Content-Type": FORM})[0] == 200


def test_the_fast_path_answers_only_its_own_command(bot: BotProcess) -> None:
    """A signed slash command of another name is not answered as /effbatch (Bolt has no listener for it)."""
    other = COMMAND.replace("command=%2Feffbatch", "command=%2Fother")
    assert other != COMMAND
    status, body = post(bot, other.encode(), {**signed_headers(SIGNING_SECRET, other), "Content-Type": FORM})
    assert status == 404
    assert b"2.048" not in body


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_oversized_bodies_get_413(bot: BotProcess, chunked: bool) -> None:
    """A body over 64 KiB is refused with 413, whether its length is declared or streamed."""
    text = "8 64 4 " + "9" * (70 * 1024)
    body = urlencode(slack_payloads.command(text, "https://hooks.slack.com/commands/1"))
    status, _ = post(bot, body.encode(), signed_headers(SIGNING_SECRET, body), chunked=chunked)
    assert status == 413
    assert get(bot.base + "/healthz")[0] == 200


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_interactive_payloads_over_1_mib_get_413(bot: BotProcess, chunked: bool) -> None:
    """The larger cap is for interactive payloads (a 40.000-character message and its blocks), and it is a cap."""
    payload = slack_payloads.message_shortcut("ö" * 200_000, "https://hooks.slack.com/actions/1")
    body = slack_payloads.form_body(payload)
    assert len(body) > 1024 * 1024
    headers = signed_headers(SIGNING_SECRET, body)
    if chunked:
        try:
            status, _ = post(bot, body.encode(), headers, chunked=True)
        except (ConnectionResetError, BrokenPipeError):  # refused and closed while the rest was still on its way
            status = 413
    else:  # refused on the declared length: the server answers before the body is in (a full send would break)
        connection = http.client.HTTPConnection("127.0.0.1", bot.port, timeout=10)
        connection.putrequest("POST", "/slack/events")
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            connection.putheader(name, value)
        connection.endheaders(body[:1000].encode())
        status = connection.getresponse().status
        connection.close()
    assert status == 413
    assert get(bot.base + "/healthz")[0] == 200


def signed(body: bytes | str, content_type: str) -> tuple[bytes, dict[str, str]]:
    raw = body.encode() if isinstance(body, str) else body
    headers = signed_headers(SIGNING_SECRET, raw.decode("utf-8", "surrogateescape"))
    return raw, {**headers, "Content-Type": content_type}


@pytest.mark.parametrize(
    ("case", "body", "content_type", "status"),
    [
        ("plain text", "8 64 4 4096", "text/plain", 415),
        ("multipart", "--x\r\n\r\n8 64 4\r\n--x--", "multipart/form-data; boundary=x", 415),
        ("payload that is not JSON", "payload=%7Bnot-json", FORM, 400),
        ("payload that is a list", "payload=%5B1%2C2%5D", FORM, 400),
        ("JSON that is not an object", "[1, 2]", "application/json", 400),
        ("broken JSON", '{"type": "event_callback"', "application/json", 400),
        ("a form that is no Slack request", "a=1&&=&%zz", FORM, 404),
        # Bolt itself cannot parse an interaction without actions; the guard answers 400 instead of a 500.
        ("interaction without actions", json.dumps({"type": "block_actions", "actions": []}), "application/json", 400),
        ("unknown event", json.dumps({"type": "event_callback", "event": {"type": "x"}}), "application/json", 404),
    ],
)
def test_malformed_requests_get_4xx_never_500(
    bot: BotProcess, case: str, body: str, content_type: str, status: int
) -> None:
    """Wrong content types and malformed (even correctly signed) bodies are 4xx; the server keeps answering."""
    raw, headers = signed(body, content_type)
    assert post(bot, raw, headers)[0] == status, case
    ok, answer = post(bot, COMMAND.encode(), signed_headers(SIGNING_SECRET, COMMAND))
    assert ok == 200
    assert "2.048" in answer.decode()


def test_invalid_utf8_is_refused(bot: BotProcess) -> None:
    """A signed body that is not UTF-8 is a 400."""
    raw = b"command=%2Feffbatch&text=\xff\xfe"
    # slack_sdk's signer decodes the body as UTF-8 first, so this one is signed by hand.
    timestamp = str(int(time.time()))
    digest = hmac.new(SIGNING_SECRET.encode(), f"v0:{timestamp}:".encode() + raw, hashlib.sha256).hexdigest()
    headers = {"Content-Type": FORM, "X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": f"v0={digest}"}
    assert post(bot, raw, headers)[0] == 400


def signed_with_timestamp(timestamp: str, body: str = COMMAND) -> dict[str, str]:
    """Headers carrying ``timestamp`` as it is, signed over it as Slack's scheme would (it has no length limit)."""
    signature = SignatureVerifier(SIGNING_SECRET).generate_signature(timestamp=timestamp, body=body)
    return {"Content-Type": FORM, "X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": signature or ""}


#: Timestamps no clock shows, each signed: 400 digits overflowed a float (OverflowError, a 500 with a traceback),
#: 5.000 passed Python's 4.300-digit limit for int() (ValueError) and crashed the reader.
ABSURD_TIMESTAMPS = {
    "400 digits": "9" * 400,
    "5.000 digits": "9" * 5_000,
    "now, with 400 leading zeros": "0" * 400 + str(int(time.time())),
    "13 digits (the year 318857)": "9" * 13,
}


@pytest.mark.parametrize("case", ABSURD_TIMESTAMPS)
def test_absurd_timestamps_are_401_without_a_traceback(bot: BotProcess, case: str) -> None:
    """A signed request whose timestamp has more digits than a time has: 401 like any stale one, nothing logged as
    an error, nothing run."""
    before, logged = answers_so_far(bot), len(bot.log_so_far())
    status, raw = post(bot, COMMAND.encode(), signed_with_timestamp(ABSURD_TIMESTAMPS[case]))
    assert (status, json.loads(raw)) == (401, {"error": "invalid_signature"}), case
    assert answers_so_far(bot) == before
    log = bot.log_so_far()[logged:]
    assert "Traceback" not in log
    assert "OverflowError" not in log
    assert post(bot, COMMAND.encode(), signed_at(0))[0] == 200


def test_a_command_wrapped_as_a_payload_gets_the_command_cap(bot: BotProcess) -> None:
    """A signed slash command sent as ``payload=<json>`` is a command (Bolt answers any body with a ``command`` as
    one): over 64 KiB it is a 413, not let through under the 1 MiB cap of interactions."""
    fields = slack_payloads.command("8 64 4 " + "9" * (70 * 1024), "https://hooks.slack.com/commands/1")
    body = urlencode({"payload": json.dumps(fields)})
    assert 64 * 1024 < len(body) < 1024 * 1024
    before = answers_so_far(bot)
    status, raw = post(bot, body.encode(), signed_headers(SIGNING_SECRET, body))
    assert (status, json.loads(raw)) == (413, {"error": "body_too_large"})
    assert answers_so_far(bot) == before
    small = urlencode({"payload": json.dumps(slack_payloads.command("8 64 4 4096", "https://hooks.slack.com/c/1"))})
    assert post(bot, small.encode(), signed_headers(SIGNING_SECRET, small))[0] == 200  # under the cap: a command


#: What decides a body's cap: its kind as Bolt will take it (``request_guard.request_kind``), not its first bytes.
KINDS = [
    ("a slash command", FORM, COMMAND, "command", 64 * 1024),
    (
        "a slash command as payload=<json>",
        FORM,
        urlencode({"payload": json.dumps({"command": "/x"})}),
        "command",
        64 * 1024,
    ),
    (
        "a command claiming to be a shortcut",
        FORM,
        urlencode({"payload": '{"type": "message_action", "command": "/x"}'}),
        "command",
        64 * 1024,
    ),
    ("a message shortcut", FORM, urlencode({"payload": '{"type": "message_action"}'}), "message_action", 1024 * 1024),
    ("a button click", FORM, urlencode({"payload": '{"type": "block_actions"}'}), "block_actions", 1024 * 1024),
    ("a submitted form", FORM, urlencode({"payload": '{"type": "view_submission"}'}), "view_submission", 1024 * 1024),
    ("a payload of a made-up type", FORM, urlencode({"payload": '{"type": "made_up"}'}), "made_up", 64 * 1024),
    ("a payload without a type", FORM, urlencode({"payload": "{}"}), "", 64 * 1024),
    ("an event", "application/json", '{"type": "event_callback"}', "event_callback", 64 * 1024),
    ("a payload that is a list", FORM, "payload=%5B1%5D", None, None),
]


@pytest.mark.parametrize(("case", "content_type", "body", "kind", "cap"), KINDS, ids=[row[0] for row in KINDS])
def test_the_kind_decides_the_cap(case: str, content_type: str, body: str, kind: str | None, cap: int | None) -> None:
    """Each kind of request has one cap: 1 MiB for interactions that carry a message or view, 64 KiB for all else."""
    from effbatch.bot.serving.request_guard import KIND_CAPS, MAX_BODY, request_kind

    assert request_kind(content_type, body.encode()) == kind, case
    if kind is not None:
        assert KIND_CAPS.get(kind, MAX_BODY) == cap, case

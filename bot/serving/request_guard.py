"""The gate in front of Bolt for HTTP requests (and Lambda events): size, content type, signature, shape.

Everything here is refused before Bolt sees it, with a 4xx and no listener run:

- a body over its kind's cap → 413: ``MAX_BODY`` (64 KiB; commands and events stay far below) for
  everything but interactions; an interaction (``payload=…`` whose type is a click, a shortcut or a
  form) may reach ``MAX_INTERACTIVE_BODY`` (1 MiB): the message shortcut carries the whole message, up
  to Slack's 40.000 characters, in its text and again in its blocks, percent-encoded (up to 9 bytes a
  character). While the body streams in, only its first bytes are known and it is read no further than
  the larger cap; once it is signed and parsed, the kind decides (a slash command wrapped as
  ``payload=<json>`` is a command, and gets 64 KiB);
- a content type Slack does not send → 415;
- a missing, forged or stale (more than 5 minutes off, either way) signature → 401; this
  includes bodies with ``ssl_check=1``, which Bolt would otherwise answer before verifying, and
  timestamps of more digits than a time has (400 digits overflowed a float, 5.000 Python's int);
- a signed body whose form or JSON does not parse into an object, or that Bolt cannot
  process → 400;
- a body that does not arrive in time (``BODY_TIMEOUT`` in ``http_app``) → 408;
- a request beyond the requests in flight a process takes (``MAX_IN_FLIGHT`` in ``http_app``) → 503.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from slack_sdk.signature import SignatureVerifier

log = logging.getLogger("effbatch")

MAX_BODY = 64 * 1024
MAX_INTERACTIVE_BODY = 1024 * 1024
INTERACTIVE_PREFIX = b"payload="
FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused, as an HTTP status and a short machine-readable reason."""

    status: int
    reason: str

    def body(self) -> bytes:
        return json.dumps({"error": self.reason}).encode()

    def lambda_response(self) -> dict[str, Any]:
        """The same refusal as an API Gateway response."""
        return {
            "statusCode": self.status,
            "headers": {"Content-Type": "application/json"},
            "body": self.body().decode(),
        }


TOO_LARGE = Refusal(413, "body_too_large")
UNSUPPORTED = Refusal(415, "unsupported_content_type")
UNSIGNED = Refusal(401, "invalid_signature")
MALFORMED = Refusal(400, "malformed_body")
TIMED_OUT = Refusal(408, "body_timeout")
BUSY = Refusal(503, "too_many_requests_in_flight")


def check(headers: Mapping[str, str], body: bytes, verifier: SignatureVerifier) -> Refusal | None:
    """The refusal for a Slack request with lower-case ``headers`` and ``body``, or None to let it through."""
    if len(body) > body_cap(body):
        return TOO_LARGE
    content_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type not in (FORM, JSON):
        return UNSUPPORTED
    try:
        body.decode("utf-8")  # Slack signs UTF-8 text; anything else cannot be one of its requests
    except UnicodeDecodeError:
        return MALFORMED
    timestamp = headers.get("x-slack-request-timestamp", "")
    signature = headers.get("x-slack-signature", "")
    if not _plausible(timestamp) or not verifier.is_valid(body, timestamp, signature):
        return UNSIGNED
    kind = request_kind(content_type, body)
    if kind is None:
        return MALFORMED
    return TOO_LARGE if len(body) > KIND_CAPS.get(kind, MAX_BODY) else None


#: Digits a request timestamp may have: seconds since 1970 take 10 until the year 2286.
MAX_TIMESTAMP_DIGITS = 12


def _plausible(timestamp: str) -> bool:
    """Seconds since 1970 as ASCII digits, short enough to compare with the clock (400 digits overflowed a float in
    slack_sdk's check, 5.000 Python's int conversion limit: a 500 with a traceback instead of a 401)."""
    return timestamp.isascii() and timestamp.isdigit() and len(timestamp) <= MAX_TIMESTAMP_DIGITS


def handshake_answer(headers: Mapping[str, str], body: bytes) -> tuple[int, bytes, tuple[bytes, bytes]] | None:
    """Slack's own checks of the endpoint, for a request ``check`` let through: ``ssl_check=1`` gets an empty 200,
    ``url_verification`` its challenge back (what Bolt's SslCheck and UrlVerification did, now switched off)."""
    content_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == FORM and _SSL_CHECK.search(body):
        return 200, b"", (b"content-type", b"text/plain;charset=utf-8")
    if content_type == JSON and b"url_verification" in body:
        data = json.loads(body)  # well-formed: check() parsed it
        if data.get("type") == "url_verification":
            challenge = json.dumps({"challenge": str(data.get("challenge", ""))}).encode()
            return 200, challenge, (b"content-type", b"application/json;charset=utf-8")
    return None


_SSL_CHECK = re.compile(rb"(?:^|&)ssl_check=1(?:&|$)")


#: Interactions that may carry a whole message or view (a shortcut the message, a click the message it sits on).
INTERACTIVE_KINDS = frozenset({"block_actions", "message_action", "shortcut", "view_submission", "view_closed"})
#: The cap of each kind of request; every other kind (commands, events, anything unknown) gets ``MAX_BODY``.
KIND_CAPS = dict.fromkeys(INTERACTIVE_KINDS, MAX_INTERACTIVE_BODY)
#: The kind of a slash command, however it is wrapped (Bolt takes any body with a ``command`` as one).
COMMAND_KIND = "command"


def body_cap(body: bytes) -> int:
    """The most a body may have by its first bytes, while it streams in: ``payload=…`` may be an interaction
    (``MAX_INTERACTIVE_BODY``), all else 64 KiB. Once signed, ``check`` applies its kind's cap (``KIND_CAPS``).

    What a check reads of the message is capped again before parsing (``MAX_CONFIG_BYTES``)."""
    return MAX_INTERACTIVE_BODY if body.startswith(INTERACTIVE_PREFIX) else MAX_BODY


def request_kind(content_type: str, body: bytes) -> str | None:
    """What a signed body is, as Bolt will take it: ``command`` for any body with a command, else its ``type``
    (``""`` without one); None when it does not parse (JSON bodies and payloads must be objects; plain forms
    parse leniently, as in Bolt)."""
    try:
        if content_type == JSON:
            data = json.loads(body)
        elif b"payload=" not in body:
            return COMMAND_KIND if _COMMAND.search(body) else ""
        else:
            payload = parse_qs(body.decode("utf-8")).get("payload")
            if payload is None:
                return COMMAND_KIND if _COMMAND.search(body) else ""
            data = json.loads(payload[0])
    except (ValueError, RecursionError):  # json.JSONDecodeError is a ValueError; 20.000 nested arrays recurse
        return None
    if not isinstance(data, dict):
        return None
    kind = data.get("type")
    return COMMAND_KIND if "command" in data else kind if isinstance(kind, str) else ""


_COMMAND = re.compile(rb"(?:^|&)command=")


def unprocessable() -> Refusal:
    """A signed request Bolt could not parse (e.g. an interaction without actions): logged, answered 400.

    Listener errors never get here (Bolt's error handler answers those); only a payload whose shape Bolt's own
    parsing does not expect. Logged as one line naming the exception, without a traceback: a hostile payload is
    not the bot's fault, and its stack only says where Bolt's parsing gave up.
    """
    error = sys.exc_info()[1]
    log.warning("request Bolt could not process: %s", type(error).__name__ if error else "unknown")
    return MALFORMED

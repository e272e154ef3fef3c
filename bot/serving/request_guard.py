"""The gate in front of Bolt for HTTP requests (and Lambda events): size, content type, signature, shape.

Everything here is refused before Bolt sees it, with a 4xx and no listener run:

- a body over ``MAX_BODY`` (64 KiB; commands and events stay far below) → 413, read no further;
  an interactive payload (``payload=…``) may reach ``MAX_INTERACTIVE_BODY`` (1 MiB): the message
  shortcut carries the whole message, up to Slack's 40.000 characters, in its text and again in
  its blocks, percent-encoded (up to 9 bytes a character);
- a content type Slack does not send → 415;
- a missing, forged or stale (more than 5 minutes off, either way) signature → 401; this
  includes bodies with ``ssl_check=1``, which Bolt would otherwise answer before verifying;
- a signed body whose form or JSON does not parse into an object, or that Bolt cannot
  process → 400;
- a body that does not arrive in time (``BODY_TIMEOUT`` in ``http_app``) → 408.
"""

from __future__ import annotations

import json
import logging
import re
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
    if not (timestamp.isascii() and timestamp.isdigit()) or not verifier.is_valid(body, timestamp, signature):
        return UNSIGNED
    return None if _well_formed(content_type, body) else MALFORMED


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


def body_cap(body: bytes) -> int:
    """The size a body may have: interactive payloads more (a message shortcut carries the message), all else 64 KiB.

    What a check reads of the message is capped again before parsing (``MAX_CONFIG_BYTES``)."""
    return MAX_INTERACTIVE_BODY if body.startswith(INTERACTIVE_PREFIX) else MAX_BODY


def _well_formed(content_type: str, body: bytes) -> bool:
    """JSON bodies and interaction payloads must decode to an object; plain forms parse leniently as in Bolt."""
    try:
        if content_type == JSON:
            return isinstance(json.loads(body), dict)
        if b"payload=" not in body:
            return True
        payload = parse_qs(body.decode("utf-8")).get("payload")
        return payload is None or isinstance(json.loads(payload[0]), dict)
    except (ValueError, RecursionError):  # json.JSONDecodeError is a ValueError; 20.000 nested arrays recurse
        return False


def unprocessable() -> Refusal:
    """A signed request Bolt could not parse (e.g. an interaction without actions): logged, answered 400.

    Listener errors never get here (Bolt's error handler answers those); only a payload
    whose shape Bolt's own parsing does not expect.
    """
    log.exception("request Bolt could not process")
    return MALFORMED

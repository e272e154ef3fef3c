"""The gate in front of Bolt for HTTP requests: size, content type, signature, shape.

Everything here is refused before Bolt sees it, with a 4xx and no listener run:

- a body over ``MAX_BODY`` (64 KiB; Slack's payloads stay far below) → 413, read no further;
- a content type Slack does not send → 415;
- a missing, forged or stale (more than 5 minutes off, either way) signature → 401; this
  includes bodies with ``ssl_check=1``, which Bolt would otherwise answer before verifying;
- a signed body whose form or JSON does not parse into an object, or that Bolt cannot
  process → 400.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from slack_sdk.signature import SignatureVerifier

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

log = logging.getLogger("effbatch")

MAX_BODY = 64 * 1024
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
_STATUS_TEXT = {
    400: "Bad Request",
    401: "Unauthorized",
    411: "Length Required",
    413: "Content Too Large",
    415: "Unsupported Media Type",
}


def check(headers: Mapping[str, str], body: bytes, verifier: SignatureVerifier) -> Refusal | None:
    """The refusal for a Slack request with lower-case ``headers`` and ``body``, or None to let it through."""
    if len(body) > MAX_BODY:
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


def _well_formed(content_type: str, body: bytes) -> bool:
    """JSON bodies and interaction payloads must decode to an object; plain forms parse leniently as in Bolt."""
    try:
        if content_type == JSON:
            return isinstance(json.loads(body), dict)
        if b"payload=" not in body:
            return True
        payload = parse_qs(body.decode("utf-8")).get("payload")
        return payload is None or isinstance(json.loads(payload[0]), dict)
    except ValueError:  # json.JSONDecodeError is a ValueError
        return False


def guard(inner: WSGIApplication, signing_secret: str, path: str) -> WSGIApplication:
    """``inner`` with every POST to ``path`` checked first; other requests pass untouched."""
    verifier = SignatureVerifier(signing_secret)

    def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("PATH_INFO") != path:
            return inner(environ, start_response)
        body = _read_limited(environ)
        if body is None:
            return _refuse(TOO_LARGE, start_response)
        headers = {
            key[5:].replace("_", "-").lower(): value for key, value in environ.items() if key.startswith("HTTP_")
        }
        headers["content-type"] = environ.get("CONTENT_TYPE", "")
        refusal = check(headers, body, verifier)
        if refusal is not None:
            return _refuse(refusal, start_response)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        try:
            return inner(environ, start_response)
        except Exception:
            return _refuse(unprocessable(), start_response)

    return app


def unprocessable() -> Refusal:
    """A signed request Bolt could not parse (e.g. an interaction without actions): logged, answered 400.

    Listener errors never get here (Bolt's error handler answers those); only a payload
    whose shape Bolt's own parsing does not expect.
    """
    log.exception("request Bolt could not process")
    return MALFORMED


def _refuse(refusal: Refusal, start_response: StartResponse) -> list[bytes]:
    status = f"{refusal.status} {_STATUS_TEXT[refusal.status]}"
    start_response(status, [("Content-Type", "application/json"), ("Connection", "close")])
    return [refusal.body()]


def _read_limited(environ: WSGIEnvironment) -> bytes | None:
    """The body, or None as soon as it is known to exceed ``MAX_BODY`` (a declared length is trusted first)."""
    try:
        declared = int(environ.get("CONTENT_LENGTH") or -1)
    except ValueError:
        declared = -1
    if declared > MAX_BODY:
        return None
    stream = environ["wsgi.input"]
    body = stream.read(declared) if declared >= 0 else stream.read(MAX_BODY + 1)
    return None if len(body) > MAX_BODY else body

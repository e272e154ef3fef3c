"""AWS Lambda behind API Gateway: Bolt's aws_lambda adapter around the same app.

Configured from the function's environment (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, …).
The app is built on the first invocation of a cold start and reused while the
instance lives; ``process_before_response=True`` (set by ``create_app``) makes the
answer part of the response, since Lambda freezes the instance after returning.
"""

from __future__ import annotations

import base64
from functools import cache
from typing import Any

from slack_bolt.adapter.aws_lambda import SlackRequestHandler
from slack_sdk.signature import SignatureVerifier

from effbatch.bot.operations.logs import configure_logging
from effbatch.bot.operations.settings import Mode, load_settings
from effbatch.bot.serving.request_guard import check, handshake_answer, unprocessable
from effbatch.bot.slack.app import BotParts, create_app


@cache
def _bolt_handler() -> tuple[SlackRequestHandler, SignatureVerifier]:
    """One app per Lambda instance, built on the cold start's first invocation."""
    settings = load_settings(None)
    settings.require_for(Mode.HTTP)
    # Written at once: Lambda freezes the instance as soon as the answer is returned.
    configure_logging(settings.log_level, settings.log_format, settings.effbatch_log_command_text, background=False)
    assert settings.slack_signing_secret is not None  # require_for(Mode.HTTP) checked it
    verifier = SignatureVerifier(settings.slack_signing_secret.get_secret_value())
    return SlackRequestHandler(create_app(settings, BotParts(charts=False))), verifier


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """The Lambda entry point (``bot.serving.aws_lambda.handler``): the request guard, then Bolt."""
    bolt, verifier = _bolt_handler()
    body = event.get("body") or ""
    raw = base64.b64decode(body) if event.get("isBase64Encoded") else body.encode()
    headers = {key.lower(): value for key, value in (event.get("headers") or {}).items()}
    refusal = check(headers, raw, verifier)
    if refusal is not None:
        return refusal.lambda_response()
    if (handshake := handshake_answer(headers, raw)) is not None:  # ssl_check, url_verification: Bolt's are off
        status, answer, (_, content_type) = handshake
        return {"statusCode": status, "headers": {"Content-Type": content_type.decode()}, "body": answer.decode()}
    try:
        response: dict[str, Any] = bolt.handle(event, context)
    except Exception:
        return unprocessable().lambda_response()
    return response

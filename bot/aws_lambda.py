"""AWS Lambda behind API Gateway: Bolt's aws_lambda adapter around the same app.

Configured from the function's environment (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, …).
The app is built on the first invocation of a cold start and reused while the
instance lives; ``process_before_response=True`` (set by ``create_app``) makes the
answer part of the response, since Lambda freezes the instance after returning.
"""

from __future__ import annotations

from typing import Any

from slack_bolt.adapter.aws_lambda import SlackRequestHandler

from bot.app import create_app
from bot.logs import configure_logging
from bot.settings import Mode, load_settings

_handler: SlackRequestHandler | None = None


def _create_handler() -> SlackRequestHandler:
    settings = load_settings(None)
    settings.require_for(Mode.HTTP)
    configure_logging(settings.log_level, settings.log_format, settings.effbatch_log_command_text)
    return SlackRequestHandler(create_app(settings))


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """The Lambda entry point (``bot.aws_lambda.handler``)."""
    global _handler  # one app per Lambda instance, built on the cold start
    if _handler is None:
        _handler = _create_handler()
    return _handler.handle(event, context)

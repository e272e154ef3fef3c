"""The Bolt app factory and its listeners: read, answer, ack. Nothing connects at import."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_bolt import Ack, App, BoltResponse
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from bot import texts
from bot.answers import answer_command
from bot.blocks import Message, Visibility
from bot.settings import Settings

log = logging.getLogger("effbatch")


class _IgnoreEnvTokenWarning(logging.Filter):
    """Bolt reads SLACK_BOT_TOKEN from the environment even when given a client built from that very
    token, then warns that the token is unused; the client is the only source here, so the warning misleads."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != warning_client_prioritized_and_token_skipped()


bolt_log = logging.getLogger("effbatch.bolt")
bolt_log.addFilter(_IgnoreEnvTokenWarning())

#: Seconds a Web API call may take; Slack itself gives a command 3 s in all.
WEB_API_TIMEOUT = 10


def create_web_client(settings: Settings) -> WebClient:
    """A Web API client for ``settings``, retrying on rate limits."""
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    return WebClient(
        token=token,
        base_url=settings.slack_api_url,
        timeout=WEB_API_TIMEOUT,
        retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=2)],
    )


def create_app(
    settings: Settings,
    client: WebClient | None = None,
    authorize: Callable[..., AuthorizeResult] | None = None,
    answer: Callable[[str, Visibility], tuple[str, Message]] = answer_command,
) -> App:
    """A Bolt app answering ``/effbatch``.

    With a token the constructor checks it with ``auth.test`` (against
    ``settings.slack_api_url``); ``authorize`` replaces that for offline use.
    ``answer`` turns command text into a message (tests pass a failing one).
    """
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else ""
    app = App(
        name="effbatch",
        logger=bolt_log,
        client=client or create_web_client(settings),
        signing_secret=secret,
        authorize=authorize,
        # The answer is computed instantly and travels in the ack: no background thread to wait for.
        process_before_response=True,
    )
    visibility = settings.effbatch_response_type

    @app.command(texts.COMMAND)
    def on_effbatch(ack: Ack, command: dict[str, Any]) -> None:
        kind, message = answer(command.get("text", ""), visibility)
        ack(**message.to_slack())
        # Team, channel and kind only: the command text stays out of the logs.
        log.info("answered kind=%s team=%s channel=%s", kind, command.get("team_id"), command.get("channel_id"))

    @app.error
    def on_error(error: Exception, response: BoltResponse | None) -> BoltResponse | None:
        log.error("unhandled error in listener", exc_info=error)
        if response is None:
            return None
        return BoltResponse(status=200, body={"response_type": "ephemeral", "text": texts.INTERNAL_ERROR})

    return app

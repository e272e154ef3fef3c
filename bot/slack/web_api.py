"""Talking to Slack's Web API and to response URLs, with bounded retries and timeouts."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from urllib.error import URLError
from urllib.parse import urlsplit

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry import HttpRequest, HttpResponse, RetryHandler, RetryState
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.webhook import WebhookClient

from effbatch.bot.operations.metrics import SLACK_API_FAILURES
from effbatch.bot.texts import answers as texts

log = logging.getLogger("effbatch")

#: Whole seconds one Web API call may take (slack_sdk takes an int): a trigger_id is valid for 3 s.
WEB_API_TIMEOUT = 2
#: A rate limit is retried only when Slack asks to wait at most this long.
MAX_RETRY_AFTER = 1

#: What a failed Slack call can raise: an API error, a timeout, a refused or dropped connection.
SLACK_FAILURES = (SlackApiError, TimeoutError, URLError, OSError)


class BoundedRateLimitRetryHandler(RateLimitErrorRetryHandler):
    """slack_sdk's 429 handler, but only for a Retry-After short enough for an interactive answer."""

    def _can_retry(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        if not super()._can_retry(state=state, request=request, response=response, error=error):
            return False
        assert response is not None  # a 429 has a response
        values = {k.lower(): v for k, v in response.headers.items()}.get("retry-after", ["1"])
        try:
            return int(values[0]) <= MAX_RETRY_AFTER
        except ValueError:
            return False


def retry_handlers() -> list[RetryHandler]:
    return [
        ConnectionErrorRetryHandler(max_retry_count=1),
        BoundedRateLimitRetryHandler(max_retry_count=1),
        ServerErrorRetryHandler(max_retry_count=1),
    ]


def create_web_client(token: str | None, base_url: str) -> WebClient:
    """A Web API client with a short timeout and bounded retries for 429, 5xx and dropped connections."""
    return WebClient(token=token, base_url=base_url, timeout=WEB_API_TIMEOUT, retry_handlers=retry_handlers())


def describe(error: Exception) -> str:
    """A short, token-free description of a failed Slack call for a user and a log line."""
    if isinstance(error, SlackApiError):
        return texts.SLACK_REFUSED.format(error=error.response.get("error", error.response.status_code))
    if isinstance(error, TimeoutError) or "timed out" in str(error):
        return texts.SLACK_TIMEOUT
    return texts.SLACK_NO_CONNECTION


#: The hosts of Slack's response URLs (https://hooks.slack.com/commands/…, …/actions/…; GovSlack's own).
SLACK_RESPONSE_HOSTS = frozenset({"hooks.slack.com", "hooks.slack-gov.com"})


def response_poster(api_url: str) -> Callable[[str, dict[str, Any]], bool]:
    """``post_to_response_url`` for response URLs on Slack's hosts (https) or on the configured Web API's own
    scheme, host and port (a stand-in, a proxy in front of Slack); any other URL is refused and logged."""
    api = urlsplit(api_url)

    def post(url: str, payload: dict[str, Any]) -> bool:
        if not _on_slack(url, api.scheme, api.netloc):
            failed("response_url", "response url refused: not one of Slack's hosts")
            return False
        return post_to_response_url(url, payload)

    return post


def _on_slack(url: str, api_scheme: str, api_netloc: str) -> bool:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # a port out of range, brackets that do not close
        return False
    if parts.scheme == "https" and parts.hostname in SLACK_RESPONSE_HOSTS and port in (None, 443):
        return True
    return (parts.scheme, parts.netloc) == (api_scheme, api_netloc)


def post_to_response_url(url: str, payload: dict[str, Any]) -> bool:
    """Send ``payload`` to a response_url; False (and a log line) when Slack does not take it."""
    client = WebhookClient(url, timeout=WEB_API_TIMEOUT, retry_handlers=retry_handlers())
    try:
        response = client.send_dict(payload)
    except SLACK_FAILURES as error:
        failed("response_url", describe(error))
        return False
    if response.status_code != 200:
        failed("response_url", f"HTTP {response.status_code}")
        return False
    return True


def failed(call: str, detail: str) -> None:
    """Count and log a failed Slack call (the detail never contains a token)."""
    SLACK_API_FAILURES.labels(call).inc()
    log.warning("slack call failed", extra={"call": call, "detail": detail})

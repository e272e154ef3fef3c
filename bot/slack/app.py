"""The Bolt app factory and its listeners: read, answer, ack. Nothing connects at import.

Each listener is a few lines: it reads the request, calls a pure function for the
answer (``answers``, ``views``) and hands the result to Slack. Expected failures of
Slack's Web API become a German message to whoever is waiting; anything unexpected
goes to the one error handler, which logs it with its traceback.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from slack_bolt import Ack, App, BoltRequest, BoltResponse
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_bolt.middleware import Middleware
from slack_sdk import WebClient

from bot import texts, views
from bot.answers import answer_command
from bot.blocks import Message, plan_message
from bot.metrics import ANSWERS, INPUT_ERRORS, LATENCY
from bot.settings import Settings
from bot.slack_client import SLACK_FAILURES, create_web_client, describe, failed, post_to_response_url
from bot.whatif import ADJUST_ACTION, LABELS, WHATIF_PREFIX
from core import InputError, PlanCommand, parse_command

log = logging.getLogger("effbatch")

_USER_ID = re.compile(r"[UW][A-Z0-9]{2,20}")


class _IgnoreEnvTokenWarning(logging.Filter):
    """Bolt reads SLACK_BOT_TOKEN from the environment even when given a client built from that very
    token, then warns that the token is unused; the client is the only source here, so the warning misleads."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != warning_client_prioritized_and_token_skipped()


bolt_log = logging.getLogger("effbatch.bolt")
bolt_log.addFilter(_IgnoreEnvTokenWarning())

Answer = Callable[..., tuple[str, Message]]


def create_app(
    settings: Settings,
    client: WebClient | None = None,
    authorize: Callable[..., AuthorizeResult] | None = None,
    answer: Answer = answer_command,
) -> App:
    """A Bolt app answering ``/effbatch``, its buttons, its form and its App Home.

    With a token the constructor checks it with ``auth.test`` (against
    ``settings.slack_api_url``); ``authorize`` replaces that for offline use.
    ``answer`` turns command text into a message (tests pass a failing one).
    """
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else ""
    app = App(
        name="effbatch",
        logger=bolt_log,
        client=client or create_web_client(token, settings.slack_api_url),
        signing_secret=secret,
        authorize=authorize,
        # Answers are computed instantly and travel in the ack: no background thread to wait for.
        process_before_response=True,
    )
    visibility = settings.effbatch_response_type
    log_text = settings.effbatch_log_command_text

    def rendered(text: str) -> tuple[str, dict[str, Any]]:
        kind, message = answer(text, visibility)
        return kind, message.to_slack()

    # Answers are a pure function of the text: a channel trying the same example at once costs one
    # rendering. The cached payloads are shared, so nothing downstream may modify them.
    if settings.effbatch_answer_cache:
        rendered = lru_cache(maxsize=settings.effbatch_answer_cache)(rendered)

    app.use(_MeasureLatency())

    @app.command(texts.COMMAND)
    def on_effbatch(ack: Ack, command: dict[str, Any], client: WebClient) -> None:
        if not command.get("text", "").strip():
            form = views.form_view(visibility, command.get("response_url"))
            ack(**_open_form(client, command.get("trigger_id", ""), form))
            _answered("form", command.get("team_id"), command.get("channel_id"))
            return
        kind, payload = rendered(command.get("text", ""))
        ack(**payload)
        text = command.get("text") if log_text else None
        _answered(kind, command.get("team_id"), command.get("channel_id"), text)

    @app.action(re.compile(f"^{WHATIF_PREFIX}"))
    def on_whatif(ack: Ack, action: dict[str, Any], body: dict[str, Any]) -> None:
        ack()
        note = _changed_by(body, LABELS.get(action["action_id"], action.get("text", {}).get("text", "")))
        kind, message = answer(action.get("value", ""), visibility, note)
        # A damaged button value: tell the clicker and keep the answer; otherwise replace it.
        payload = message.to_slack() | {"replace_original": False} if kind == "input_error" else message.replacing()
        post_to_response_url(body.get("response_url", ""), payload)
        _answered(kind if kind == "input_error" else f"whatif_{kind}", _team(body), body.get("channel", {}).get("id"))

    @app.action(ADJUST_ACTION)
    def on_adjust(ack: Ack, action: dict[str, Any], body: dict[str, Any], client: WebClient) -> None:
        ack()
        try:
            command = parse_command(action.get("value", ""))
        except InputError:
            command = None
        request = command.request if isinstance(command, PlanCommand) else None
        form = views.form_view(visibility, body.get("response_url"), request, replace=True)
        failure = _open_form(client, body.get("trigger_id", ""), form)
        if failure:
            post_to_response_url(body.get("response_url", ""), failure | {"replace_original": False})

    @app.action(views.OPEN_FORM_ACTION)
    def on_open_form(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        ack()
        _open_form(client, body.get("trigger_id", ""), views.form_view(visibility, None))

    @app.view(views.FORM_CALLBACK)
    def on_form(ack: Ack, view: dict[str, Any], body: dict[str, Any]) -> None:
        try:
            result, chosen, metadata = views.read_form(view)
        except views.FormError as error:
            ack(response_action="errors", errors=error.errors)
            _answered("input_error", _team(body), None)
            return
        message = plan_message(result, chosen or visibility)
        url = metadata.get("response_url")
        payload = message.replacing() if metadata.get("replace") else message.to_slack()
        if url is None:
            ack(response_action="update", view=views.result_view(message))
        elif post_to_response_url(url, payload):
            ack()
        else:
            ack(response_action="update", view=views.result_view(message, texts.FORM_POST_FAILED))
        _answered("form_submission", _team(body), None)

    @app.event("app_home_opened")
    def on_home(event: dict[str, Any], client: WebClient) -> None:
        if event.get("tab", "home") != "home":
            return
        try:
            client.views_publish(user_id=event["user"], view=views.home_view())
        except SLACK_FAILURES as error:
            failed("views.publish", describe(error))

    @app.error
    def on_error(error: Exception, response: BoltResponse | None) -> BoltResponse | None:
        log.error("unhandled error in listener", exc_info=error)
        if response is None:
            return None
        return BoltResponse(status=200, body={"response_type": "ephemeral", "text": texts.INTERNAL_ERROR})

    return app


class _MeasureLatency(Middleware):  # type: ignore[misc]
    """The latency histogram, as a class: Bolt injects no keyword arguments into these, which saves ~30 µs."""

    def process(self, *, req: BoltRequest, resp: BoltResponse, next: Callable[[], BoltResponse]) -> BoltResponse:
        started = time.perf_counter()
        try:
            return next()
        finally:
            LATENCY.labels(_request_type(req.body)).observe(time.perf_counter() - started)


def _open_form(client: WebClient, trigger_id: str, form: Any) -> dict[str, Any]:
    """Open the form; on failure the ephemeral German message for whoever asked (empty when it opened)."""
    try:
        client.views_open(trigger_id=trigger_id, view=form)
    except SLACK_FAILURES as error:
        detail = describe(error)
        failed("views.open", detail)
        return {"response_type": "ephemeral", "text": texts.OPEN_FORM_FAILED.format(detail=detail)}
    return {}


def _changed_by(body: dict[str, Any], action_label: str) -> str | None:
    """'Zuletzt geändert von <@U…>: Akkumulation ×2', with the user id checked before it is embedded."""
    user = body.get("user", {}).get("id", "")
    if not _USER_ID.fullmatch(user):
        return None
    return texts.changed_by(f"<@{user}>", action_label)


def _team(body: dict[str, Any]) -> str | None:
    return body.get("team", {}).get("id") if isinstance(body.get("team"), dict) else None


def _request_type(body: dict[str, Any]) -> str:
    """'slash_command', 'block_actions', 'view_submission', 'event_callback' … for the latency metric."""
    return "slash_command" if "command" in body else str(body.get("type", "other"))


def _answered(kind: str, team: str | None, channel: str | None, text: str | None = None) -> None:
    """Count and log an answer: team, channel and kind; the command text only where configured."""
    ANSWERS.labels(kind).inc()
    if kind == "input_error":
        INPUT_ERRORS.inc()
    fields = {"kind": kind, "team": team, "channel": channel} | ({"text": text} if text is not None else {})
    log.info("answered", extra=fields)

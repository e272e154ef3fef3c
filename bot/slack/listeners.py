"""The listeners: plain functions over one frozen ``Dependencies``, wired by ``bot.slack.app``.

Each reads the request, asks a pure function for the answer (``bot.rendering``),
hands the result to Slack and counts it. Expected failures of Slack's Web API become
a German message to whoever is waiting; anything unexpected goes to ``on_error``,
which logs it with its traceback.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from slack_bolt import Ack, BoltResponse
from slack_sdk import WebClient
from slack_sdk.models.views import View

from effbatch.bot.check_runner import CheckRunner
from effbatch.bot.document import Answer, AnswerKind, ChangedBy, Document, Visibility
from effbatch.bot.operations.logs import log_fields
from effbatch.bot.operations.metrics import ANSWERS, INPUT_ERRORS
from effbatch.bot.rendering import views
from effbatch.bot.rendering.answers import plan_document
from effbatch.bot.rendering.whatif import action_label
from effbatch.bot.slack.profile_listeners import answered_with_profile, channel_defaults, profile_answer
from effbatch.bot.slack.state import Purpose, Seal
from effbatch.bot.slack.web_api import SLACK_FAILURES, describe, failed
from effbatch.bot.storage.errors import UnavailableError
from effbatch.bot.storage.profiles import ProfileStore
from effbatch.bot.texts import answers as texts
from effbatch.bot.texts import scaling as scaling_texts
from effbatch.core import InputError, PlanCommand, parse_command
from effbatch.core.answer_cost import asks_the_model
from effbatch.core.configs import check_config
from effbatch.core.parser import MAX_COMMAND_TEXT
from effbatch.core.profile import is_profile_command, may_take_a_profile

log = logging.getLogger("effbatch")

_USER_ID = re.compile(r"[UW][A-Z0-9]{2,20}")


class AnswerFunction(Protocol):
    """Command text → its answer (``bot.rendering.answers.answer_command``; tests pass a failing one)."""

    def __call__(self, text: str, default_visibility: Visibility, /) -> Answer: ...


#: A document laid out as the payload its medium receives (``bot.rendering.block_kit.message`` in Slack).
Layout = Callable[[Document], dict[str, Any]]
#: Posts a payload to a response_url; False when it was not taken.
Deliver = Callable[[str, dict[str, Any]], bool]


@dataclass(frozen=True)
class Rendered:
    """An answer laid out: its kind, the payload, and the payload as the JSON an acknowledgement carries."""

    kind: AnswerKind
    payload: dict[str, Any]
    json: bytes = b""

    @classmethod
    def of(cls, kind: AnswerKind, payload: dict[str, Any]) -> Rendered:
        """Encoded once, with the payload (a cached answer is then sent as it is)."""
        return cls(kind, payload, json.dumps(payload).encode())


@dataclass(frozen=True)
class Dependencies:
    """Everything the listeners use besides the request itself."""

    visibility: Visibility
    answer: AnswerFunction
    layout: Layout
    #: Command text → the laid-out answer, cached where configured (the payloads are shared: never modify them).
    rendered: Callable[[str], Rendered]
    deliver: Deliver
    log_text: bool = False
    #: Runs config checks: in check processes in the bot (``bot.check_runner.CheckPool``), in-process elsewhere.
    checks: CheckRunner = check_config
    #: Channel profiles (``/effbatch cluster``), whose values later commands in the channel take as defaults.
    profiles: ProfileStore | None = None
    #: Installed to any workspace (OAuth): whether a request's workspace has installed effbatch, and what one
    #: that has not is told. None: one workspace, always installed.
    installed: Callable[[Mapping[str, Any]], bool] | None = None
    #: With ``installed``: whether it answers a request from memory, without the database.
    installed_cached: Callable[[Mapping[str, Any]], bool] | None = None
    not_installed: str = ""
    #: Seals what travels through Slack and comes back (forms' metadata, share values): ``bot.slack.state``.
    seal: Seal = field(default_factory=lambda: Seal(secrets.token_hex(32)))
    #: Takes over a public scaling answer (posted, its chart in its thread: ``bot.slack.scaling``); None: never.
    charts: Callable[[Mapping[str, Any]], bool] | None = None


def on_command(deps: Dependencies, ack: Ack, command: dict[str, Any], client: WebClient) -> None:
    """``/effbatch …``: the answer in the acknowledgement; with no text, the form."""

    text = command.get("text", "")
    if not text.strip() and len(text) <= MAX_COMMAND_TEXT:
        form = sealed_form(deps, views.form_view(deps.visibility, command.get("response_url")))
        failure = open_form(client, command.get("trigger_id", ""), form)
        ack(failure) if failure else ack()
        answered("form", command.get("team_id"), command.get("channel_id"))
        return
    ack(answer_text_command(deps, command).payload)


def answer_text_command(deps: Dependencies, command: Mapping[str, Any]) -> Rendered:
    """The answer to ``/effbatch <text>``, counted and logged; Bolt's listener and HTTP mode's fast path
    (``bot.serving.http_app``) both answer with it. ``cluster …`` is the channel's profile; other commands take
    its values as defaults, said atop the answer."""
    text = str(command.get("text", ""))
    if deps.installed is not None and not deps.installed(command):
        rendered = Rendered.of(AnswerKind.NOT_INSTALLED, {"response_type": "ephemeral", "text": deps.not_installed})
    elif is_profile_command(text):
        answer = profile_answer(deps.profiles, command, deps.visibility)
        rendered = Rendered.of(answer.kind, deps.layout(answer.document))
    elif (defaulted := channel_defaults(deps.profiles, command)) is not None:
        applied, profile = defaulted
        answer = answered_with_profile(deps.answer(applied.text, deps.visibility), applied, profile)
        rendered = Rendered.of(answer.kind, deps.layout(answer.document))
    elif deps.charts is not None and deps.charts(command):  # computed and posted by a worker, with its chart
        rendered = Rendered.of(AnswerKind.SCALING, {"response_type": "ephemeral", "text": scaling_texts.PENDING})
    else:
        rendered = deps.rendered(text)
    answered(rendered.kind, command.get("team_id"), command.get("channel_id"), text if deps.log_text else None)
    return rendered


def answers_on_a_thread(deps: Dependencies, command: Mapping[str, Any]) -> bool:
    """Whether ``answer_text_command`` belongs on a thread: it may wait on the database, or it runs the memory and
    time model (milliseconds to a second of CPU: on the event loop it would hold every other request meanwhile)."""
    return waits_on_storage(deps, command) or asks_the_model(str(command.get("text", "")))


def waits_on_storage(deps: Dependencies, command: Mapping[str, Any]) -> bool:
    """Whether ``answer_text_command`` may read the database for ``command``: the workspace's installation (OAuth),
    the channel's profile (``cluster …``, or a text a profile could change). One that cannot is answered where it
    arrives, without a hop to a thread that may wait on the database."""
    if deps.installed is not None and (deps.installed_cached is None or not deps.installed_cached(command)):
        return True
    text = str(command.get("text", ""))
    return deps.profiles is not None and (is_profile_command(text) or may_take_a_profile(text))


def on_whatif(deps: Dependencies, ack: Ack, action: dict[str, Any], body: dict[str, Any]) -> None:
    """A what-if button: the answer to its value replaces the message; a damaged value is told to the clicker."""
    ack()
    answer = deps.answer(str(action.get("value", "")), deps.visibility)
    if answer.kind is AnswerKind.INPUT_ERROR:
        payload = deps.layout(answer.document) | {"replace_original": False}
        label = str(answer.kind)
    else:
        changed = answer.document.changed(_changed_by(body, action_label(str(action.get("action_id", "")))))
        payload = replacing(deps.layout(changed))
        label = f"whatif_{answer.kind}"
    deps.deliver(body.get("response_url", ""), payload)
    answered(label, team_of(body), body.get("channel", {}).get("id"))


def on_adjust(deps: Dependencies, ack: Ack, action: dict[str, Any], body: dict[str, Any], client: WebClient) -> None:
    """ "Anpassen…": the form, prefilled with the answer's values; submitting replaces the answer."""
    ack()
    try:
        command = parse_command(str(action.get("value", "")))
    except InputError:
        command = None
    request = command.request if isinstance(command, PlanCommand) else None
    form = sealed_form(deps, views.form_view(deps.visibility, body.get("response_url"), request, replace=True))
    failure = open_form(client, body.get("trigger_id", ""), form)
    if failure:
        deps.deliver(body.get("response_url", ""), failure | {"replace_original": False})


def on_open_form(deps: Dependencies, ack: Ack, body: dict[str, Any], client: WebClient) -> None:
    """The App Home's button: the form, answering inside the modal."""
    ack()
    open_form(client, body.get("trigger_id", ""), sealed_form(deps, views.form_view(deps.visibility, None)))


def on_form(deps: Dependencies, ack: Ack, view: dict[str, Any], body: dict[str, Any]) -> None:
    """A submitted form: errors inline under their fields, or the answer to the channel (or in the modal)."""
    metadata_text = deps.seal.opened(Purpose.FORM, str(view.get("private_metadata", "")))
    try:
        if metadata_text is None:  # not sealed by this bot: old, or forged
            raise views.FormDamagedError  # answered as every damaged form is, just below
        result, chosen, metadata = views.read_form({**view, "private_metadata": metadata_text})
    except views.FormError as error:
        ack(response_action="errors", errors=error.errors)
        answered(AnswerKind.INPUT_ERROR, team_of(body), None)
        return
    except views.FormDamagedError:
        ack(response_action="update", view=views.damaged_view())
        answered("form_damaged", team_of(body), None)
        return
    document = plan_document(result, chosen or deps.visibility)
    url = metadata.get("response_url")
    payload = deps.layout(document)
    if url is None:
        ack(response_action="update", view=views.result_view(document))
    elif deps.deliver(url, replacing(payload) if metadata.get("replace") else payload):
        ack()
    else:
        ack(response_action="update", view=views.result_view(document, texts.FORM_POST_FAILED))
    answered("form_submission", team_of(body), None)


def on_home(event: dict[str, Any], client: WebClient) -> None:
    """The App Home tab, published whenever someone opens it."""
    if event.get("tab", "home") != "home":
        return
    try:
        client.views_publish(user_id=event["user"], view=views.home_view())
    except SLACK_FAILURES as error:
        failed("views.publish", describe(error))


def on_error(error: Exception, response: BoltResponse | None) -> BoltResponse | None:
    """Anything unexpected: logged with its traceback, the user told in German. What a request needed and could not
    have (the database, the workspace's access to Slack) is told as its own German message."""
    if isinstance(error, UnavailableError):
        log.warning("request not served", extra={"detail": type(error).__name__})
        text = error.message
    else:
        log.error("unhandled error in listener", exc_info=error)
        text = texts.INTERNAL_ERROR
    if response is None:
        return None
    return BoltResponse(status=200, body={"response_type": "ephemeral", "text": text})


def replacing(payload: dict[str, Any]) -> dict[str, Any]:
    """A new answer's payload as the replacement of the message a button sits on (its visibility stays)."""
    return {key: value for key, value in payload.items() if key != "response_type"} | {"replace_original": True}


def sealed_form(deps: Dependencies, form: View) -> View:
    """The calculator form with its private_metadata sealed (``on_form`` opens only what was sealed)."""
    form.private_metadata = deps.seal.sealed(Purpose.FORM, form.private_metadata or "")
    return form


def open_form(client: WebClient, trigger_id: str, form: View) -> dict[str, Any] | None:
    """Open the form; on failure the ephemeral German message for whoever asked."""
    try:
        client.views_open(trigger_id=trigger_id, view=form)
    except SLACK_FAILURES as error:
        detail = describe(error)
        failed("views.open", detail)
        return {"response_type": "ephemeral", "text": texts.OPEN_FORM_FAILED.format(detail=detail)}
    return None


def _changed_by(body: dict[str, Any], action: str) -> ChangedBy | None:
    """Who clicked, with the user id checked before it is ever embedded as a mention."""
    user = body.get("user", {}).get("id", "")
    return ChangedBy(user, action) if isinstance(user, str) and _USER_ID.fullmatch(user) else None


def team_of(body: dict[str, Any]) -> str | None:
    team = body.get("team")
    return team.get("id") if isinstance(team, dict) else None


def answered(kind: str, team: str | None, channel: str | None, text: str | None = None) -> None:
    """Count and log an answer: team, channel and kind; the command text only where configured."""
    ANSWERS.labels(kind).inc()
    if kind == AnswerKind.INPUT_ERROR:
        INPUT_ERRORS.inc()
    fields = {"kind": str(kind), "team": team, "channel": channel} | ({"text": text} if text is not None else {})
    log_fields(log, "answered", fields)

"""The Bolt app factory: it only wires. Nothing connects at import."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from slack_bolt import Ack, App, BoltRequest, BoltResponse
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_bolt.middleware import Middleware
from slack_sdk import WebClient

from effbatch.bot.check_runner import CheckRunner
from effbatch.bot.document import Visibility
from effbatch.bot.operations.metrics import LATENCY
from effbatch.bot.operations.settings import Settings
from effbatch.bot.rendering import block_kit, views
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.checks import SHARE_ACTION
from effbatch.bot.rendering.whatif import ADJUST_ACTION, WHATIF_PREFIX
from effbatch.bot.slack import check_listeners, listeners, unfurl, workspaces
from effbatch.bot.slack.listeners import AnswerFunction, Deliver, Dependencies, Layout, Rendered
from effbatch.bot.slack.scaling import ChartPoster
from effbatch.bot.slack.state import Seal, state_secret
from effbatch.bot.slack.web_api import create_web_client, response_poster
from effbatch.bot.storage.setup import Storage
from effbatch.bot.texts.glossary import COMMAND
from effbatch.core.check_command import is_check
from effbatch.core.configs import check_config
from effbatch.core.parser import MAX_COMMAND_TEXT

BOLT_LOGGER = "effbatch.bolt"


@dataclass(frozen=True)
class PlainCommand:
    """A plain ``/effbatch …`` with text (not ``prüfe``): the form fields Slack sends → its answer; and whether
    answering them may wait on the database or run the memory and time model (then on a thread, else where the
    request arrived)."""

    answer: Callable[[Mapping[str, str]], Rendered]
    waits: Callable[[Mapping[str, str]], bool]


@dataclass(frozen=True)
class BotParts:
    """What the app is built from besides the settings; the console, the bot's modes and tests replace parts.

    ``client`` calls the Web API (built from the settings' token when None); ``authorize`` replaces Bolt's
    ``auth.test`` offline; ``answer``, ``layout`` and ``deliver`` are what the console and tests replace;
    ``checks`` runs config checks (the bot passes a ``CheckPool``: no check on the thread or loop that answers
    everyone); ``storage`` keeps channel profiles and, installed to any workspace, the installations."""

    client: WebClient | None = None
    authorize: Callable[..., AuthorizeResult] | None = None
    answer: AnswerFunction = answer_command
    layout: Layout = block_kit.message
    deliver: Deliver | None = None
    checks: CheckRunner = check_config
    storage: Storage | None = None
    #: Whether a public scaling answer is posted with its chart in the thread by a worker thread (not on Lambda,
    #: which freezes once the acknowledgement is sent).
    charts: bool = True


def create_app(settings: Settings, parts: BotParts | None = None) -> App:
    """A Bolt app for ``/effbatch``, its buttons and forms, config checks and the App Home.

    The constructor checks a token with ``auth.test``; ``parts.authorize`` replaces that offline."""
    return create_bot(settings, parts)[0]


def create_bot(settings: Settings, parts: BotParts | None = None) -> tuple[App, PlainCommand]:
    """``create_app``'s app, and the same listener's answer to a plain command as a function of its fields:
    HTTP mode answers those without Bolt's dispatch, once the request guard has done what Bolt's middlewares
    would (signature, age, shape) – a third of the time a command took.

    Installed to any workspace (``settings.multi_workspace``), each request is answered with its workspace's
    token (Bolt's OAuth flow over ``parts.storage``)."""
    parts = parts or BotParts()
    storage = parts.storage
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    client = parts.client or create_web_client(token, settings.slack_api_url)
    oauth = storage if settings.multi_workspace and storage is not None and storage.installations else None
    app = _app(settings, client, parts.authorize, oauth)
    visibility = settings.effbatch_response_type
    rendered = _renderer(parts.answer, parts.layout, visibility, settings.effbatch_answer_cache)
    deliver = parts.deliver or response_poster(settings.slack_api_url)
    # A scaling answer's chart: in Slack's layout, with one workspace's token (else its text chart in the answer).
    slack = parts.charts and parts.layout is block_kit.message and oauth is None
    charts = ChartPoster(client, parts.layout, deliver, visibility).take if slack else None
    # Answers go only to Slack's response URLs (or the configured Web API's host); what travels through Slack is sealed.
    deps = Dependencies(
        visibility,
        parts.answer,
        parts.layout,
        rendered,
        deliver,
        settings.effbatch_log_command_text,
        parts.checks,
        seal=Seal(state_secret(settings)),
        profiles=storage.profiles if storage else None,
        installed=workspaces.installed_check(oauth) if oauth else None,
        installed_cached=workspaces.cached_check(oauth) if oauth else None,
        not_installed=workspaces.not_installed_message(settings),
        charts=charts,
    )
    _wire(app, deps)
    _wire_links_and_workspaces(app, deps, settings.effbatch_github_raw_url, storage)
    return app, PlainCommand(partial(listeners.answer_text_command, deps), partial(listeners.answers_on_a_thread, deps))


def _wire_links_and_workspaces(app: App, deps: Dependencies, github: str, storage: Storage | None) -> None:
    # A GitHub link to a config: acknowledged at once, fetched, checked and unfurled after (Bolt's lazy listener).
    app.event("link_shared")(ack=unfurl.acknowledge, lazy=[partial(unfurl.on_link_shared, deps, github)])
    app.action(unfurl.FULL_CHECK_ACTION)(partial(unfurl.on_full_check, deps, github))
    if storage is not None:
        workspaces.wire_uninstall(app, storage)


def _app(
    settings: Settings, client: WebClient, authorize: Callable[..., AuthorizeResult] | None, oauth: Storage | None
) -> App:
    """Bolt's app: one workspace's token (``client``, or ``authorize``), or Bolt's OAuth flow over ``oauth``."""
    return App(
        name="effbatch",
        logger=_bolt_logger(),
        client=client,
        signing_secret=settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else "",
        authorize=authorize,
        oauth_flow=workspaces.oauth_flow(settings, oauth, client) if oauth else None,
        user_facing_authorize_error_message=workspaces.not_installed_message(settings),
        # Answers are computed instantly and travel in the ack: no background thread to wait for.
        process_before_response=True,
        # The request guard in front of Bolt (HTTP and Lambda) has verified the signature and its age and answers
        # Slack's ssl_check and url_verification itself; Socket Mode needs neither. Bolt's own passes were the same
        # work a second time on every request (``bot/serving/request_guard.py``).
        request_verification_enabled=False,
        ssl_check_enabled=False,
        url_verification_enabled=False,
    )


def _wire(app: App, deps: Dependencies) -> None:
    app.use(_MeasureLatency())
    # One listener for `/effbatch`, choosing between `prüfe …` and the rest itself: a second listener with a
    # matcher cost two more of Bolt's keyword-argument injections on every command.
    app.command(COMMAND)(partial(_on_command, deps))
    app.action(re.compile(f"^{WHATIF_PREFIX}"))(partial(listeners.on_whatif, deps))
    app.action(ADJUST_ACTION)(partial(listeners.on_adjust, deps))
    app.action(views.OPEN_FORM_ACTION)(partial(listeners.on_open_form, deps))
    app.view(views.FORM_CALLBACK)(partial(listeners.on_form, deps))
    app.shortcut(check_listeners.CHECK_SHORTCUT)(partial(check_listeners.on_check_shortcut, deps))
    app.view(views.WORLD_FORM_CALLBACK)(partial(check_listeners.on_check_world, deps))
    app.action(SHARE_ACTION)(partial(check_listeners.on_check_share, deps))
    app.event("app_home_opened")(listeners.on_home)
    app.error(listeners.on_error)


def _renderer(answer: AnswerFunction, layout: Layout, visibility: Visibility, cache: int) -> Callable[[str], Rendered]:
    """Command text → the laid-out answer; cached, since a channel trying one example at once costs one rendering."""

    def rendered(text: str) -> Rendered:
        result = answer(text, visibility)
        return Rendered.of(result.kind, layout(result.document))

    if not cache:
        return rendered
    cached = lru_cache(maxsize=cache)(rendered)
    # Text over the length limit is refused unparsed; as a cache key it would only take memory.
    return lambda text: cached(text) if len(text) <= MAX_COMMAND_TEXT else rendered(text)


def _bolt_logger() -> logging.Logger:
    logger = logging.getLogger(BOLT_LOGGER)
    logger.addFilter(_ignore_env_token_warning)
    return logger


def _on_command(deps: Dependencies, ack: Ack, command: dict[str, Any], client: WebClient) -> None:
    """``/effbatch prüfe …`` to the config check, every other ``/effbatch`` to the calculator."""
    if is_check(str(command.get("text", ""))):
        check_listeners.on_check_command(deps, ack, command, client)
    else:
        listeners.on_command(deps, ack, command, client)


def _ignore_env_token_warning(record: logging.LogRecord) -> bool:
    """Bolt reads SLACK_BOT_TOKEN from the environment even when given a client built from that very
    token, then warns that the token is unused; the client is the only source here, so the warning misleads."""
    return record.getMessage() != warning_client_prioritized_and_token_skipped()


class _MeasureLatency(Middleware):
    """The latency histogram, as a class: Bolt injects no keyword arguments into these, which saves ~30 µs."""

    def process(self, *, req: BoltRequest, resp: BoltResponse, next: Callable[[], BoltResponse]) -> BoltResponse:
        started = time.perf_counter()
        try:
            return next()
        finally:
            LATENCY.labels(_request_type(req.body)).observe(time.perf_counter() - started)


#: The request types the latency metric tells apart; any other value a body claims counts as "other".
REQUEST_TYPES = frozenset({"block_actions", "view_submission", "view_closed", "event_callback", "message_action"})


def _request_type(body: dict[str, object]) -> str:
    """'slash_command', 'block_actions', 'view_submission', 'event_callback' … from a fixed set, for the metric."""
    if "command" in body:
        return "slash_command"
    kind = body.get("type")
    return kind if isinstance(kind, str) and kind in REQUEST_TYPES else "other"

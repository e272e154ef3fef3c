"""HTTP mode as an ASGI application: the health endpoints, and ``POST /slack/events`` into Bolt.

The event loop reads and writes: a body is read here, bounded in size and time, and checked
by the request guard; only a signed, well-formed request goes to Bolt. A slash command with
text is answered without Bolt's dispatch (text capped, parsing linear: well under a millisecond):
on the event loop where nothing waits, on a dispatch thread where it may read the channel's profile or the
installation from the database, or runs the memory and time model (up to a second for a plan); a config check
(``/effbatch prüfe …``) waits on a check process (``bot.check_runner``) on threads of its own;
whatever may wait on Slack's Web API (the form, button clicks, submissions, events) runs on a
bounded thread pool. An idle or slow client therefore holds a socket, never a thread.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from enum import Enum
from typing import Any
from urllib.parse import parse_qs, unquote_plus

from slack_bolt import App, BoltRequest, BoltResponse
from slack_sdk.signature import SignatureVerifier

from effbatch.bot.check_runner import CheckPool
from effbatch.bot.operations.metrics import LATENCY, exposition
from effbatch.bot.rendering.checks import SHARE_ACTION
from effbatch.bot.serving.oauth_routes import is_oauth_path, oauth_response, response_headers
from effbatch.bot.serving.request_guard import (
    BUSY,
    INTERACTIVE_PREFIX,
    MALFORMED,
    MAX_BODY,
    MAX_INTERACTIVE_BODY,
    TIMED_OUT,
    TOO_LARGE,
    Refusal,
    body_cap,
    check,
    handshake_answer,
    unprocessable,
)
from effbatch.bot.slack.app import PlainCommand
from effbatch.bot.slack.check_listeners import CHECK_SHORTCUT, acked_at_once
from effbatch.bot.slack.listeners import on_error
from effbatch.bot.texts.glossary import COMMAND
from effbatch.core.check_command import is_check

EVENTS_PATH = "/slack/events"
#: Seconds a request body may take to arrive; Slack sends a few KiB at once and waits 3 s for the answer.
BODY_TIMEOUT = 5.0
#: Threads per process running Bolt: each may wait up to 2 s on a Web API call (views.open).
DISPATCH_THREADS = 8
#: Threads per process waiting on config checks (the check processes bound the work; these only wait).
CHECK_THREADS = 8
#: Requests to /slack/events in flight per process; beyond, 503 at once. The health endpoints are never capped
#: (a 503 there makes an orchestrator kill a healthy pod), nor are sockets (``http_server``).
MAX_IN_FLIGHT = 512
#: Requests of one peer (an IP address) still reading their body, per process; beyond, 503 at once. Slack's bodies
#: arrive with their headers and never wait there: only a client that trickles its body does.
MAX_READING_PER_PEER = 32

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
_TEXT = (b"content-type", b"text/plain; charset=utf-8")
_JSON = (b"content-type", b"application/json")
_JSON_UTF8 = (b"content-type", b"application/json;charset=utf-8")  # as Bolt sends its acknowledgements


class SlackHTTP:
    """``/healthz`` (``alive()``), ``/readyz`` (``ready()``), ``/metrics`` and, with an app, ``POST /slack/events``."""

    def __init__(
        self,
        app: App | None,
        signing_secret: str = "",
        ready: Callable[[], bool] = lambda: True,
        checks: CheckPool | None = None,
        alive: Callable[[], bool] = lambda: True,
        commands: PlainCommand | None = None,
    ) -> None:
        """``commands`` answers plain ``/effbatch <text>`` without Bolt's dispatch (``create_bot``)."""
        self._app = app
        self._alive = alive
        self._commands = commands
        self._verifier = SignatureVerifier(signing_secret) if app is not None else None
        self._ready = ready
        self._checks = checks
        self._pool = ThreadPoolExecutor(max_workers=DISPATCH_THREADS, thread_name_prefix="bolt")
        # Config checks wait on their check process (up to its deadline): threads of their own, so that a burst of
        # them cannot hold up button clicks and forms.
        self._check_pool = ThreadPoolExecutor(max_workers=CHECK_THREADS, thread_name_prefix="check")
        self._in_flight = 0  # only this process's event loop counts
        self._reading: dict[str, int] = {}  # requests still reading their body, by peer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send, self._checks)
            return
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        if method in ("GET", "HEAD") and path == "/healthz":
            alive = self._alive()
            await _respond(send, 200 if alive else 503, b"ok\n" if alive else b"unable to reconnect\n", _TEXT)
        elif method in ("GET", "HEAD") and path == "/readyz":
            ready = self._ready()
            await _respond(send, 200 if ready else 503, b"ready\n" if ready else b"not ready\n", _TEXT)
        elif method in ("GET", "HEAD") and path == "/metrics":
            body, content_type = exposition()
            await _respond(send, 200, body, (b"content-type", content_type.encode()))
        elif method == "POST" and path == EVENTS_PATH and self._verifier is not None:
            if self._in_flight >= MAX_IN_FLIGHT:
                await _refuse(send, BUSY)
                return
            self._in_flight += 1
            try:
                await self._slack_event(scope, receive, send, self._verifier)
            finally:
                self._in_flight -= 1
        elif method == "GET" and self._app is not None and is_oauth_path(self._app, path):
            page = await oauth_response(self._app, scope, self._pool)  # OAuth: the install link and Slack's redirect
            await _respond(send, page.status, page.body.encode(), *response_headers(page))
        else:
            await _respond(send, 404, b"not found\n", _TEXT)

    async def _slack_event(self, scope: Scope, receive: Receive, send: Send, verifier: SignatureVerifier) -> None:
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        body = await self._read_body_of_peer(scope, headers, receive)
        if isinstance(body, Refusal):
            await _refuse(send, body)
            return
        if (refusal := check(headers, body, verifier)) is not None:
            await _refuse(send, refusal)
            return
        if (handshake := handshake_answer(headers, body)) is not None:
            await _respond(send, *handshake)
            return
        route = _route(body)
        if route is _Route.LOOP and self._commands is not None:
            await _respond(send, 200, await self._answered(body, self._commands), _JSON_UTF8)
            return
        if route is _Route.CHECK and _acked_at_once(body):
            # The shortcut, sharing: their acknowledgement is empty, and goes out before the check waits for a thread
            await _respond(send, 200, b"", _TEXT)
            await asyncio.get_running_loop().run_in_executor(self._check_pool, self._dispatch, body, headers)
            return
        if route is _Route.LOOP:
            response = self._dispatch(body, headers)  # a few hundred µs of CPU: a thread hop would cost more
        else:
            threads = self._check_pool if route is _Route.CHECK else self._pool
            response = await asyncio.get_running_loop().run_in_executor(threads, self._dispatch, body, headers)
        if isinstance(response, Refusal):
            await _refuse(send, response)
            return
        answer = [
            (k.lower().encode("latin-1"), v.encode("latin-1"))
            for k, vs in response.headers.items()
            if k.lower() != "content-length"
            for v in vs
        ]
        await _respond(send, response.status, response.body.encode(), *answer)

    async def _answered(self, body: bytes, commands: PlainCommand) -> bytes:
        """A plain command's answer: on a thread where it may wait on the database (the channel's profile, the
        installation) or runs the memory and time model, else here on the loop, where a thread hop would cost more
        than the answer."""
        fields = _answer_fields(body)
        if commands.waits(fields):
            return await asyncio.get_running_loop().run_in_executor(self._pool, _plain_command, fields, commands)
        return _plain_command(fields, commands)

    async def _read_body_of_peer(self, scope: Scope, headers: Mapping[str, str], receive: Receive) -> bytes | Refusal:
        """The body, counted against its peer's requests still reading one (``MAX_READING_PER_PEER``)."""
        client = scope.get("client")
        peer = str(client[0]) if client else ""
        reading = self._reading.get(peer, 0)
        if reading >= MAX_READING_PER_PEER:
            return BUSY
        self._reading[peer] = reading + 1
        try:
            return await _read_body(headers, receive)
        finally:
            left = self._reading[peer] - 1
            if left:
                self._reading[peer] = left
            else:
                del self._reading[peer]

    def _dispatch(self, body: bytes, headers: Mapping[str, str]) -> BoltResponse | Refusal:
        """Bolt, on a pool thread; a signed payload Bolt's own parsing cannot take is a 400, not a 500."""
        assert self._app is not None  # only called for /slack/events, which needs an app
        try:
            return self._app.dispatch(BoltRequest(body=body.decode("utf-8"), headers=dict(headers)))
        except Exception:
            return unprocessable()


class _Route(Enum):
    LOOP = "loop"  # a slash command with text: answered without Bolt's dispatch (on a thread where it may wait)
    CHECK = "check"  # /effbatch prüfe …: waits on a check process (and maybe views.open)
    POOL = "pool"  # the form, button clicks, submissions, events: may wait on Slack's Web API


#: A slash command's fields, found in the raw form without parsing all of it (Bolt parses it once more anyway).
_COMMAND_FIELD = re.compile(rb"(?:^|&)command=([^&]*)")
_TEXT_FIELD = re.compile(rb"(?:^|&)text=([^&]*)")
#: Interactions that run a config check, as their names appear in the raw form (a forged body naming one
#: only waits on the check threads instead of the others).
_CHECK_INTERACTIONS = (CHECK_SHORTCUT.encode(), SHARE_ACTION.encode())  # effbatch_check also in _world
_ANSWER_FIELDS = re.compile(rb"(?:^|&)(text|team_id|channel_id|user_id|enterprise_id|response_url)=([^&]*)")


def _route(body: bytes) -> _Route:
    """Where a request is handled: only plain commands on the loop, never a config check; checks (the command,
    the shortcut, the world-size form, sharing) on threads of their own."""
    if body.startswith(INTERACTIVE_PREFIX):
        return _Route.CHECK if any(name in body for name in _CHECK_INTERACTIONS) else _Route.POOL
    command = _COMMAND_FIELD.search(body)
    text = _TEXT_FIELD.search(body) if command else None
    if command is None or text is None:
        return _Route.POOL
    if unquote_plus(command.group(1).decode("utf-8")) != COMMAND:
        return _Route.POOL  # another command: Bolt says it has no listener for it
    words = unquote_plus(text.group(1).decode("utf-8"))
    if not words.strip():
        return _Route.POOL
    return _Route.CHECK if is_check(words) else _Route.LOOP


def _answer_fields(body: bytes) -> dict[str, str]:
    """Only the fields the answer uses, the first of each as Bolt reads them."""
    fields: dict[str, str] = {}
    for name, value in _ANSWER_FIELDS.findall(body):
        fields.setdefault(name.decode(), unquote_plus(value.decode("utf-8")))
    return fields


def _plain_command(fields: Mapping[str, str], commands: PlainCommand) -> bytes:
    """``/effbatch <text>`` answered directly: the guard has verified it, nothing of Bolt's is needed (tens of µs
    where no database is read)."""
    started = time.perf_counter()
    try:
        return commands.answer(fields).json
    except Exception as error:  # as in Bolt: logged with its traceback, the user told in German
        told = on_error(error, BoltResponse(status=200, body=""))
        return (told.body if told is not None else "").encode()
    finally:
        LATENCY.labels("slash_command").observe(time.perf_counter() - started)


def _acked_at_once(body: bytes) -> bool:
    """An interaction the guard let through (its payload parses) that is acknowledged as it arrives."""
    payload = parse_qs(body.decode("utf-8")).get("payload")
    data = json.loads(payload[0]) if payload else None
    return isinstance(data, dict) and acked_at_once(data)


async def _read_body(headers: Mapping[str, str], receive: Receive) -> bytes | Refusal:
    """The body, or the refusal as soon as it is known to be too large (a declared length first) or too slow.

    The first chunk says whether it is an interactive payload, which may be larger (``body_cap``)."""
    declared = headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_INTERACTIVE_BODY:
        return TOO_LARGE
    cap = MAX_BODY
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(BODY_TIMEOUT):
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return MALFORMED  # the client went away
                chunk = message.get("body", b"")
                if size < len(INTERACTIVE_PREFIX):  # until its first bytes are in, it may be interactive
                    head = (b"".join(chunks) + chunk)[: len(INTERACTIVE_PREFIX)]
                    cap = MAX_INTERACTIVE_BODY if INTERACTIVE_PREFIX.startswith(head) else body_cap(head)
                size += len(chunk)
                if size > cap:
                    return TOO_LARGE
                chunks.append(chunk)
                if not message.get("more_body", False):
                    return b"".join(chunks)
    except TimeoutError:
        return TIMED_OUT


async def _refuse(send: Send, refusal: Refusal) -> None:
    await _respond(send, refusal.status, refusal.body(), _JSON, (b"connection", b"close"))


async def _respond(send: Send, status: int, body: bytes, *headers: tuple[bytes, bytes]) -> None:
    length = (b"content-length", str(len(body)).encode())
    await send({"type": "http.response.start", "status": status, "headers": [*headers, length]})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send, checks: CheckPool | None) -> None:
    """The Bolt app exists before the server starts; this worker's check processes start and stop with it."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if checks is not None:
                checks.start()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if checks is not None:
                checks.close()
            await send({"type": "lifespan.shutdown.complete"})
            return

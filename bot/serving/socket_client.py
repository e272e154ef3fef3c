"""A Socket Mode client that replaces its connection without losing or delaying envelopes.

slack_sdk's websocket-client ``SocketModeClient`` runs every connection on one thread and
acknowledges every envelope on the *current* connection. On ``disconnect`` it opens the new
connection before the old one's receive loop has returned, so the new one is not read until
the old one's close handshake ends (~10 s against a server with websockets' default close
timeout); an envelope that arrived on the old connection is acknowledged on the new one,
which is not open yet, and is lost; its monitor meanwhile replaces the unread connection
again. Here each connection has its own thread, an envelope is acknowledged on the
connection it came in on, and a connection replaces the old one only once Slack said
``hello`` on it; the old one is left for Slack to close (or closed after a grace period).

A connection is alive while Slack is heard on it: websocket-client pings every ``ping_interval`` seconds
and Slack answers each; a connection on which nothing (no pong, no message) arrived for ``ping_interval +
ping_timeout`` seconds is frozen (half-open: a NAT or load balancer lost it, no FIN, no RST) and is no
longer connected: /readyz turns 503, the watchdog replaces it, and /healthz counts from then on.
(websocket-client's own ping timeout looked only in the second before the next ping, from a select()
running on another rhythm: it fired after ~23 s instead of 5 + 4 s.)

Config checks wait on a check process (up to its deadline, or "busy"): they run on threads of their own,
so that 150 shortcut checks cannot hold up a plain command's acknowledgement (they held every message
thread for 3,7 s). The shortcut and the share button, whose listeners acknowledge with nothing, are
acknowledged as they arrive, before their check is even queued.

On ``websocket-client``'s ``WebSocketApp``; Bolt's request handling comes unchanged from
``slack_bolt.adapter.socket_mode``.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from enum import Enum
from queue import Queue
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.socket_mode.base_handler import BaseSocketModeHandler
from slack_bolt.adapter.socket_mode.internals import run_bolt_app, send_response
from slack_sdk import WebClient
from slack_sdk.socket_mode.client import BaseSocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest
from websocket import WebSocketApp, WebSocketException

from effbatch.bot.slack.check_listeners import acked_at_once, runs_a_check
from effbatch.core.check_command import is_check

#: Seconds a new connection has to say hello before it is given up and another one tried.
HELLO_TIMEOUT = 5.0
#: Seconds before the first retry while Slack cannot be reached, doubling up to ``MAX_RETRY_DELAY``.
RETRY_DELAY = 0.05
MAX_RETRY_DELAY = 2.0
#: Seconds between the watchdog's looks at the connection (a lost one it finds is replaced).
WATCH_INTERVAL = 1.0
#: Seconds a replaced connection may stay open for Slack to close it (envelopes may still arrive on it).
RETIRE_GRACE = 10.0
#: Envelopes remembered until acknowledged (Bolt acknowledges each within a second or so).
MAX_PENDING = 1000
#: Threads waiting on config checks (the check processes bound the work; these only wait).
CHECK_THREADS = 8


class _Connection:
    """One WebSocket to Slack, read on its own thread, ready once Slack said hello on it."""

    def __init__(self, url: str, client: ReliableSocketModeClient) -> None:
        #: When Slack was last heard on it (a message, a pong, a ping; monotonic seconds).
        self.heard = time.monotonic()
        self.hello = threading.Event()
        self.closed = threading.Event()
        #: Slack said ``disconnect`` on it: it is to be replaced, whether it is current yet or not.
        self.retiring = threading.Event()
        self._client = client
        self._app = WebSocketApp(
            url,
            on_message=self._on_message,
            on_close=self._on_close,
            on_error=self._on_error,
            on_ping=self._on_heard,
            on_pong=self._on_heard,
        )
        self._thread = threading.Thread(target=self._run, name="socket-mode", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def open(self) -> bool:
        return self._app.sock is not None and self._app.sock.connected and not self.closed.is_set()

    def silent_for(self) -> float:
        """Seconds since Slack was last heard on this connection."""
        return time.monotonic() - self.heard

    def send(self, text: str) -> None:
        self._app.send(text)

    def close(self) -> None:
        """Close without waiting for the handshake to finish (it runs on a thread of its own)."""
        threading.Thread(target=self._app.close, name="socket-mode-close", daemon=True).start()

    def _run(self) -> None:
        # Pings only: whether they are answered in time is the client's to judge (``ReliableSocketModeClient``).
        self._app.run_forever(ping_interval=self._client.ping_interval)
        self.closed.set()
        self._client.connection_ended(self)

    def _on_message(self, _app: WebSocketApp, raw: str) -> None:
        self.heard = time.monotonic()
        self._client.received(self, raw)

    def _on_heard(self, _app: WebSocketApp, _data: object) -> None:
        self.heard = time.monotonic()

    def _on_close(self, _app: WebSocketApp, *_: object) -> None:
        self.closed.set()

    def _on_error(self, _app: WebSocketApp, error: Exception) -> None:
        self._client.logger.warning("socket mode connection error", extra={"detail": type(error).__name__})


class ReliableSocketModeClient(BaseSocketModeClient):
    """Socket Mode for Bolt, keeping one connection that Slack said hello on, replacing it when asked or lost."""

    def __init__(
        self,
        app_token: str,
        web_client: WebClient,
        logger: logging.Logger,
        ping_interval: float = 5,
        reconnect_seconds: float = 60,
        ping_timeout: float = 4,
    ) -> None:
        self.app_token = app_token
        self.web_client = web_client
        self.logger = logger
        self.ping_interval = ping_interval
        #: Seconds a connection may stay silent, a ping's interval and the time its answer may take.
        self.silence_limit = ping_interval + ping_timeout
        self.message_listeners = []
        self.socket_mode_request_listeners = []
        self.message_queue = Queue()  # unused: messages are handed to the workers as they arrive
        self.message_workers = ThreadPoolExecutor(max_workers=10, thread_name_prefix="socket-mode-request")
        # Config checks wait on their check process (up to its deadline): threads of their own, so that a burst
        # of them cannot hold up plain commands, clicks and forms.
        self.check_workers = ThreadPoolExecutor(max_workers=CHECK_THREADS, thread_name_prefix="socket-mode-check")
        self.closed = False
        self.connect_operation_lock = threading.Lock()
        self._current: _Connection | None = None
        self._origins: dict[str, _Connection] = {}
        #: A replacement was asked for (set by whoever asks, cleared by the replacing loop as it starts an attempt).
        self._wanted = threading.Event()
        self._reconnect_seconds = reconnect_seconds
        #: Since when there has been no usable connection (monotonic seconds; None while connected).
        self._down_since: float | None = time.monotonic()
        #: Envelopes acknowledged as they arrived (their listener's own empty acknowledgement is not sent again).
        self._acked_early: OrderedDict[str, None] = OrderedDict()

    # --- what Bolt and the health endpoint call --------------------------------------------

    def connect(self) -> None:
        """The first connection, in the background (until Slack says hello, the app is not ready), and a watchdog."""
        self._replace_in_background()
        threading.Thread(target=self._watch, name="socket-mode-watch", daemon=True).start()

    def is_connected(self) -> bool:
        current = self._current
        connected = (
            current is not None
            and current.open
            and current.hello.is_set()
            and current.silent_for() <= self.silence_limit
        )
        if connected:
            self._down_since = None
        elif self._down_since is None:
            self._down_since = time.monotonic()
        return connected

    def is_alive(self) -> bool:
        """False once no connection could be made for ``reconnect_seconds``: /healthz fails, Kubernetes restarts."""
        down_since = None if self.is_connected() else self._down_since
        return down_since is None or time.monotonic() - down_since < self._reconnect_seconds

    def disconnect(self) -> None:
        if self._current is not None:
            self._current.close()

    def close(self) -> None:
        self.closed = True
        self.disconnect()
        self.message_workers.shutdown(wait=False)
        self.check_workers.shutdown(wait=False)

    def send_message(self, message: str) -> None:
        """An acknowledgement goes out on the connection its envelope came in on, while that one is open."""
        envelope_id = json.loads(message).get("envelope_id") if message.startswith("{") else None
        origin = self._origins.pop(envelope_id, None) if envelope_id else None
        target = origin if origin is not None and origin.open else self._current
        if target is None:
            msg = "no Socket Mode connection to answer on"
            raise WebSocketException(msg)
        target.send(message)

    # --- what the connections report ----------------------------------------------------------

    def received(self, connection: _Connection, raw: str) -> None:
        message: dict[str, Any] = json.loads(raw) if raw.startswith("{") else {}
        kind = message.get("type")
        if kind == "hello":
            connection.hello.set()
        elif kind == "disconnect":
            connection.retiring.set()
            if connection is self._current:
                self._replace_in_background()
            return  # a connection still being opened is replaced by the loop in _replace
        envelope_id = message.get("envelope_id")
        route = _route(message)
        if isinstance(envelope_id, str):
            self._origins[envelope_id] = connection
            if len(self._origins) > MAX_PENDING:
                self._origins.pop(next(iter(self._origins)), None)
            if route is _Route.CHECK_ACKED:
                self._ack_now(envelope_id)
        workers = self.message_workers if route is _Route.PLAIN else self.check_workers
        workers.submit(self.run_message_listeners, message, raw)

    def acked_early(self, envelope_id: str) -> bool:
        """Whether ``envelope_id`` was acknowledged as it arrived (forgotten once asked)."""
        return self._acked_early.pop(envelope_id, False) is None

    def _ack_now(self, envelope_id: str) -> None:
        """The empty acknowledgement, sent from the receiving thread before the envelope waits for a check thread."""
        try:
            self.send_message(json.dumps({"envelope_id": envelope_id}))
        except (WebSocketException, OSError):
            return  # not acknowledged now: the listener's own acknowledgement follows
        self._acked_early[envelope_id] = None
        if len(self._acked_early) > MAX_PENDING:
            self._acked_early.popitem(last=False)

    def connection_ended(self, connection: _Connection) -> None:
        """A connection's receive loop ended: if it was the current one, the link to Slack is gone."""
        if connection is self._current and not self.closed:
            self.logger.info("socket mode connection lost, reconnecting")
            self._replace_in_background()

    # --- replacing the connection ---------------------------------------------------------------

    def _replace_in_background(self) -> None:
        """Ask for a replacement; a loop already replacing takes the request over (it looks again before it stops)."""
        self._wanted.set()
        if self.connect_operation_lock.acquire(blocking=False):
            threading.Thread(target=self._replace, name="socket-mode-connect", daemon=True).start()

    def _replace(self) -> None:
        """Open a connection, wait for its hello, make it current; again while another replacement was asked for
        meanwhile (a connection that dropped while it was being made) or the new one is not usable. Holds the lock."""
        delay = RETRY_DELAY
        try:
            while not self.closed and self._wanted.is_set():
                self._wanted.clear()
                fresh = self._open()
                if fresh is None:
                    self._wanted.set()
                    time.sleep(delay)
                    delay = min(delay * 2, MAX_RETRY_DELAY)
                    continue
                delay = RETRY_DELAY
                old, self._current = self._current, fresh
                if old is not None:
                    # Slack closes the connection it asked to replace; closing it ourselves at once could drop
                    # an envelope already on its way (the close handshake discards what arrives meanwhile).
                    threading.Timer(RETIRE_GRACE, old.close).start()
                self.logger.info("socket mode connected")
                if fresh.retiring.is_set() or not fresh.open:
                    self._wanted.set()  # Slack asked it to go, or it dropped, while it was being made
        finally:
            self.connect_operation_lock.release()
        if self._wanted.is_set() and not self.closed:
            self._replace_in_background()  # asked for after the loop's last look, before the lock was free

    def _watch(self) -> None:
        """Every ``WATCH_INTERVAL``: a connection that is gone without anyone asking for a replacement gets one."""
        while not self.closed:
            time.sleep(WATCH_INTERVAL)
            if not self.closed and not self.is_connected() and not self.connect_operation_lock.locked():
                self.logger.info("socket mode connection missing, reconnecting")
                self._replace_in_background()

    def _open(self) -> _Connection | None:
        try:
            connection = _Connection(self.issue_new_wss_url(), self)
        except Exception as error:  # apps.connections.open failed: logged by slack_sdk; try again
            self.logger.warning("socket mode url not issued", extra={"detail": type(error).__name__})
            return None
        connection.start()
        if connection.hello.wait(HELLO_TIMEOUT) and connection.open:
            return connection
        connection.close()
        self.logger.warning("socket mode connection without hello", extra={"detail": f"{HELLO_TIMEOUT:g} s"})
        return None


class _Route(Enum):
    PLAIN = "plain"  # commands, clicks, forms, events: the message threads
    CHECK = "check"  # a config check whose acknowledgement carries the answer or the form's reply: the check threads
    CHECK_ACKED = "check_acked"  # the shortcut, sharing: acknowledged on arrival (their ack is empty), then checked


def _route(message: dict[str, Any]) -> _Route:
    """Where an envelope is handled: config checks (``/effbatch prüfe``, the shortcut, the world-size form,
    sharing) on the check threads, everything else on the message threads."""
    payload = message.get("payload")
    if not isinstance(payload, dict):
        return _Route.PLAIN
    kind = message.get("type")
    if kind == "slash_commands":
        return _Route.CHECK if is_check(str(payload.get("text", ""))) else _Route.PLAIN
    if kind != "interactive":
        return _Route.PLAIN
    if acked_at_once(payload):
        return _Route.CHECK_ACKED
    return _Route.CHECK if runs_a_check(payload) else _Route.PLAIN


class SocketModeHandler(BaseSocketModeHandler):
    """Bolt's Socket Mode handling (``run_bolt_app``, ``send_response``) on ``ReliableSocketModeClient``."""

    client: ReliableSocketModeClient

    def __init__(
        self, app: App, app_token: str, ping_interval: float = 5, reconnect_seconds: float = 60, ping_timeout: float = 4
    ) -> None:
        self.app = app
        self.client = ReliableSocketModeClient(
            app_token, app.client, app.logger, ping_interval, reconnect_seconds, ping_timeout
        )
        self.client.socket_mode_request_listeners.append(self.handle)

    def connect(self) -> None:
        self.client.connect()

    def close(self) -> None:
        self.client.close()

    def handle(self, client: BaseSocketModeClient, req: SocketModeRequest) -> None:
        started = time.time()
        response = run_bolt_app(self.app, req)
        if not self.client.acked_early(req.envelope_id):
            send_response(client, req, response, started)

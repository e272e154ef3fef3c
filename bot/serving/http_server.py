"""HTTP mode: the ASGI app under uvicorn, an event loop in front of Bolt.

Why uvicorn and not gunicorn's threads: an idle or slow client costs an event-loop socket,
not a worker thread, so idle connections or a slowloris cannot starve the signed requests
behind them. Requests in flight are capped (``http_app.MAX_IN_FLIGHT``), sockets are not:
uvicorn's own cap counted idle sockets too, and ~1.100 of them, reopened after each timeout,
made signed commands and /healthz answer 503. Instead, on top of uvicorn's keep-alive
timeout and graceful shutdown, effbatch adds:

- a header timeout: a connection whose request headers are not complete ``HEADER_TIMEOUT``
  seconds after it opened, or after the first byte of its next request, is closed (uvicorn has
  none; the body timeout lives in ``http_app``);
- a bound on idle connections (no request in flight), per peer and per process: a new one
  closes the oldest – of its own peer first (``MAX_IDLE_PER_PEER``), so that one peer's swarm
  never closes another's kept-alive connection, then of all (``MAX_IDLE``). Slack's request comes
  on the newest connection and leaves the idle ones within milliseconds;
- a drain on SIGTERM: ``/readyz`` turns 503 at once while every request keeps being answered
  for ``drain_seconds`` (load balancers stop sending), then uvicorn stops accepting, finishes
  what is in flight and the process exits 0;
- several worker processes forked from one parent after the app is built (one ``auth.test``),
  each with its own event loop on the shared socket; the parent forwards SIGTERM and waits.
"""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import signal
import socket
import threading
from collections import OrderedDict
from collections.abc import Callable
from types import FrameType
from typing import Any

import uvicorn
from slack_bolt import App
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from effbatch.bot.check_runner import CheckPool
from effbatch.bot.operations.logs import flush_logs
from effbatch.bot.serving.http_app import SlackHTTP
from effbatch.bot.slack.app import PlainCommand

log = logging.getLogger("effbatch")

#: Seconds a client may take to send a request's headers, from connecting or from its next request's first byte.
HEADER_TIMEOUT = 2.0
#: Seconds an idle kept-alive connection stays open.
KEEP_ALIVE = 5
#: Idle connections one peer (an IP address) may hold in one process; a new one closes its oldest.
MAX_IDLE_PER_PEER = 256
#: Idle connections in one process (at most a quarter of its descriptor limit); a new one closes the oldest.
MAX_IDLE = 2048
#: Seconds in-flight requests get to finish once the drain is over, before they are cancelled.
GRACEFUL_TIMEOUT = 20

#: Set by SIGTERM: this process is draining and no longer ready.
draining = threading.Event()


class _IdleConnections:
    """This process's connections without a request in flight, oldest first: in all, and per peer."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._all: OrderedDict[_EdgeProtocol, None] = OrderedDict()
        self._by_peer: dict[str, OrderedDict[_EdgeProtocol, None]] = {}

    def add(self, connection: _EdgeProtocol) -> None:
        """``connection`` waits for a request; if its peer or the process holds too many, the oldest is closed."""
        self._all[connection] = None
        mine = self._by_peer.setdefault(connection.peer, OrderedDict())
        mine[connection] = None
        if len(mine) > MAX_IDLE_PER_PEER:
            self._close(next(iter(mine)))
        if len(self._all) > self.limit:
            self._close(next(iter(self._all)))

    def remove(self, connection: _EdgeProtocol) -> None:
        self._all.pop(connection, None)
        mine = self._by_peer.get(connection.peer)
        if mine is not None:
            mine.pop(connection, None)
            if not mine:
                del self._by_peer[connection.peer]

    def _close(self, connection: _EdgeProtocol) -> None:
        self.remove(connection)
        connection.transport.close()


class _EdgeProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request headers arrive too slowly, and counting
    its idle time against its peer's and the process's bound."""

    idle = _IdleConnections(MAX_IDLE)  # one per process: only this process's event loop touches it
    _headers_timer: asyncio.TimerHandle | None = None
    peer = ""

    # uvicorn narrows asyncio's BaseTransport to Transport in this very method, with the same ignore.
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.peer = self.client[0] if self.client else ""
        self._arm()
        self.idle.add(self)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._headers_timer is None:
            self._arm()  # a kept-alive connection's next request: its headers get the same time

    def on_headers_complete(self) -> None:
        self._disarm()
        self.idle.remove(self)
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self.idle.add(self)  # kept alive: waiting for the next request (uvicorn's keep-alive timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.idle.remove(self)
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._headers_timer = self.loop.call_later(HEADER_TIMEOUT, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._headers_timer is not None:
            self._headers_timer.cancel()
            self._headers_timer = None

    def _headers_too_slow(self) -> None:
        self._headers_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def _descriptors() -> int:
    """The process's descriptor limit, raised to the hard limit (each idle connection holds one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


class _DrainingServer(uvicorn.Server):
    """uvicorn's server, which on the first SIGTERM first drains for ``drain_seconds``, then shuts down."""

    def __init__(self, config: uvicorn.Config, drain_seconds: float) -> None:
        super().__init__(config)
        self._drain_seconds = drain_seconds

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if draining.is_set():
            super().handle_exit(sig, frame)  # a second signal: stop draining now
            return
        draining.set()
        log.info("draining", extra={"detail": f"{self._drain_seconds:g} s"})
        threading.Timer(self._drain_seconds, super().handle_exit, args=(sig, frame)).start()


def uvicorn_config(asgi: Any, host: str, port: int, trusted_proxies: list[str] | None = None) -> uvicorn.Config:
    """effbatch's uvicorn settings, for the bot and for the benchmark's baselines alike.

    A request from one of ``trusted_proxies`` (addresses or networks; uvicorn's default: loopback) has its client
    taken from X-Forwarded-For (uvicorn's ProxyHeadersMiddleware): the limits per peer then count the clients
    behind a proxy, not the proxy. From anyone else the header is ignored: it cannot be forged to dodge them."""
    return uvicorn.Config(
        asgi,
        host=host,
        port=port,
        http=_EdgeProtocol,
        lifespan="on",
        log_config=None,  # uvicorn's lines go through effbatch's handler: one format, tokens masked
        access_log=False,
        server_header=False,
        limit_concurrency=None,  # requests in flight are capped in http_app, idle connections here: not sockets
        timeout_keep_alive=KEEP_ALIVE,
        timeout_graceful_shutdown=GRACEFUL_TIMEOUT,
        proxy_headers=True,
        forwarded_allow_ips=trusted_proxies,
    )


def serve_http(
    app: App,
    signing_secret: str,
    host: str,
    port: int,
    workers: int,
    drain_seconds: float,
    checks: CheckPool | None = None,
    commands: PlainCommand | None = None,
    database_ready: Callable[[], bool] = lambda: True,
    trusted_proxies: list[str] | None = None,
) -> int:
    """Serve ``/slack/events`` and the health endpoints until SIGTERM; the exit code (0 after a clean drain).

    Each worker starts its own check processes when it starts serving and stops them when it stops; ``commands``
    answers plain commands without Bolt's dispatch (``create_bot``). ``/readyz`` is 503 while draining and while
    ``database_ready()`` says the database does not answer (it never waits: ``bot.storage.guard``). A request from
    one of ``trusted_proxies`` counts against the client its X-Forwarded-For names (``uvicorn_config``)."""
    asgi = SlackHTTP(
        app,
        signing_secret,
        ready=lambda: not draining.is_set() and database_ready(),
        checks=checks,
        commands=commands,
    )
    return serve_asgi(asgi, host, port, workers, drain_seconds, trusted_proxies)


def serve_asgi(
    asgi: Any, host: str, port: int, workers: int, drain_seconds: float, trusted_proxies: list[str] | None = None
) -> int:
    """Any ASGI app under effbatch's server configuration (the benchmark serves its baselines this way)."""
    config = uvicorn_config(asgi, host, port, trusted_proxies)
    _EdgeProtocol.idle.limit = min(MAX_IDLE, _descriptors() // 4)
    sock = config.bind_socket()
    if workers == 1:
        return _run_worker(config, sock, drain_seconds)
    return _supervise(config, sock, workers, drain_seconds)


def _run_worker(config: uvicorn.Config, sock: socket.socket, drain_seconds: float) -> int:
    # uvicorn re-raises the signal it shut down for once it is done; with these handlers that ends nothing.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: None)
    _DrainingServer(config, drain_seconds).run(sockets=[sock])
    return 0


def _supervise(config: uvicorn.Config, sock: socket.socket, workers: int, drain_seconds: float) -> int:
    """Fork ``workers`` processes on the shared socket, replace any that dies (logged), forward SIGTERM, wait for all.

    Once SIGTERM came no worker is started, and this process closes its copy of the listening socket: when the
    workers have closed theirs, new connections are refused rather than accepted into a backlog and reset."""
    children: set[int] = set()
    stopping = threading.Event()

    def stop(signum: int, _frame: FrameType | None) -> None:
        stopping.set()
        for pid in children:
            os.kill(pid, signal.SIGTERM)
        sock.close()

    def spawn() -> None:
        pid = os.fork()
        if pid == 0:  # the worker: serve, then leave without running the parent's clean-up (its lines written first)
            code = _run_worker(config, sock, drain_seconds)
            flush_logs()
            os._exit(code)
        children.add(pid)
        if stopping.is_set():  # the signal came between the check and the fork
            os.kill(pid, signal.SIGTERM)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    for _ in range(workers):
        spawn()
    failed = False
    while children:
        pid, status = os.wait()
        children.discard(pid)
        code = os.waitstatus_to_exitcode(status)
        failed |= code != 0
        if stopping.is_set():
            continue
        log.warning("worker exited, starting another", extra={"detail": f"pid {pid}, {_exit_reason(code)}"})
        if not stopping.wait(1):  # a worker that cannot start does not make this spin; SIGTERM ends the wait
            spawn()
    return 1 if failed else 0


def _exit_reason(code: int) -> str:
    """``exit code 1`` or ``signal SIGKILL``, as os.waitstatus_to_exitcode reports it."""
    return f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"


def serve_health_in_background(
    ready: Callable[[], bool], host: str, port: int, alive: Callable[[], bool] = lambda: True
) -> uvicorn.Server:
    """The health endpoints alone, on a thread (Socket Mode); stop it with ``server.should_exit = True``."""
    server = uvicorn.Server(uvicorn_config(SlackHTTP(None, ready=ready, alive=alive), host, port))
    threading.Thread(target=server.run, name="health", daemon=True).start()
    return server

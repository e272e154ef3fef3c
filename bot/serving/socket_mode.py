"""Socket Mode: an outbound WebSocket to Slack, plus the health endpoints on a local port."""

from __future__ import annotations

import signal
import threading

from slack_bolt import App

from effbatch.bot.serving.http_server import serve_health_in_background
from effbatch.bot.serving.socket_client import SocketModeHandler

#: Seconds between pings, and the seconds a ping's answer may take: a connection silent for both is frozen.
PING_INTERVAL = 5
PING_TIMEOUT = 4


def serve_socket_mode(app: App, app_token: str, host: str, port: int, reconnect_seconds: float = 60) -> None:
    """Connect to Slack and answer until SIGTERM or SIGINT; ``/readyz`` is 200 only after Slack's hello, and
    ``/healthz`` fails once no connection could be made for ``reconnect_seconds`` (a restart may help).

    On the signal the WebSocket is closed (Slack then sends new events to the other
    connections of the app) and the health server stops; this takes a few seconds at most.
    """
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    # Pings every 5 s; a connection that drops without a close frame is noticed on the next read or ping, one that
    # freezes (half-open) once nothing was heard on it for 5 + 4 s.
    handler = SocketModeHandler(app, app_token, PING_INTERVAL, reconnect_seconds, PING_TIMEOUT)
    health = serve_health_in_background(handler.client.is_connected, host, port, alive=handler.client.is_alive)
    try:
        handler.connect()
        stop.wait()
    finally:
        handler.close()
        health.should_exit = True

"""Socket Mode: an outbound WebSocket to Slack, plus the health endpoints on a local port."""

from __future__ import annotations

import signal
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from slack_bolt import App
from slack_bolt.adapter.socket_mode.websocket_client import SocketModeHandler

from bot.serving.health import with_health

PING_INTERVAL = 5


class _ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Health probes every few seconds are not worth a log line."""


def serve_socket_mode(app: App, app_token: str, host: str, port: int) -> None:
    """Connect to Slack and answer until SIGTERM or SIGINT; ``/readyz`` reports the connection.

    On the signal the WebSocket is closed (Slack then sends new events to the other
    connections of the app) and the health server stops; this takes a few seconds at most.
    """
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    # Pings every 5 s; a connection that drops without a close frame is noticed on the next read or ping.
    handler = SocketModeHandler(app, app_token, ping_interval=PING_INTERVAL)
    health = make_server(
        host,
        port,
        with_health(None, ready=handler.client.is_connected),
        server_class=_ThreadingWSGIServer,
        handler_class=_QuietHandler,
    )
    threading.Thread(target=health.serve_forever, name="health", daemon=True).start()
    try:
        handler.connect()
        stop.wait()
    finally:
        handler.close()
        health.shutdown()
        health.server_close()

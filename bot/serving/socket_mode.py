"""Socket Mode: an outbound WebSocket to Slack, plus the health endpoints on a local port."""

from __future__ import annotations

import signal
import threading
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.socket_mode.websocket_client import SocketModeHandler
from slack_sdk.socket_mode.client import BaseSocketModeClient

from bot.serving.http_server import serve_health_in_background

PING_INTERVAL = 5


class HelloSeen:
    """Ready only once Slack said ``hello`` on the connection that is current now.

    slack_sdk's ``is_connected()`` is true as soon as the WebSocket handshake is done; a server
    that never sends ``hello`` (or a connection about to be replaced) is not ready to answer.
    """

    def __init__(self, client: BaseSocketModeClient) -> None:
        self._client = client
        self._session: object | None = None
        client.message_listeners.append(self._on_message)

    def _on_message(self, client: BaseSocketModeClient, message: dict[str, Any], raw: str | None) -> None:
        if message.get("type") == "hello":
            self._session = getattr(client, "current_session", None)

    def __call__(self) -> bool:
        current = getattr(self._client, "current_session", None)
        return self._client.is_connected() and current is not None and current is self._session


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
    health = serve_health_in_background(HelloSeen(handler.client), host, port)
    try:
        handler.connect()
        stop.wait()
    finally:
        handler.close()
        health.should_exit = True

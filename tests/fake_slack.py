"""Local stand-ins for Slack: the Web API over HTTP and the Socket Mode WebSocket.

Both listen on 127.0.0.1 only, record what they receive and answer as Slack
documents it (https://api.slack.com/methods/auth.test,
https://api.slack.com/methods/apps.connections.open, https://api.slack.com/apis/socket-mode).
"""

from __future__ import annotations

import json
import queue
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

BOT_TOKEN = "xoxb-test-token"
APP_TOKEN = "xapp-test-token"
TEAM_ID = "T0TEST"


class FakeWebAPI:
    """Answers ``auth.test`` and ``apps.connections.open`` for the right tokens; records every call."""

    def __init__(self, socket_mode_url: str | None = None) -> None:
        self.socket_mode_url = socket_mode_url
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/api/"

    def method_calls(self, method: str) -> list[dict[str, Any]]:
        return [params for name, params in self.calls if name == method]

    def __enter__(self) -> FakeWebAPI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, method: str, token: str | None) -> dict[str, Any]:
        if method == "auth.test":
            if token != BOT_TOKEN:
                return {"ok": False, "error": "invalid_auth"}
            return {"ok": True, "team_id": TEAM_ID, "team": "Test", "user_id": "U0BOT", "bot_id": "B0BOT"}
        if method == "apps.connections.open":
            if token != APP_TOKEN or self.socket_mode_url is None:
                return {"ok": False, "error": "invalid_auth"}
            return {"ok": True, "url": self.socket_mode_url}
        return {"ok": False, "error": "unknown_method"}

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length).decode()
                params = {k: v[0] for k, v in parse_qs(body).items()} if body else {}
                method = self.path.rsplit("/", 1)[-1]
                fake.calls.append((method, params))
                auth = self.headers.get("Authorization", "")
                token = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else params.get("token")
                payload = json.dumps(fake.answer(method, token)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: object) -> None:
                pass

        return Handler


class FakeSocketModeServer:
    """Slack's side of a Socket Mode connection: says hello, sends envelopes, collects acks."""

    def __init__(self) -> None:
        self.acks: queue.Queue[dict[str, Any]] = queue.Queue()
        self.connections = 0
        self._outbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self._server: Server = serve(self._handle, "127.0.0.1", 0)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.socket.getsockname()[:2]
        return f"ws://{host}:{port}/link/?ticket=test"

    def __enter__(self) -> FakeSocketModeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()

    def send_slash_command(self, text: str, command: str = "/effbatch") -> str:
        """Queue a ``slash_commands`` envelope; returns its envelope_id."""
        envelope_id = str(uuid.uuid4())
        payload = {
            "token": "legacy",
            "team_id": TEAM_ID,
            "team_domain": "test",
            "channel_id": "C0TEST",
            "channel_name": "planung",
            "user_id": "U0USER",
            "user_name": "ada",
            "command": command,
            "text": text,
            "api_app_id": "A0TEST",
            "response_url": "https://hooks.slack.com/commands/T0TEST/1/abc",
            "trigger_id": "1.2.3",
        }
        self._outbox.put(
            {
                "envelope_id": envelope_id,
                "payload": payload,
                "type": "slash_commands",
                "accepts_response_payload": True,
            }
        )
        return envelope_id

    def wait_for_ack(self, envelope_id: str, timeout: float = 10) -> dict[str, Any]:
        """The bot's acknowledgement of ``envelope_id``."""
        while True:
            ack = self.acks.get(timeout=timeout)
            if ack.get("envelope_id") == envelope_id:
                return ack

    def _handle(self, connection: ServerConnection) -> None:
        self.connections += 1
        connection.send(
            json.dumps(
                {
                    "type": "hello",
                    "num_connections": 1,
                    "debug_info": {"host": "fake", "approximate_connection_time": 18060},
                    "connection_info": {"app_id": "A0TEST"},
                }
            )
        )
        sender = threading.Thread(target=self._send_outbox, args=(connection,), daemon=True)
        sender.start()
        try:
            for message in connection:
                self.acks.put(json.loads(message))
        except ConnectionClosed:
            pass

    def _send_outbox(self, connection: ServerConnection) -> None:
        while True:
            envelope = self._outbox.get()
            try:
                connection.send(json.dumps(envelope))
            except ConnectionClosed:
                self._outbox.put(envelope)
                return

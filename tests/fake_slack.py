"""Local stand-ins for Slack: the Web API over HTTP and the Socket Mode WebSocket.

Both listen on 127.0.0.1 only, record what they receive and answer as Slack
documents it (https://api.slack.com/methods/auth.test,
https://api.slack.com/methods/apps.connections.open, https://api.slack.com/methods/chat.postMessage, https://api.slack.com/apis/socket-mode).
OAuth v2 as https://api.slack.com/methods/oauth.v2.access documents it: a code Slack would hand the browser
(``grant``) is exchanged once for that workspace's bot token; with token rotation on (``rotation_seconds``)
each answer carries a refresh token, exchanged with ``grant_type=refresh_token`` for a new pair
(https://api.slack.com/authentication/rotation).
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import json
import queue
import socket
import threading
import time
import uuid
from collections import defaultdict, deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

import slack_payloads
from slack_payloads import TEAM_ID

BOT_TOKEN = "xoxb-test-token"
APP_TOKEN = "xapp-test-token"
#: The app's OAuth credentials (``SLACK_CLIENT_ID``, ``SLACK_CLIENT_SECRET``) the stand-in accepts.
CLIENT_ID = "1111.2222"
CLIENT_SECRET = "test-client-secret"


@dataclass
class Reply:
    """A scripted answer: an HTTP status, a JSON body, headers, and an optional delay before it.

    For ``oauth.v2.access``, ``exchange`` first does what Slack does (the code or refresh token is spent, a new
    token issued) and then answers as scripted – with the real answer where ``body`` is None. Any reply can be
    held until ``hold`` is set, and ``drop``-ped: the connection closed without an answer."""

    status: int = 200
    body: dict[str, Any] | None = field(default_factory=lambda: {"ok": True})
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    exchange: bool = False
    hold: threading.Event | None = None
    drop: bool = False

    def wait(self) -> None:
        """The scripted stall: the hold (a hang guard of a minute ends one nobody releases), then the delay."""
        if self.hold is not None:
            self.hold.wait(60)
        time.sleep(self.delay)


class FakeWebAPI:
    """Slack's Web API and response URLs on loopback.

    Answers ``auth.test``, ``apps.connections.open``, ``views.open``, ``views.publish`` and
    ``chat.postMessage`` as Slack documents them; ``script(method, *replies)`` queues failures (429 with
    Retry-After, 500, errors, delays) that are served before the normal answer. Response
    URLs live under ``/response/<name>``; what is posted there is in ``responses``.
    """

    def __init__(self, socket_mode_url: str | None = None) -> None:
        self.socket_mode_url = socket_mode_url
        self.calls: list[tuple[str, dict[str, Any]]] = []
        #: (method, token) of every Web API call: which workspace's token the bot used.
        self.tokens_used: list[tuple[str, str | None]] = []
        #: OAuth: codes not yet exchanged, issued bot tokens and refresh tokens, each → its workspace.
        self.codes: dict[str, str] = {}
        self.team_tokens: dict[str, str] = {}
        self.refresh_tokens: dict[str, str] = {}
        #: Seconds an issued token lives (token rotation on); None: tokens that never expire.
        self.rotation_seconds: int | None = None
        self._issued = 0
        self.responses: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        #: Files uploaded as files_upload_v2 does (to the URL files.getUploadURLExternal gave): file id → bytes.
        self.uploads: dict[str, bytes] = {}
        self._scripts: dict[str, deque[Reply]] = defaultdict(deque)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/api/"

    def method_calls(self, method: str) -> list[dict[str, Any]]:
        return [params for name, params in self.calls if name == method]

    def reset(self) -> None:
        """Forget recorded calls and posts and any script not yet served."""
        self.calls.clear()
        self.uploads.clear()
        self._scripts.clear()
        while not self.responses.empty():
            self.responses.get_nowait()

    def refuse_uploads(self, error: str = "missing_scope") -> None:
        """The next upload refused as Slack refuses it: ``files.getUploadURLExternal`` answers ``error``
        (``missing_scope`` without files:write, ``not_in_channel`` …)."""
        self.script("files.getUploadURLExternal", Reply(body={"ok": False, "error": error}))

    def script(self, method: str, *replies: Reply) -> None:
        """Serve ``replies`` to the next calls of ``method`` ("response" for response URLs)."""
        self._scripts[method].extend(replies)

    def response_url(self, name: str = "cmd") -> str:
        return self.url.replace("/api/", f"/response/{name}")

    def next_response(self, timeout: float = 10) -> tuple[str, dict[str, Any]]:
        """The next (name, payload) posted to a response URL."""
        return self.responses.get(timeout=timeout)

    def __enter__(self) -> FakeWebAPI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def grant(self, team: str) -> str:
        """The code Slack's consent page would send to the redirect URL after ``team`` installed the app."""
        code = f"code-{team}-{uuid.uuid4().hex[:8]}"
        self.codes[code] = team
        return code

    def team_of(self, token: str | None) -> str | None:
        """The workspace a bot token belongs to (the single-workspace test token: ``TEAM_ID``)."""
        return TEAM_ID if token == BOT_TOKEN else self.team_tokens.get(token or "")

    def _oauth_access(self, params: dict[str, Any], client: tuple[str, str] | None) -> dict[str, Any]:
        if client != (CLIENT_ID, CLIENT_SECRET):
            return {"ok": False, "error": "invalid_client_id"}
        if params.get("grant_type") == "refresh_token":
            team = self.refresh_tokens.pop(str(params.get("refresh_token")), None)
            if team is None:
                return {"ok": False, "error": "invalid_refresh_token"}
        else:
            team = self.codes.pop(str(params.get("code")), None)
            if team is None:
                return {"ok": False, "error": "invalid_code"}
        self._issued += 1
        token = f"xoxb-{team}-{self._issued}"
        self.team_tokens[token] = team
        answer = {
            "ok": True,
            "app_id": "A0TEST",
            "authed_user": {"id": "U0INSTALLER"},
            "scope": "commands,chat:write,links:read,links:write",
            "token_type": "bot",
            "access_token": token,
            "bot_user_id": "U0BOT",
            "team": {"id": team, "name": f"Workspace {team}"},
            "enterprise": None,
            "is_enterprise_install": False,
        }
        if self.rotation_seconds is not None:
            refresh = f"xoxe-1-{team}-{self._issued}"
            self.refresh_tokens[refresh] = team
            answer |= {"refresh_token": refresh, "expires_in": self.rotation_seconds}
        return answer

    def answer(self, method: str, token: str | None) -> dict[str, Any]:
        if method == "auth.test":
            team = self.team_of(token)
            if team is None:
                return {"ok": False, "error": "invalid_auth"}
            return {"ok": True, "team_id": team, "team": "Test", "user_id": "U0BOT", "bot_id": "B0BOT"}
        if method == "apps.connections.open":
            if token != APP_TOKEN or self.socket_mode_url is None:
                return {"ok": False, "error": "invalid_auth"}
            return {"ok": True, "url": self.socket_mode_url}
        if method in ("views.open", "views.publish"):
            if self.team_of(token) is None:
                return {"ok": False, "error": "invalid_auth"}
            return {"ok": True, "view": {"id": "V0TEST"}}
        if method in ("chat.unfurl", "chat.postEphemeral"):
            return {"ok": self.team_of(token) is not None} | ({} if self.team_of(token) else {"error": "invalid_auth"})
        if method == "chat.postMessage":
            if self.team_of(token) is None:
                return {"ok": False, "error": "invalid_auth"}
            return {"ok": True, "channel": "C0TEST", "ts": "1700000009.000900"}
        return self._files_answer(method, token)

    def _files_answer(self, method: str, token: str | None) -> dict[str, Any]:
        """files_upload_v2's steps (https://api.slack.com/methods/files.getUploadURLExternal,
        https://api.slack.com/methods/files.completeUploadExternal) and ``chat.update``."""
        if self.team_of(token) is None:
            return {"ok": False, "error": "invalid_auth"}
        if method == "files.getUploadURLExternal":
            file_id = f"F0{uuid.uuid4().hex[:8].upper()}"
            return {"ok": True, "upload_url": self.url.replace("/api/", f"/upload/{file_id}"), "file_id": file_id}
        if method == "files.completeUploadExternal":
            return {"ok": True, "files": [{"id": "F0TEST", "title": "chart"}]}
        if method == "chat.update":
            return {"ok": True, "channel": "C0TEST", "ts": "1700000009.000900"}
        return {"ok": False, "error": "unknown_method"}

    def _reply(self, method: str, token: str | None) -> Reply:
        scripted = self._scripts.get(method)
        if scripted:
            return scripted.popleft()
        return Reply(body=self.answer(method, token))

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                if self.path.startswith("/upload/"):  # a file's bytes, to the URL getUploadURLExternal gave
                    fake.uploads[self.path.removeprefix("/upload/")] = self.rfile.read(length)
                    self._send(Reply(body={"ok": True}))
                    return
                body = self.rfile.read(length).decode()
                if self.headers.get("Content-Type", "").startswith("application/json"):
                    params = json.loads(body) if body else {}
                else:
                    params = {k: v[0] for k, v in parse_qs(body).items()} if body else {}
                if self.path.startswith("/response/"):
                    reply = fake._scripts["response"].popleft() if fake._scripts["response"] else Reply()
                    reply.wait()
                    if reply.status == 200:
                        fake.responses.put((self.path.removeprefix("/response/"), params))
                    self._send(reply)
                    return
                method = self.path.rsplit("/", 1)[-1]
                fake.calls.append((method, params))
                auth = self.headers.get("Authorization", "")
                token = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else params.get("token")
                fake.tokens_used.append((method, token))
                if method == "oauth.v2.access" and not fake._scripts.get(method):
                    self._send(Reply(body=fake._oauth_access(params, _basic(auth))))
                    return
                reply = fake._reply(method, token)
                if reply.exchange:
                    done = fake._oauth_access(params, _basic(auth))
                    reply = dataclasses.replace(reply, body=done if reply.body is None else reply.body)
                if reply.hold is not None:
                    reply.hold.wait(60)
                time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self._send(reply)

            def _send(self, reply: Reply) -> None:
                payload = json.dumps(reply.body if reply.body is not None else {"ok": True}).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a timeout test)

            def log_message(self, format: str, *args: object) -> None:
                pass

        return Handler


def _basic(header: str) -> tuple[str, str] | None:
    """Client id and secret from an HTTP Basic ``Authorization`` header, as slack_sdk sends them."""
    if not header.startswith("Basic "):
        return None
    user, _, password = base64.b64decode(header.removeprefix("Basic ")).decode().partition(":")
    return user, password


class FakeSocketModeServer:
    """Slack's side of Socket Mode: says hello, sends envelopes, collects acks, rotates connections.

    As Slack does, it sends each envelope on one live connection (the newest), keeps envelopes
    while there is none, and after a ``disconnect`` message sends nothing more on that
    connection and closes it shortly after the client has opened a new one. ``hello=False``
    plays a server that accepts the WebSocket but never says hello.
    """

    #: Seconds a retiring connection stays open after its replacement arrived (acks still in flight).
    RETIRE_AFTER = 1.0

    def __init__(self, hello: bool = True) -> None:
        self.acks: queue.Queue[dict[str, Any]] = queue.Queue()
        self.connections = 0
        self._hello = hello
        #: New connections still to be cut right after their hello, while the client is making them current.
        self.drop_after_hello = 0
        self._lock = threading.Lock()
        self._live: list[ServerConnection] = []
        self._retiring: list[ServerConnection] = []
        self._pending: deque[str] = deque()
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

    def send_envelope(self, kind: str, payload: dict[str, Any]) -> str:
        """Send an envelope of ``kind`` (e.g. "interactive"); returns its envelope_id."""
        envelope_id = str(uuid.uuid4())
        envelope = {"envelope_id": envelope_id, "payload": payload, "type": kind, "accepts_response_payload": True}
        self._deliver(json.dumps(envelope))
        return envelope_id

    def send_slash_command(self, text: str, response_url: str = "https://hooks.slack.com/commands/1") -> str:
        """Send a ``slash_commands`` envelope; returns its envelope_id."""
        return self.send_envelope("slash_commands", slack_payloads.command(text, response_url))

    def wait_for_ack(self, envelope_id: str, timeout: float = 10) -> dict[str, Any]:
        """The bot's acknowledgement of ``envelope_id``."""
        while True:
            ack = self.acks.get(timeout=timeout)
            if ack.get("envelope_id") == envelope_id:
                return ack

    def send_disconnect(self) -> None:
        """Ask the client to reconnect, as Slack does before rotating a connection; route nothing more there."""
        with self._lock:
            if not self._live:
                return
            retiring = self._live.pop()
            self._retiring.append(retiring)
        with contextlib.suppress(ConnectionClosed):
            retiring.send(json.dumps({"type": "disconnect", "reason": "refresh_requested", "debug_info": {}}))

    def drop(self) -> None:
        """Cut the current connection without a close frame, as a failing network does."""
        with self._lock:
            current = self._live[-1] if self._live else None
        if current is not None:
            current.socket.shutdown(socket.SHUT_RDWR)

    def _deliver(self, text: str) -> None:
        with self._lock:
            target = self._live[-1] if self._live else None
            if target is None:
                self._pending.append(text)
                return
        try:
            target.send(text)
        except ConnectionClosed:
            with self._lock:
                self._pending.append(text)

    def _handle(self, connection: ServerConnection) -> None:
        self.connections += 1
        if self._hello:
            hello = {"type": "hello", "num_connections": 1, "connection_info": {"app_id": "A0TEST"}}
            connection.send(json.dumps(hello))
            if self.drop_after_hello > 0:
                self.drop_after_hello -= 1
                connection.socket.shutdown(socket.SHUT_RDWR)  # no close frame: a network that fails
                return
            with self._lock:
                retired, self._retiring = self._retiring, []
                self._live.append(connection)
                pending, self._pending = list(self._pending), deque()
            for old in retired:
                threading.Timer(self.RETIRE_AFTER, old.close).start()
            for text in pending:
                self._deliver(text)
        try:
            for message in connection:
                self.acks.put(json.loads(message))
        except ConnectionClosed:
            pass
        finally:
            with self._lock:
                if connection in self._live:
                    self._live.remove(connection)


class FreezingProxy:
    """A TCP proxy on loopback in front of ``target`` that can freeze: from ``freeze()`` on, nothing is forwarded
    either way and nothing is closed – a half-open connection, as a NAT or a load balancer that dropped its state
    leaves it (no FIN, no RST: the client's sends still succeed, its reads wait). New connections are accepted
    and frozen too."""

    def __init__(self, target: tuple[str, int]) -> None:
        self._target = target
        self._frozen = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def port(self) -> int:
        return int(self._listener.getsockname()[1])

    def freeze(self) -> None:
        self._frozen.set()

    def close(self) -> None:
        self._listener.close()
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self._sockets.append(client)
            if self._frozen.is_set():
                continue  # accepted, never answered
            upstream = socket.create_connection(self._target)
            self._sockets.append(upstream)
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data or self._frozen.is_set():
                if not data:
                    with contextlib.suppress(OSError):
                        sink.shutdown(socket.SHUT_WR)
                return  # frozen: what arrives from now on is neither forwarded nor answered
            try:
                sink.sendall(data)
            except OSError:
                return

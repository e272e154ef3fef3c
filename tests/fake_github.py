"""A local stand-in for raw.githubusercontent.com on 127.0.0.1: files of public repositories by path, a private
repository's (404, as GitHub answers without a token), a file that trickles, one over 1 MiB, a redirect, and
answers whose status line or headers stall (a byte every 0,5 s for 30 s)."""

from __future__ import annotations

import contextlib
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeGitHub:
    """``files`` maps ``/OWNER/REPO/REF/PATH`` to bytes; ``requests`` records (path, headers) of every GET."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.trickle: set[str] = set()  # paths sent a byte every 0.5 s
        self.redirects: dict[str, str] = {}
        #: paths whose answer stalls before the body: in the status line ("status") or the headers ("headers").
        self.stalls: dict[str, str] = {}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/"

    def __enter__(self) -> FakeGitHub:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                fake.requests.append((self.path, dict(self.headers.items())))
                if self.path in fake.redirects:
                    self.send_response(302)
                    self.send_header("Location", fake.redirects[self.path])
                    self.end_headers()
                    return
                body = fake.files.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                if self.path in fake.stalls:
                    with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the bot gave up
                        self._stalled(body, fake.stalls[self.path])
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the bot gave up, as it should
                    self._write(body, self.path in fake.trickle)

            def _write(self, body: bytes, trickle: bool) -> None:
                if not trickle:
                    self.wfile.write(body)
                    return
                for byte in body[:20]:  # at most 10 s, then the stand-in stops by itself
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.5)

            def _stalled(self, body: bytes, where: str) -> None:
                """The answer written by hand, its status line (a long reason phrase) or its headers (a long one
                first) a byte every 0,5 s – each byte well within any socket timeout, 30 s in all – then the rest."""
                status = b"HTTP/1.0 200 " + b"O" * 60 + b"\r\n"
                headers = b"X-Stall: " + b"x" * 60 + b"\r\nContent-Length: %d\r\n\r\n" % len(body)
                slow, fast = (status, headers) if where == "status" else (headers, b"")
                self.wfile.write(b"" if where == "status" else status)
                for byte in slow[:60]:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.5)
                self.wfile.write(slow[60:] + fast + body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        return Handler

"""The operational endpoints, as a WSGI layer in front of the Slack handler.

In HTTP mode they share the port with ``/slack/events``: route only that path from
the internet (the Kubernetes manifests and the README do so).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from bot.operations.metrics import exposition

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

#: One header; each response gets a fresh list, since servers (wsgiref) append Content-Length to it.
_TEXT = ("Content-Type", "text/plain; charset=utf-8")


def with_health(inner: WSGIApplication | None, ready: Callable[[], bool] = lambda: True) -> WSGIApplication:
    """``/healthz`` (alive), ``/readyz`` (``ready()``) and ``/metrics`` answered here, the rest by ``inner``."""

    def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
        if method in ("GET", "HEAD") and path == "/healthz":
            start_response("200 OK", [_TEXT])
            return [b"ok\n"]
        if method in ("GET", "HEAD") and path == "/metrics":
            body, content_type = exposition()
            start_response("200 OK", [("Content-Type", content_type)])
            return [body]
        if method in ("GET", "HEAD") and path == "/readyz":
            if ready():
                start_response("200 OK", [_TEXT])
                return [b"ready\n"]
            start_response("503 Service Unavailable", [_TEXT])
            return [b"not ready\n"]
        if inner is None:
            start_response("404 Not Found", [_TEXT])
            return [b"not found\n"]
        return inner(environ, start_response)

    return app

"""HTTP mode: Bolt's WSGI handler behind gunicorn, with the health endpoints beside it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gunicorn import glogging
from gunicorn.app.base import BaseApplication
from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler

from bot.operations.metrics import worker_exited
from bot.serving.health import with_health
from bot.serving.request_guard import guard

if TYPE_CHECKING:
    from wsgiref.types import WSGIApplication

EVENTS_PATH = "/slack/events"
THREADS_PER_WORKER = 4
#: Seconds SIGTERM waits for in-flight requests before workers are killed.
GRACEFUL_TIMEOUT = 20


def create_wsgi_app(app: App, signing_secret: str) -> WSGIApplication:
    """``POST /slack/events`` through the request guard to Bolt; ``/healthz``, ``/readyz``, ``/metrics`` beside it."""
    return with_health(guard(SlackRequestHandler(app, path=EVENTS_PATH), signing_secret, EVENTS_PATH))


class _GunicornLogger(glogging.Logger):  # type: ignore[misc]
    """gunicorn's own messages through effbatch's handler: the same format (plain or JSON), tokens masked."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.handlers.clear()
            log.propagate = True


class _Server(BaseApplication):  # type: ignore[misc]
    """gunicorn, configured in code rather than from argv or a config file."""

    def __init__(self, wsgi: WSGIApplication, options: dict[str, Any]) -> None:
        self._wsgi = wsgi
        self._options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)

    def load(self) -> WSGIApplication:
        return self._wsgi


def serve_http(app: App, signing_secret: str, host: str, port: int, workers: int) -> None:
    """Serve until SIGTERM/SIGINT; gunicorn lets in-flight requests finish first."""
    serve_wsgi(create_wsgi_app(app, signing_secret), host, port, workers)


def serve_wsgi(wsgi: WSGIApplication, host: str, port: int, workers: int) -> None:
    """Any WSGI app under effbatch's gunicorn configuration (the benchmark serves its baselines this way)."""
    options = {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": THREADS_PER_WORKER,
        "graceful_timeout": GRACEFUL_TIMEOUT,
        "control_socket_disable": True,
        "accesslog": None,
        "proc_name": "effbatch-bot",
        "logger_class": _GunicornLogger,
        "child_exit": lambda _arbiter, worker: worker_exited(worker.pid),
    }
    _Server(wsgi, options).run()

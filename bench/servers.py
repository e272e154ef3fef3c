"""The benchmark's baselines, served under effbatch's own gunicorn configuration.

    python bench/servers.py bolt|bolt-pbr|floor PORT WORKERS

bolt      a bare Bolt app whose listener acks a constant text, with Bolt's defaults
bolt-pbr  the same with process_before_response=True
floor     a minimal WSGI responder: read the body, check the HMAC signature, return constant JSON

Environment: SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_API_URL (a local Web API stand-in).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sys
import time
from collections.abc import Iterable
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk import WebClient

from bot.serving.http_server import serve_wsgi

CONSTANT = b'{"response_type": "in_channel", "text": "B = 2.048"}'


def bolt_app(process_before_response: bool) -> Any:
    client = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])
    app = App(
        client=client,
        signing_secret=os.environ["SLACK_SIGNING_SECRET"],
        process_before_response=process_before_response,
    )

    @app.command("/effbatch")
    def constant(ack: Any) -> None:
        ack("B = 2.048")

    return SlackRequestHandler(app)


def floor_app() -> Any:
    secret = os.environ["SLACK_SIGNING_SECRET"].encode()

    def app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        timestamp = environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP", "0")
        expected = "v0=" + hmac.new(secret, b"v0:" + timestamp.encode() + b":" + body, hashlib.sha256).hexdigest()
        fresh = timestamp.isdigit() and abs(time.time() - int(timestamp)) <= 300
        if not (fresh and hmac.compare_digest(expected, environ.get("HTTP_X_SLACK_SIGNATURE", ""))):
            start_response("401 Unauthorized", [("Content-Type", "application/json")])
            return [b"{}"]
        start_response("200 OK", [("Content-Type", "application/json")])
        return [CONSTANT]

    return app


if __name__ == "__main__":
    kind, port, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    wsgi = {"bolt": lambda: bolt_app(False), "bolt-pbr": lambda: bolt_app(True), "floor": floor_app}[kind]()
    serve_wsgi(wsgi, "127.0.0.1", port, workers)

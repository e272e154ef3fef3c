"""The benchmark's baselines, served under effbatch's own server configuration (uvicorn, same workers).

    python bench/servers.py bolt|bolt-pbr|floor PORT WORKERS

bolt      a bare Bolt app whose listener acks a constant text, with Bolt's defaults, through Bolt's own ASGI adapter
bolt-pbr  the same with process_before_response=True
floor     a minimal ASGI responder: read the body, check the HMAC signature, return constant JSON

Environment: SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_API_URL (a local Web API stand-in).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sys
import time
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.asgi import SlackRequestHandler
from slack_sdk import WebClient

from effbatch.bot.serving.http_server import serve_asgi

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

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (message := await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        headers = dict(scope["headers"])
        timestamp = headers.get(b"x-slack-request-timestamp", b"0")
        expected = b"v0=" + hmac.new(secret, b"v0:" + timestamp + b":" + body, hashlib.sha256).hexdigest().encode()
        fresh = timestamp.isdigit() and abs(time.time() - int(timestamp)) <= 300
        ok = fresh and hmac.compare_digest(expected, headers.get(b"x-slack-signature", b""))
        status, answer = (200, CONSTANT) if ok else (401, b"{}")
        await send(
            {"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]}
        )
        await send({"type": "http.response.body", "body": answer})

    return app


if __name__ == "__main__":
    kind, port, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    asgi = {"bolt": lambda: bolt_app(False), "bolt-pbr": lambda: bolt_app(True), "floor": floor_app}[kind]()
    sys.exit(serve_asgi(asgi, "127.0.0.1", port, workers, drain_seconds=0))

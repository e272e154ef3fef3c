"""HTTP mode's install pages: ``GET /slack/install`` and ``GET /slack/oauth_redirect``, answered by Bolt's OAuthFlow.

They exist only when effbatch is installed to any workspace (``SLACK_CLIENT_ID``); the flow reads and writes
the database and calls ``oauth.v2.access``, so it runs on the dispatch threads, never on the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from concurrent.futures import Executor
from typing import Any

from slack_bolt import App, BoltRequest, BoltResponse


def is_oauth_path(app: App | None, path: str) -> bool:
    flow = app.oauth_flow if app is not None else None
    return flow is not None and path in (flow.install_path, flow.redirect_uri_path)


async def oauth_response(app: App, scope: Mapping[str, Any], threads: Executor) -> BoltResponse:
    """The install page (a link to Slack's consent page, the state in a cookie) or the redirect's outcome."""
    flow = app.oauth_flow
    assert flow is not None  # is_oauth_path checked it
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
    request = BoltRequest(body="", query=scope.get("query_string", b"").decode("latin-1"), headers=headers)
    handle = flow.handle_installation if scope["path"] == flow.install_path else flow.handle_callback
    return await asyncio.get_running_loop().run_in_executor(threads, handle, request)


def response_headers(response: BoltResponse) -> list[tuple[bytes, bytes]]:
    """Bolt's headers (several Set-Cookie among them) as ASGI's pairs, without the length ASGI sets itself."""
    return [
        (name.encode("latin-1"), value.encode("latin-1"))
        for name, values in response.headers.items()
        if name != "content-length"
        for value in values
    ]

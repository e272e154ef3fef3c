"""Shared fixtures: the local Slack stand-ins.

pytest puts this folder on sys.path, so the helper modules beside the tests
(``fake_slack``, ``slack_checks`` …) import by name.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fake_slack import FakeSocketModeServer, FakeWebAPI


@pytest.fixture
def socket_mode_server() -> Iterator[FakeSocketModeServer]:
    with FakeSocketModeServer() as server:
        yield server


@pytest.fixture
def web_api(socket_mode_server: FakeSocketModeServer) -> Iterator[FakeWebAPI]:
    with FakeWebAPI(socket_mode_url=socket_mode_server.url) as api:
        yield api

"""Shared fixtures: the local Slack stand-ins and an HTTP bot per test module.

pytest puts this folder on sys.path, so the helper modules beside the tests
(``fake_slack``, ``slack_checks`` …) import by name.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot_process import BotProcess, start_http_bot
from fake_slack import FakeSocketModeServer, FakeWebAPI


@pytest.fixture
def socket_mode_server() -> Iterator[FakeSocketModeServer]:
    with FakeSocketModeServer() as server:
        yield server


@pytest.fixture
def web_api(socket_mode_server: FakeSocketModeServer) -> Iterator[FakeWebAPI]:
    with FakeWebAPI(socket_mode_url=socket_mode_server.url) as api:
        yield api


@pytest.fixture(scope="module")
def slack_api() -> Iterator[FakeWebAPI]:
    """The Web API stand-in behind ``bot``, shared by one test module."""
    with FakeWebAPI() as api:
        yield api


@pytest.fixture(scope="module")
def bot(slack_api: FakeWebAPI, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotProcess]:
    """``effbatch-bot --mode http`` against ``slack_api``, signing secret ``SIGNING_SECRET``, one per test module."""
    process = start_http_bot(slack_api.url, tmp_path_factory.mktemp("http"))
    try:
        yield process
    finally:
        process.stop()

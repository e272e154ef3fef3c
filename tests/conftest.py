"""Shared fixtures: the local Slack stand-ins and an HTTP bot per test module.

pytest puts this folder on sys.path, so the helper modules beside the tests
(``fake_slack``, ``slack_checks`` …) import by name.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from examples_budget import IN_CI, PROFILE
from hypothesis import settings

from bot_process import BotProcess, start_http_bot
from fake_slack import FakeSocketModeServer, FakeWebAPI

# Hypothesis: in CI the full counts and no example database to carry between runs; locally fewer (see
# examples_budget.examples, which each test's count goes through).
settings.register_profile("ci", database=None, print_blob=True)
settings.register_profile("dev")
settings.load_profile(PROFILE)


def pytest_report_header() -> str:
    return f"hypothesis profile: {PROFILE} ({'full counts' if IN_CI else 'a tenth of each count; CI=1 for all'})"


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

"""Shared fixtures: the local Slack stand-ins and an HTTP bot per test module.

pytest puts this folder on sys.path, so the helper modules beside the tests
(``fake_slack``, ``slack_checks`` …) import by name.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from examples_budget import IN_CI, PROFILE
from hypothesis import settings

from bot_process import BotProcess, start_http_bot
from fake_slack import FakeSocketModeServer, FakeWebAPI
from postgres_server import PostgresServer, reason_absent

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


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL 15 on 127.0.0.1 for the whole session; skipped, saying why, where it is not installed."""
    absent = reason_absent()
    if absent is not None:
        pytest.skip(absent)
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file, and a database of its own on the session's PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'effbatch.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()

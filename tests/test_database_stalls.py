"""A database that stops answering never stops the answers: ``effbatch-bot`` in HTTP mode on loopback, its
PostgreSQL behind a proxy that freezes (accepts, forwards nothing, closes nothing: a half-open connection),
its SQLite file write-locked by another process. What a user and an orchestrator then see: every command is
answered (a hang guard of 10 s per request, not a stopwatch), what needed the database says so in German,
and ``/readyz`` turns 503."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from slack_http import command, post
from test_oauth import install, not_installed

from effbatch.bot.texts import storage as storage_texts

import slack_payloads
from bot_process import BotProcess, clean_env, free_port, get, start_http_bot
from fake_slack import CLIENT_ID, CLIENT_SECRET, FakeWebAPI, FreezingProxy
from postgres_server import PostgresServer
from slack_signing import SIGNING_SECRET

#: Seconds a test waits for the bot to notice what happened (a probe, a cool-down): generous for a loaded machine.
HANG_GUARD = 30.0
PROFILE_NOTE = "Aus dem Channel-Profil"
NOT_STORED = storage_texts.PROFILE_NOT_STORED
NOT_READ = storage_texts.PROFILE_NOT_READ


@pytest.fixture
def api() -> Iterator[FakeWebAPI]:
    with FakeWebAPI() as fake:
        yield fake


@pytest.fixture
def frozen_postgres(postgres: PostgresServer) -> Iterator[tuple[FreezingProxy, str]]:
    """A fresh database on the session's PostgreSQL, reached through a proxy the test can freeze; its URL."""
    proxy = FreezingProxy(("127.0.0.1", postgres.port))
    url = postgres.new_database().replace(f":{postgres.port}/", f":{proxy.port}/")
    try:
        yield proxy, url
    finally:
        proxy.close()


def text_of(answer: object) -> str:
    """Everything an answer says: its text and its blocks' texts."""
    assert answer is not None
    return str(answer)


def wait_not_ready(bot: BotProcess) -> int:
    """``/readyz``'s status once it is 503, or its last status after the hang guard."""
    deadline = time.monotonic() + HANG_GUARD
    status = get(bot.base + "/readyz")[0]
    while status != 503 and time.monotonic() < deadline:
        time.sleep(0.1)
        status = get(bot.base + "/readyz")[0]
    return status


def test_a_frozen_postgresql_leaves_every_command_answered(
    api: FakeWebAPI, frozen_postgres: tuple[FreezingProxy, str], tmp_path: Path
) -> None:
    """PostgreSQL frozen behind a half-open connection: plain answers as before, a profile's defaults left out, the
    profile commands say in German that the database does not answer, and /readyz turns 503."""
    proxy, url = frozen_postgres
    bot = start_http_bot(api.url, tmp_path, DATABASE_URL=url, EFFBATCH_DATABASE_SECONDS="1")
    try:
        assert "gespeichert" in text_of(command(bot, api, "cluster gpus=64 tp=8")[1])
        assert PROFILE_NOTE in text_of(command(bot, api, "b=8 a=4 L=4096")[1])
        assert get(bot.base + "/readyz")[0] == 200
        proxy.freeze()
        answers = {text: command(bot, api, text) for text in ("8 64 4 4096", "hilfe", "b=8 a=4 L=4096")}
        assert all(status == 200 for status, _ in answers.values())
        assert "2.048 Sequenzen" in text_of(answers["8 64 4 4096"][1])
        assert "b=8" in text_of(answers["b=8 a=4 L=4096"][1])
        assert PROFILE_NOTE not in text_of(answers["b=8 a=4 L=4096"][1])
        assert storage_texts.PROFILE_LEFT_OUT in text_of(answers["b=8 a=4 L=4096"][1])
        assert command(bot, api, "cluster gpus=32") == (200, {"response_type": "ephemeral", "text": NOT_STORED})
        assert command(bot, api, "cluster") == (200, {"response_type": "ephemeral", "text": NOT_READ})
        assert wait_not_ready(bot) == 503
    finally:
        log = bot.stop()
    assert "database unavailable" in log


def start_oauth_bot(api: FakeWebAPI, url: str, cwd: Path) -> BotProcess:
    port = free_port()
    env = clean_env(
        SLACK_CLIENT_ID=CLIENT_ID,
        SLACK_CLIENT_SECRET=CLIENT_SECRET,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        SLACK_API_URL=api.url,
        SLACK_REDIRECT_URI=f"http://127.0.0.1:{port}/slack/oauth_redirect",
        DATABASE_URL=url,
        WEB_CONCURRENCY="1",
        EFFBATCH_DATABASE_SECONDS="1",
    )
    bot = BotProcess("--mode", "http", env=env, cwd=cwd, port=port)
    bot.wait_healthy()
    return bot


def team_command(bot: BotProcess, api: FakeWebAPI, text: str, team: str) -> object:
    fields = slack_payloads.command(text, api.response_url(team)) | {"team_id": team}
    status, payload = post(bot, urlencode(fields))
    assert status == 200
    return payload


def test_with_oauth_a_frozen_postgresql_leaves_plain_commands_answered(
    api: FakeWebAPI, frozen_postgres: tuple[FreezingProxy, str], tmp_path: Path
) -> None:
    """Installed to any workspace, PostgreSQL frozen: a workspace seen lately is answered from memory, one not seen
    is answered too (Slack sends commands only from workspaces that have the app), and /readyz turns 503."""
    proxy, url = frozen_postgres
    bot = start_oauth_bot(api, url, tmp_path)
    try:
        assert install(bot, api, "T0NEW")[0] == 200
        assert team_command(bot, api, "8 64 4 4096", "T0OTHER") == {
            "response_type": "ephemeral",
            "text": not_installed(bot),
        }
        assert "2.048 Sequenzen" in text_of(team_command(bot, api, "8 64 4 4096", "T0NEW"))
        proxy.freeze()
        for team in ("T0NEW", "T0OTHER"):
            assert "2.048 Sequenzen" in text_of(team_command(bot, api, "8 64 4 4096", team)), team
            assert "hilfe" in text_of(team_command(bot, api, "hilfe", team)).lower(), team
        assert wait_not_ready(bot) == 503
    finally:
        bot.stop()


def test_a_held_sqlite_write_lock_refuses_a_profile_in_german(api: FakeWebAPI, tmp_path: Path) -> None:
    """Another process holds SQLite's write lock: storing a profile is refused at once with a German reason (not the
    generic error after 15 s), reading it still works; once the lock is gone, storing works again."""
    database = tmp_path / "effbatch.sqlite3"
    bot = start_http_bot(api.url, tmp_path, DATABASE_URL=f"sqlite:///{database}", EFFBATCH_DATABASE_SECONDS="1")
    holder = sqlite3.connect(database, isolation_level=None, timeout=HANG_GUARD)
    try:
        assert "gespeichert" in text_of(command(bot, api, "cluster gpus=64 tp=8")[1])
        holder.execute("BEGIN IMMEDIATE")
        assert command(bot, api, "cluster gpus=32") == (200, {"response_type": "ephemeral", "text": NOT_STORED})
        assert PROFILE_NOTE in text_of(command(bot, api, "b=8 a=4 L=4096")[1])
        holder.execute("ROLLBACK")
        assert "gespeichert" in text_of(command(bot, api, "cluster gpus=32")[1])
    finally:
        holder.close()
        bot.stop()

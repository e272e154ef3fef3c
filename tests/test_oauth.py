"""Installing effbatch to any workspace, end to end on loopback: ``effbatch-bot`` in HTTP mode with the app's
OAuth credentials, the Web API stand-in playing Slack (consent page, ``oauth.v2.access``), the database a
SQLite file or the session's PostgreSQL. What a browser, Slack and a user would see, step by step."""

from __future__ import annotations

import http.client
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import sqlalchemy as sa
from slack_http import post

from effbatch.bot.operations.settings import ConfigError, Mode, Settings

import slack_payloads
from bot_process import BotProcess, clean_env, free_port
from fake_slack import CLIENT_ID, CLIENT_SECRET, FakeWebAPI
from slack_signing import SIGNING_SECRET

NEW, NEVER = "T0NEW", "T0NEVER"


def start_bot(api: FakeWebAPI, database_url: str, cwd: Path) -> BotProcess:
    port = free_port()
    env = clean_env(
        SLACK_CLIENT_ID=CLIENT_ID,
        SLACK_CLIENT_SECRET=CLIENT_SECRET,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        SLACK_API_URL=api.url,
        SLACK_REDIRECT_URI=f"http://127.0.0.1:{port}/slack/oauth_redirect",
        DATABASE_URL=database_url,
        WEB_CONCURRENCY="1",
    )
    bot = BotProcess("--mode", "http", env=env, cwd=cwd, port=port)
    bot.wait_healthy()
    return bot


def browse(bot: BotProcess, path: str, cookie: str = "") -> tuple[int, dict[str, str], str]:
    """A browser's GET: status, headers (lower-case), body."""
    connection = http.client.HTTPConnection("127.0.0.1", bot.port, timeout=10)
    connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    response = connection.getresponse()
    headers = {name.lower(): value for name, value in response.getheaders()}
    body = response.read().decode()
    connection.close()
    return response.status, headers, body


def install(bot: BotProcess, api: FakeWebAPI, team: str) -> tuple[int, str, str]:
    """Open the install link, consent (the stand-in hands out a code), follow Slack's redirect back.

    Returns the redirect's status and page, and the redirect URL (a browser could replay it)."""
    status, headers, page = browse(bot, "/slack/install")
    assert status == 200
    cookie = headers["set-cookie"].split(";", 1)[0]
    link = re.search(r'href="(https://slack\.com/oauth/v2/authorize\?[^"]+)"', page)
    assert link is not None, page
    query = parse_qs(urlsplit(link.group(1).replace("&amp;", "&")).query)
    assert query["client_id"] == [CLIENT_ID]
    assert query["scope"] == ["commands,chat:write,links:read,links:write,files:write"]
    assert cookie.endswith("=" + query["state"][0])  # the state travels in the link and in the browser's cookie
    redirect = "/slack/oauth_redirect?" + urlencode({"code": api.grant(team), "state": query["state"][0]})
    status, _, page = browse(bot, redirect, cookie)
    return status, page, redirect + "\n" + cookie


def command(bot: BotProcess, api: FakeWebAPI, text: str, team: str) -> dict | None:
    fields = slack_payloads.command(text, api.response_url(team)) | {"team_id": team}
    status, payload = post(bot, urlencode(fields))
    assert status == 200
    return payload


def tokens(api: FakeWebAPI, method: str) -> list[str | None]:
    return [token for called, token in api.tokens_used if called == method]


@pytest.fixture
def api() -> Iterator[FakeWebAPI]:
    with FakeWebAPI() as fake:
        yield fake


def test_install_answer_restart_uninstall(api: FakeWebAPI, database_url: str, tmp_path: Path) -> None:
    """The whole dance: install link, redirect with state, oauth.v2.access, that workspace's token used, kept over a
    restart, forgotten (with its channel profiles) on app_uninstalled; a workspace that never installed is told so."""
    bot = start_bot(api, database_url, tmp_path)
    try:
        status, page, _ = install(bot, api, NEW)
        assert status == 200, page
        assert "Danke! effbatch ist installiert" in page  # the admin's pages in German, not Bolt's English
        assert "Thank you" not in page
        assert tokens(api, "oauth.v2.access") == [None]  # client id and secret as HTTP Basic, no token
        assert tokens(api, "auth.test") == ["xoxb-T0NEW-1"]  # Bolt looks up the new bot's id

        assert command(bot, api, "", NEW) is None  # the form opens, with that workspace's own token
        assert tokens(api, "views.open") == ["xoxb-T0NEW-1"]
        answer = command(bot, api, "8 64 4 4096", NEW)
        assert answer is not None
        assert "2.048 Sequenzen" in answer["text"]
        assert "gespeichert" in command(bot, api, "cluster gpus=64 tp=8", NEW)["text"]  # type: ignore[index]

        for text in ("8 64 4 4096", "cluster"):  # answered without Bolt (fast path), and a profile command
            refused = command(bot, api, text, NEVER)
            assert refused == {"response_type": "ephemeral", "text": not_installed(bot)}
        command(bot, api, "", NEVER)  # through Bolt's authorization: told at the response_url
        name, told = api.next_response()
        assert (name, told["text"]) == (NEVER, not_installed(bot))
    finally:
        bot.stop()

    bot = start_bot(api, database_url, tmp_path)  # restart: the installation is in the database
    try:
        command(bot, api, "", NEW)
        assert tokens(api, "views.open")[-1] == "xoxb-T0NEW-1"
        event = {"type": "app_uninstalled", "event_ts": f"{time.time():.6f}"}
        uninstalled = {"type": "event_callback", "team_id": NEW, "api_app_id": "A0TEST", "event": event}
        assert post(bot, json.dumps(uninstalled), "application/json")[0] == 200
        assert command(bot, api, "8 64 4", NEW) == {"response_type": "ephemeral", "text": not_installed(bot)}
    finally:
        bot.stop()
    engine = sa.create_engine(database_url)
    with engine.connect() as connection:
        for table in ("slack_installations", "slack_bots", "channel_profiles"):
            assert connection.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() == 0, table
    engine.dispose()


def not_installed(bot: BotProcess) -> str:
    return (
        "effbatch ist in diesem Workspace nicht installiert (oder wurde deinstalliert). Bitte jemanden, der Apps "
        f"installieren darf, effbatch über http://127.0.0.1:{bot.port}/slack/install hinzuzufügen; danach antwortet "
        "der Bot hier."
    )


def test_a_redirect_is_taken_once_and_only_from_its_browser(api: FakeWebAPI, tmp_path: Path) -> None:
    """Replaying Slack's redirect, or sending it without the install link's cookie, installs nothing."""
    bot = start_bot(api, f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path)
    try:
        status, _, replay = install(bot, api, NEW)
        assert status == 200
        path, cookie = replay.split("\n")
        refused = browse(bot, path, cookie)
        assert refused[0] == 401  # the state is spent (Bolt: invalid_state)
        assert "Die Installation hat nicht geklappt" in refused[2]
        page = browse(bot, "/slack/install")[2]
        assert "<h2>effbatch installieren</h2>" in page
        assert "Zu Slack hinzufügen" in page
        assert "Slack App Installation" not in page
        state = re.search(r"state=([^&\"]+)", page)
        assert state is not None
        stray = "/slack/oauth_redirect?" + urlencode({"code": api.grant(NEVER), "state": state.group(1)})
        assert browse(bot, stray)[0] == 400  # no cookie: another browser (Bolt: invalid_browser)
    finally:
        bot.stop()
    assert tokens(api, "oauth.v2.access") == [None]  # one exchange, the first


@pytest.mark.parametrize(
    ("given", "mode", "refused"),
    [
        ({"slack_bot_token": "xoxb-1", "slack_signing_secret": "s"}, "http", None),  # one workspace, as before
        ({"slack_client_id": "1.2", "slack_client_secret": "c", "slack_signing_secret": "s"}, "http", None),
        ({"slack_client_id": "1.2", "slack_signing_secret": "s"}, "http", "SLACK_CLIENT_SECRET"),
        ({"slack_client_id": "1.2", "slack_client_secret": "c"}, "http", "SLACK_SIGNING_SECRET"),
        (
            {"slack_bot_token": "xoxb-1", "slack_client_id": "1.2", "slack_signing_secret": "s"},
            "http",
            "SLACK_CLIENT_ID",
        ),
        ({"slack_app_token": "xapp-1", "slack_bot_token": "xoxb-1"}, "socket", None),
        ({}, "console", None),
    ],
)
def test_which_settings_select_which_mode(given: dict[str, str], mode: str, refused: str | None) -> None:
    """OAuth credentials without a bot token select HTTP mode for any workspace; a bot token and a client id
    together are refused (one workspace or any), and so is OAuth without its secret or the signing secret."""
    settings = Settings(**given)  # type: ignore[arg-type]
    assert settings.default_mode() == Mode(mode)
    if refused is None:
        settings.require_for(Mode(mode))
        return
    with pytest.raises(ConfigError) as raised:
        settings.require_for(Mode(mode))
    assert [variable for variable, _ in raised.value.problems] == [refused]

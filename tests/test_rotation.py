"""Token rotation against a stand-in Slack that stalls, drops the connection and answers 5xx, over SQLite and a real
PostgreSQL: no workspace is locked out by a lost answer, none waits for another's refresh, a refresh token is
sent once per attempt, and a workspace that truly lost its access is told, in German, to reinstall."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from slack_bolt.authorization.authorize import InstallationStoreAuthorize
from slack_bolt.context import BoltContext
from slack_sdk import WebClient
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from test_storage import installation_from

from effbatch.bot.storage.database import engine_for, migrate
from effbatch.bot.storage.errors import AccessLostError
from effbatch.bot.storage.guard import DatabaseGuard
from effbatch.bot.storage.rotation import SharedTokenRotator
from effbatch.bot.storage.slack_stores import InstallationStore
from effbatch.bot.texts import workspaces as texts

from fake_slack import CLIENT_ID, CLIENT_SECRET, FakeWebAPI, Reply

#: Seconds a test waits for what should happen soon (a background refresh): generous for a loaded machine.
HANG_GUARD = 30.0
#: Seconds an installed token lives here: inside Bolt's two hours before the end (a refresh is due), far from it.
DUE = 3600
LOST = texts.ACCESS_LOST.format(install="http://127.0.0.1/slack/install")
INTERNAL = {"ok": False, "error": "internal_error"}


@pytest.fixture
def engine(database_url: str) -> Iterator[sa.Engine]:
    engine = engine_for(database_url)
    migrate(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def api() -> Iterator[FakeWebAPI]:
    with FakeWebAPI() as fake:
        fake.rotation_seconds = DUE
        yield fake


class Workspaces:
    """Bolt's authorize over the database with effbatch's rotator, as ``bot.slack.workspaces`` wires it."""

    def __init__(self, engine: sa.Engine, api: FakeWebAPI, refresh_timeout: int = 10) -> None:
        self.api = api
        store = InstallationStore(CLIENT_ID, engine, DatabaseGuard(engine, HANG_GUARD))
        self.rotator = SharedTokenRotator(
            client_id=CLIENT_ID,
            client_secret=CLIENT_SECRET,
            api_url=api.url,
            store=store,
            engine=engine,
            lost_message=LOST,
            expired_wait=HANG_GUARD,
            retry_after=0,
            refresh_timeout=refresh_timeout,
        )
        self.authorize = InstallationStoreAuthorize(
            logger=logging.getLogger("test"), installation_store=store, client_id=CLIENT_ID, client_secret=CLIENT_SECRET
        )
        self.authorize.token_rotator = self.rotator

    def token(self, team: str) -> str | None:
        """The token a request of ``team`` is answered with (Bolt checks it with auth.test)."""
        context = BoltContext(client=WebClient(base_url=self.api.url))
        result = self.authorize(context=context, enterprise_id=None, team_id=team, user_id="U0USER")
        return result.bot_token if result is not None else None

    def settled(self) -> None:
        assert self.rotator.idle(HANG_GUARD), "a refresh still runs after the hang guard"


def install(engine: sa.Engine, api: FakeWebAPI, team: str) -> None:
    """An installation whose token is due for a refresh; refreshed tokens then live Slack's 12 hours (not due)."""
    api.rotation_seconds = DUE
    client = WebClient(base_url=api.url)
    answer = client.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=api.grant(team))
    SQLAlchemyInstallationStore(client_id=CLIENT_ID, engine=engine).save(installation_from(answer.data))  # type: ignore[arg-type]
    api.rotation_seconds = 12 * 3600


def stored(engine: sa.Engine, team: str) -> str | None:
    """The bot token the database holds for ``team`` (read as another process would)."""
    bot = SQLAlchemyInstallationStore(client_id=CLIENT_ID, engine=engine).find_bot(enterprise_id=None, team_id=team)
    return bot.bot_token if bot is not None else None


def refreshes(api: FakeWebAPI) -> list[str]:
    """The refresh tokens Slack was sent, in order."""
    return [p["refresh_token"] for p in api.method_calls("oauth.v2.access") if p.get("grant_type") == "refresh_token"]


def expire(engine: sa.Engine, team: str) -> None:
    """Time passes: the stored token has expired."""
    with engine.begin() as connection:
        for table in ("slack_installations", "slack_bots"):
            statement = f"UPDATE {table} SET bot_token_expires_at = :past WHERE team_id = :team"
            past = datetime.now(UTC).replace(tzinfo=None) - timedelta(minutes=5)  # naive UTC, as slack_sdk stores it
            connection.execute(sa.text(statement), {"past": past, "team": team})


def test_a_due_refresh_waits_for_no_request_and_no_other_workspace(engine: sa.Engine, api: FakeWebAPI) -> None:
    """While Slack holds one workspace's refresh, its requests go on with the current token and another workspace's
    refresh completes; once Slack answers, the new token is stored and used."""
    install(engine, api, "T1")
    install(engine, api, "T2")
    gate = threading.Event()
    api.script("oauth.v2.access", Reply(exchange=True, body=None, hold=gate))
    workspaces = Workspaces(engine, api)
    try:
        assert workspaces.token("T1") == "xoxb-T1-1"  # its refresh is held by Slack: this request did not wait
        assert workspaces.token("T1") == "xoxb-T1-1"
        assert workspaces.token("T2") == "xoxb-T2-2"  # the store still had T2's own token while it refreshed
        deadline = time.monotonic() + HANG_GUARD
        while stored(engine, "T2") != "xoxb-T2-4" and time.monotonic() < deadline:  # Slack issued T1's new one, 3
            time.sleep(0.05)
        assert (stored(engine, "T2"), stored(engine, "T1")) == ("xoxb-T2-4", "xoxb-T1-1")  # T2 done, T1 still held
    finally:
        gate.set()
    workspaces.settled()
    assert stored(engine, "T1") == "xoxb-T1-3"
    assert workspaces.token("T1") == "xoxb-T1-3"
    assert refreshes(api) == ["xoxe-1-T1-1", "xoxe-1-T2-2"]  # each sent once


def test_an_expired_token_waits_for_a_slow_refresh_and_keeps_it(engine: sa.Engine, api: FakeWebAPI) -> None:
    """An expired token: the request waits for its refresh, which Slack answers after 3 s (beyond the Web API
    client's 2 s); the answer is stored and used, the refresh token sent once."""
    install(engine, api, "T1")
    expire(engine, "T1")
    api.script("oauth.v2.access", Reply(exchange=True, body=None, delay=3))
    workspaces = Workspaces(engine, api)
    assert workspaces.token("T1") == "xoxb-T1-2"
    assert stored(engine, "T1") == "xoxb-T1-2"
    assert refreshes(api) == ["xoxe-1-T1-1"]


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(Reply(exchange=True, drop=True), id="connection dropped after Slack spent the token"),
        pytest.param(Reply(status=500, body=INTERNAL, exchange=True), id="5xx after Slack spent the token"),
        pytest.param(Reply(exchange=True, body=None, delay=3), id="answered after the refresh gave up"),
    ],
)
def test_a_lost_answer_keeps_the_workspace_until_its_token_expires(
    engine: sa.Engine, api: FakeWebAPI, reply: Reply, caplog: pytest.LogCaptureFixture
) -> None:
    """Slack spent the refresh token but its answer never arrived: nothing resends it blindly; the next request's
    refresh learns it was spent, the current token keeps serving (the log says until when), and once it expired the
    user is told in German to have an admin reinstall, and the log says so."""
    install(engine, api, "T1")
    api.script("oauth.v2.access", reply)
    workspaces = Workspaces(engine, api, refresh_timeout=1)
    caplog.set_level(logging.WARNING, "effbatch")
    assert workspaces.token("T1") == "xoxb-T1-1"
    workspaces.settled()
    assert refreshes(api) == ["xoxe-1-T1-1"]  # sent once: no retry handler resent it
    assert workspaces.token("T1") == "xoxb-T1-1"  # the next request's refresh finds the token spent
    workspaces.settled()
    assert workspaces.token("T1") == "xoxb-T1-1"  # still served, and the spent token is not sent a third time
    workspaces.settled()
    assert refreshes(api) == ["xoxe-1-T1-1", "xoxe-1-T1-1"]
    assert any(r.getMessage() == "workspace access ends" for r in caplog.records)

    expire(engine, "T1")
    later = Workspaces(engine, api)  # another process, or this one after its cache entry ended
    with pytest.raises(AccessLostError) as raised:
        later.token("T1")
    assert raised.value.message == LOST
    assert any(r.getMessage() == "workspace access lost" and r.levelno == logging.ERROR for r in caplog.records)


def test_a_5xx_before_slack_spent_the_token_is_tried_again_later(engine: sa.Engine, api: FakeWebAPI) -> None:
    """A 503 that spent nothing: the refresh token is sent once, and the next request's refresh succeeds."""
    install(engine, api, "T1")
    api.script("oauth.v2.access", Reply(status=503, body={"ok": False, "error": "service_unavailable"}))
    workspaces = Workspaces(engine, api)
    assert workspaces.token("T1") == "xoxb-T1-1"
    workspaces.settled()
    assert refreshes(api) == ["xoxe-1-T1-1"]
    assert workspaces.token("T1") == "xoxb-T1-1"
    workspaces.settled()
    assert stored(engine, "T1") == "xoxb-T1-2"
    assert workspaces.token("T1") == "xoxb-T1-2"

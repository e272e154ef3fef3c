"""The installation cache of one bot process, over SQLite and PostgreSQL: an installed workspace's commands need no
database round trip, ``cached`` says so without asking, and every write of this process – an install, a token
rotation, a revocation, an uninstall – is seen at once; what another process wrote, once the entry ends."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from slack_sdk.oauth.installation_store import Installation

from effbatch.bot.storage.database import engine_for, migrate
from effbatch.bot.storage.slack_stores import InstallationStore

from fake_slack import CLIENT_ID


@pytest.fixture
def engine(database_url: str) -> Iterator[sa.Engine]:
    engine = engine_for(database_url)
    migrate(engine)
    yield engine
    engine.dispose()


class Statements:
    """Counts the statements an engine sends (SQLAlchemy's own event, no patching)."""

    def __init__(self, engine: sa.Engine) -> None:
        self.count = 0
        sa.event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *_: object) -> None:
        self.count += 1


def installation(team: str, token: str) -> Installation:
    return Installation(app_id="A0TEST", team_id=team, bot_token=token, bot_id="B0BOT", user_id="U0INSTALLER")


def test_an_installed_workspace_is_answered_from_memory(engine: sa.Engine) -> None:
    """After the first lookup, ``installed`` and Bolt's lookups of the workspace send no statement; ``cached``
    says so beforehand, and a workspace never seen is not cached (nor remembered as missing)."""
    store = InstallationStore(CLIENT_ID, engine)
    store.save(installation("T1", "xoxb-1"))
    statements = Statements(engine)
    assert not store.cached(None, "T1")
    assert store.installed(None, "T1")
    first = statements.count
    assert store.cached(None, "T1")
    for _ in range(3):
        assert store.installed(None, "T1")
        found = store.find_installation(enterprise_id=None, team_id="T1")
        assert found is not None
        found.bot_token = None  # Bolt changes what it is given; the cache keeps its own
    assert store.find_installation(enterprise_id=None, team_id="T1", user_id="U0ELSE") is None
    assert store.find_installation(enterprise_id=None, team_id="T1", user_id="U0ELSE") is None
    assert statements.count == first + 1  # only the first lookup of that user's own installation
    assert not store.installed(None, "T0NEVER")
    assert not store.cached(None, "T0NEVER")


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda store: store.save(installation("T1", "xoxb-2")), id="rotated or reinstalled"),
        pytest.param(lambda store: store.delete_all(enterprise_id=None, team_id="T1"), id="uninstalled"),
        pytest.param(lambda store: store.delete_bot(enterprise_id=None, team_id="T1"), id="bot token revoked"),
    ],
)
def test_what_this_process_writes_is_seen_at_once(engine: sa.Engine, change: object) -> None:
    """A save or delete through the store drops the workspace's entry: the next lookup reads the database."""
    store = InstallationStore(CLIENT_ID, engine)
    store.save(installation("T1", "xoxb-1"))
    assert store.installed(None, "T1")
    assert callable(change)
    change(store)
    assert not store.cached(None, "T1")
    expected = InstallationStore(CLIENT_ID, engine, cache_seconds=0).find_installation(enterprise_id=None, team_id="T1")
    found = store.find_installation(enterprise_id=None, team_id="T1")
    assert (found and found.bot_token) == (expected and expected.bot_token)


def test_another_processs_write_is_seen_when_the_entry_ends(engine: sa.Engine) -> None:
    """Another process uninstalled the workspace: a store without cache time sees it on the next lookup."""
    mine = InstallationStore(CLIENT_ID, engine, cache_seconds=0)
    other = InstallationStore(CLIENT_ID, engine)
    other.save(installation("T1", "xoxb-1"))
    assert mine.installed(None, "T1")
    other.delete_all(enterprise_id=None, team_id="T1")
    assert not mine.installed(None, "T1")

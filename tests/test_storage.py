"""The database against SQLite and a real PostgreSQL 15: the migrated schema, channel profiles, OAuth state,
token rotation, and several processes sharing one database (each of them opens its own engine, as bot
processes do)."""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Iterator
from datetime import UTC, datetime
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest
import sqlalchemy as sa
from slack_bolt.authorization.authorize import InstallationStoreAuthorize
from slack_bolt.context import BoltContext
from slack_sdk import WebClient
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore

from effbatch.bot.storage.database import HEAD, current_revision, engine_for, head_revision, migrate, stamped_revision
from effbatch.bot.storage.guard import DatabaseGuard
from effbatch.bot.storage.profiles import PROFILES, ChannelProfile, ProfileStore
from effbatch.bot.storage.rotation import SharedTokenRotator
from effbatch.bot.storage.setup import StorageError, database_url, open_storage
from effbatch.bot.storage.slack_stores import InstallationStore, OAuthStateStore

from fake_slack import CLIENT_ID, CLIENT_SECRET, FakeWebAPI

#: Forked workers: each opens its own engine from the URL, as a bot process does.
FORK = multiprocessing.get_context("fork")
WORKERS = 4
#: Seconds a test waits for something that should happen at once (a refresh behind a lock, a loaded machine).
HANG_GUARD = 30.0


@pytest.fixture
def engine(database_url: str) -> Iterator[sa.Engine]:
    """The test's database, migrated; its connections closed after the test."""
    engine = engine_for(database_url)
    migrate(engine)
    yield engine
    engine.dispose()


def columns(engine: sa.Engine, table: str) -> set[str]:
    return {column["name"] for column in sa.inspect(engine).get_columns(table)}


def test_migration_creates_what_slack_sdk_and_the_profiles_read(engine: sa.Engine) -> None:
    """Every column slack_sdk's SQLAlchemy stores and the profile store use exists after one migration."""
    metadata = sa.MetaData()
    expected = {
        "slack_installations": SQLAlchemyInstallationStore.build_installations_table(metadata, "slack_installations"),
        "slack_bots": SQLAlchemyInstallationStore.build_bots_table(metadata, "slack_bots"),
        "slack_oauth_states": SQLAlchemyOAuthStateStore.build_oauth_states_table(metadata, "slack_oauth_states"),
        "channel_profiles": PROFILES,
    }
    for name, table in expected.items():
        assert columns(engine, name) == {column.name for column in table.columns}, name
    assert current_revision(engine) == head_revision() == "0002"


def test_the_revision_start_up_compares_is_alembics(engine: sa.Engine) -> None:
    """The head a start-up compares without Alembic is the one Alembic finds in the scripts, and the revision it reads
    is the one Alembic reads: a new migration without a new ``HEAD`` fails here, not in a rollout."""
    assert head_revision() == HEAD
    assert stamped_revision(engine) == current_revision(engine) == HEAD


def migrate_in_a_process(url: str) -> None:
    migrate(engine_for(url))


def test_several_processes_migrate_at_once(database_url: str) -> None:
    """Bot processes starting together: each migrates (one at a time), none fails, the schema is made once."""
    processes = [FORK.Process(target=migrate_in_a_process, args=(database_url,)) for _ in range(WORKERS)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    assert [process.exitcode for process in processes] == [0] * WORKERS
    engine = engine_for(database_url)
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_a_profile_round_trips(engine: sa.Engine) -> None:
    """Stored, read back with its setter and time (UTC), replaced, deleted; a workspace's profiles go together."""
    store = ProfileStore(engine)
    at = datetime(2026, 3, 14, 9, 5, tzinfo=UTC)
    store.put("T1", "C1", ChannelProfile((("gpus", "64"), ("tp", "8"), ("gpu", "h100")), "U1", at))
    assert store.get("T1", "C1") == ChannelProfile((("gpus", "64"), ("tp", "8"), ("gpu", "h100")), "U1", at)
    store.put("T1", "C1", ChannelProfile((("gpus", "128"),), "U2", at))
    assert store.get("T1", "C1") == ChannelProfile((("gpus", "128"),), "U2", at)
    assert store.get("T1", "C2") is None
    assert store.get("T2", "C1") is None
    store.put("T1", "C2", ChannelProfile((("pp", "4"),), "U1", at))
    store.put("T2", "C1", ChannelProfile((("pp", "2"),), "U3", at))
    assert store.delete("T1", "C1")
    assert not store.delete("T1", "C1")
    assert store.delete_team("T1") == 1
    assert store.get("T2", "C1") is not None


def write_profiles(url: str, worker: int, rounds: int) -> None:
    engine = engine_for(url)
    store = ProfileStore(engine, DatabaseGuard(engine, HANG_GUARD))
    for n in range(rounds):
        at = datetime.now(UTC)
        store.put("T1", "C_SHARED", ChannelProfile((("gpus", str(worker * 1000 + n + 1)),), f"U{worker}", at))
        store.put("T1", f"C{worker}", ChannelProfile((("tp", str(n + 1)),), f"U{worker}", at))
        assert store.get("T1", "C_SHARED") is not None
        if n % 3 == 0:
            store.delete("T1", f"C{worker}")


def test_several_processes_write_profiles_at_once(database_url: str, engine: sa.Engine) -> None:
    """Four processes setting, reading and deleting profiles in one channel and their own: no error, no lost
    row, no duplicate; the shared channel holds one of the values written."""
    rounds = 20
    processes = [FORK.Process(target=write_profiles, args=(database_url, w, rounds)) for w in range(WORKERS)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    assert [process.exitcode for process in processes] == [0] * WORKERS
    with engine.connect() as connection:
        rows = connection.execute(sa.select(PROFILES.c.channel_id)).scalars().all()
    assert sorted(rows) == sorted(["C_SHARED", *(f"C{w}" for w in range(WORKERS))])
    shared = ProfileStore(engine).get("T1", "C_SHARED")
    assert shared is not None
    assert int(shared.as_dict()["gpus"]) in {w * 1000 + rounds for w in range(WORKERS)}  # each worker's last write


def consume_state(url: str, state: str, barrier: Barrier, results: Queue[bool]) -> None:
    store = OAuthStateStore(engine_for(url))
    barrier.wait(timeout=60)
    results.put(store.consume(state))


def test_an_install_state_is_consumed_once_across_processes(database_url: str, engine: sa.Engine) -> None:
    """The same redirect reaching four processes at once installs once: exactly one of them consumes the state."""
    state = OAuthStateStore(engine).issue()
    barrier, results = FORK.Barrier(WORKERS), FORK.Queue()
    arguments = (database_url, state, barrier, results)
    processes = [FORK.Process(target=consume_state, args=arguments) for _ in range(WORKERS)]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=60) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    assert sorted(outcomes) == [False, False, False, True]
    assert not OAuthStateStore(engine).consume(state)


def test_an_expired_state_is_refused(engine: sa.Engine) -> None:
    """A state older than its lifetime installs nothing."""
    store = OAuthStateStore(engine, expiration_seconds=-1)
    assert not store.consume(store.issue())


def authorizer(engine: sa.Engine, api_url: str) -> InstallationStoreAuthorize:
    """Bolt's authorize over the database, with effbatch's shared rotator, as bot.slack.workspaces wires it."""
    store = InstallationStore(CLIENT_ID, engine, DatabaseGuard(engine, HANG_GUARD))
    authorize = InstallationStoreAuthorize(
        logger=logging.getLogger("test"), installation_store=store, client_id=CLIENT_ID, client_secret=CLIENT_SECRET
    )
    authorize.token_rotator = SharedTokenRotator(
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        api_url=api_url,
        store=store,
        engine=engine,
        expired_wait=HANG_GUARD,
    )
    return authorize


def install(engine: sa.Engine, api: FakeWebAPI, team: str) -> None:
    """An installation as Bolt's OAuthFlow saves it after oauth.v2.access."""
    client = WebClient(base_url=api.url)
    answer = client.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=api.grant(team))
    InstallationStore(CLIENT_ID, engine).save(installation_from(answer.data))  # type: ignore[arg-type]


def token_for(authorize: InstallationStoreAuthorize, team: str, api_url: str) -> str | None:
    """The token Bolt authorizes a request of ``team``'s U0USER with (auth.test against the stand-in)."""
    context = BoltContext(client=WebClient(base_url=api_url))
    result = authorize(context=context, enterprise_id=None, team_id=team, user_id="U0USER")
    return result.bot_token if result is not None else None


def test_token_rotation_replaces_the_token_in_place(engine: sa.Engine) -> None:
    """An expiring token is rotated through oauth.v2.access on each request (twice here): the new token is used
    and stored in the same rows (slack_sdk's store updates the row with the same installed_at)."""
    with FakeWebAPI() as api:
        api.rotation_seconds = 60  # inside Bolt's 120 minutes: every request rotates
        install(engine, api, "T1")
        authorize = authorizer(engine, api.url)
        used = [token_for(authorize, "T1", api.url) for _ in range(2)]
    assert used == ["xoxb-T1-2", "xoxb-T1-3"]
    bot = InstallationStore(CLIENT_ID, engine).find_bot(enterprise_id=None, team_id="T1")
    assert bot is not None
    assert bot.bot_token == "xoxb-T1-3"
    with engine.connect() as connection:
        for table in ("slack_installations", "slack_bots"):
            assert connection.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() == 1, table


def rotate_in_a_process(url: str, api_url: str, barrier: Barrier, results: Queue[str | None]) -> None:
    engine = engine_for(url)
    authorize = authorizer(engine, api_url)
    barrier.wait(timeout=60)
    results.put(token_for(authorize, "T1", api_url))


def test_processes_rotating_at_once_refresh_once(database_url: str, engine: sa.Engine) -> None:
    """Four processes meet the same expiring token at once: one refreshes it, the others use its new token
    (Slack refuses a refresh token used twice, which would have answered three of them as not installed)."""
    with FakeWebAPI() as api:
        api.rotation_seconds = 60
        install(engine, api, "T1")
        api.rotation_seconds = 12 * 3600  # Slack's 12 hours: a refreshed token is not due again
        barrier, results = FORK.Barrier(WORKERS), FORK.Queue()
        arguments = (database_url, api.url, barrier, results)
        processes = [FORK.Process(target=rotate_in_a_process, args=arguments) for _ in range(WORKERS)]
        for process in processes:
            process.start()
        tokens = [results.get(timeout=60) for _ in processes]
        for process in processes:
            process.join(timeout=60)
        refreshes = [p for p in api.method_calls("oauth.v2.access") if p.get("grant_type") == "refresh_token"]
    assert tokens == ["xoxb-T1-2"] * WORKERS
    assert len(refreshes) == 1


def installation_from(answer: dict[str, object]) -> Installation:
    """An installation as Bolt's OAuthFlow.run_installation builds it from oauth.v2.access."""
    team = answer["team"]
    assert isinstance(team, dict)
    return Installation(
        app_id=str(answer["app_id"]),
        team_id=team["id"],
        bot_token=str(answer["access_token"]),
        bot_id="B0BOT",
        bot_user_id="U0BOT",
        bot_scopes=str(answer["scope"]),
        bot_refresh_token=str(answer["refresh_token"]),
        bot_token_expires_in=int(str(answer["expires_in"])),
        user_id="U0INSTALLER",
    )


def test_with_migrations_off_a_schema_behind_is_refused(tmp_path: Path) -> None:
    """EFFBATCH_MIGRATE=off and no migration job run yet: the bot says so instead of failing on the first query."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with pytest.raises(StorageError, match=r"auf Stand leer, diese Version braucht 0002.*effbatch-bot --migrate"):
        open_storage(url, migrate_now=False)
    open_storage(url, migrate_now=True).engine.dispose()
    storage = open_storage(url, migrate_now=False)
    assert storage.profiles.get("T", "C") is None
    storage.engine.dispose()


def test_an_unreachable_database_is_named_without_its_password() -> None:
    """A PostgreSQL that does not answer: one German line naming the URL, the password hidden."""
    url = "postgresql+psycopg://effbatch:geheim@127.0.0.1:1/effbatch?connect_timeout=2"
    with pytest.raises(StorageError) as raised:
        open_storage(url, migrate_now=True)
    assert "nicht erreichbar" in str(raised.value)
    assert "effbatch:***@127.0.0.1:1" in str(raised.value)
    assert "geheim" not in str(raised.value)


def test_the_default_database_is_a_file_in_the_data_directory(tmp_path: Path) -> None:
    """Without DATABASE_URL: a SQLite file in EFFBATCH_DATA_DIR, created with its directory."""
    storage = open_storage(database_url(None, tmp_path / "daten"), migrate_now=True)
    assert storage.engine.url.database == str(tmp_path / "daten" / "effbatch.sqlite3")
    assert (tmp_path / "daten" / "effbatch.sqlite3").is_file()
    storage.engine.dispose()

"""The engine from ``DATABASE_URL`` and its schema: migrated by Alembic at start-up or by a job.

Several bot processes share one database. PostgreSQL takes care of that itself. SQLite is put in WAL
mode (readers never wait for a writer) with a busy timeout, and every statement is its own transaction
(autocommit): a writer waits its turn for at most the timeout, and no transaction that read first can
fail on upgrading its lock ("database is locked"). effbatch's own writes are single statements (an
upsert, a delete); slack_sdk's save (a select, then an insert or update) runs once per installation,
and token rotations are serialized per workspace (``try_named_lock``). Migrations take a lock of their own
(an advisory lock in PostgreSQL, a file lock beside a SQLite file): the first process migrates, the
others wait and find the schema current.

A database that stops answering must not stop the bot: PostgreSQL connections have a connect timeout,
TCP keepalives and a TCP user timeout (a half-open connection is noticed in seconds), a statement and a
lock timeout set by the server for every session (migrations lift them), and the pool pings a connection
before handing it out. SQLite's busy timeout is short. What the request path asks of the database is
bounded once more by ``bot.storage.guard``, which also catches a server that is frozen but still connected.

The SQLite file, its ``-wal`` and ``-shm`` and the lock files beside it hold the workspaces' tokens: they
are made readable by their owner only (0600), in a folder only the owner may enter (0700).
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect, make_url, text
from sqlalchemy.engine import URL
from sqlalchemy.pool import StaticPool

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger("effbatch")

MIGRATIONS = Path(__file__).with_name("migrations")
#: The default database: this file in the data directory (``EFFBATCH_DATA_DIR``, ``./data`` unless set).
SQLITE_FILE = "effbatch.sqlite3"
#: Seconds a SQLite writer waits for another process's transaction before giving up: below the time a write on
#: the request path may take (``guard.WRITE_SECONDS``), so that it fails in SQLite rather than behind the user's back.
SQLITE_BUSY_SECONDS = 1
#: PostgreSQL, per connection: seconds to connect (libpq's smallest useful value), a statement's and a lock wait's
#: limit in milliseconds, and TCP keepalive (idle, interval, count) and user timeout (ms, unacknowledged data).
PG_CONNECT_SECONDS = 2
PG_STATEMENT_MS = 1500
PG_LOCK_MS = 1000
PG_KEEPALIVE = (5, 2, 3)
PG_TCP_USER_TIMEOUT_MS = 10000
#: Seconds a request waits for a free pooled connection.
POOL_TIMEOUT = 2
#: Owner only: the data folder, and the SQLite file with its companions.
FOLDER_MODE = 0o700
FILE_MODE = 0o600
#: The PostgreSQL advisory lock migrations hold (any constant shared by every effbatch process).
MIGRATION_LOCK = 0x0EFFBA7C
#: The newest revision in ``migrations/versions``, as Alembic finds it (``head_revision``; a test holds the two
#: equal). A start-up that finds the database there asks no more: importing Alembic and reading the scripts costs
#: more than the rest of opening the database, and a restart almost always finds the schema current.
HEAD = "0002"
#: Alembic's table of the revision a database is at.
VERSION_TABLE = "alembic_version"


def default_url(data_dir: Path) -> str:
    """``sqlite:///…/effbatch.sqlite3`` in ``data_dir`` (the folder is made when the database is opened)."""
    return f"sqlite:///{(data_dir / SQLITE_FILE).resolve()}"


def engine_for(url: str) -> Engine:
    """An engine for ``url``; SQLite tuned for several processes, an in-memory one kept on one connection."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(
            parsed,
            pool_pre_ping=True,
            pool_size=4,
            max_overflow=4,
            pool_timeout=POOL_TIMEOUT,
            connect_args=_postgres_arguments(parsed) if parsed.get_backend_name() == "postgresql" else {},
        )
    memory = parsed.database in (None, "", ":memory:")
    options: dict[str, Any] = {"connect_args": {"timeout": SQLITE_BUSY_SECONDS, "check_same_thread": False}}
    if memory:
        options["poolclass"] = StaticPool  # one connection, or every checkout would see an empty database
    else:
        private_file(Path(str(parsed.database)))
    engine = create_engine(parsed, isolation_level="AUTOCOMMIT", **options)
    event.listen(engine, "connect", _sqlite_connect)
    return engine


def _postgres_arguments(url: URL) -> dict[str, Any]:
    """libpq's timeouts and keepalives, where ``DATABASE_URL`` does not set them itself."""
    idle, interval, count = PG_KEEPALIVE
    options = f"-c statement_timeout={PG_STATEMENT_MS} -c lock_timeout={PG_LOCK_MS}"
    wanted: dict[str, Any] = {
        "connect_timeout": PG_CONNECT_SECONDS,
        "keepalives": 1,
        "keepalives_idle": idle,
        "keepalives_interval": interval,
        "keepalives_count": count,
        "tcp_user_timeout": PG_TCP_USER_TIMEOUT_MS,
        "options": options,
    }
    return {name: value for name, value in wanted.items() if name not in url.query}


def private_file(database: Path) -> None:
    """The SQLite file's folder (0700, made if missing) and the file itself (0600, made empty if missing), before
    SQLite opens it: SQLite gives its ``-wal`` and ``-shm`` the file's mode; companions already there are tightened."""
    folder = database.parent
    if not folder.is_dir():
        folder.mkdir(parents=True, mode=FOLDER_MODE)
        folder.chmod(FOLDER_MODE)  # mkdir's mode passes through the umask
    os.close(os.open(database, os.O_CREAT | os.O_RDWR, FILE_MODE))
    for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        if path.exists():
            path.chmod(FILE_MODE)


def _sqlite_connect(connection: Any, _record: object) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_SECONDS * 1000}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _alembic_config(connection: Connection) -> Config:
    from alembic.config import Config  # Alembic only where a schema is migrated or compared, not in the console

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision; safe to run from several processes at once."""
    logging.getLogger("alembic").setLevel(logging.WARNING)  # its INFO lines (from its import on) would fill start-up
    from alembic import command

    with _migration_lock(engine), engine.connect() as connection:
        _unlimited(connection)
        command.upgrade(_alembic_config(connection), "head")
        connection.commit()


def _unlimited(connection: Connection) -> None:
    """No statement or lock timeout on this connection: a migration, or a wait for another process's one."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SET statement_timeout = 0"))
        connection.execute(text("SET lock_timeout = 0"))


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None before the first migration)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def stamped_revision(engine: Engine) -> str | None:
    """The revision the database is at, read without Alembic (None before the first migration; with several rows,
    branches this version of effbatch does not have, the first)."""
    with engine.connect() as connection:
        if not inspect(connection).has_table(VERSION_TABLE):
            return None
        return connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


def head_revision() -> str | None:
    """The newest revision this version of effbatch ships."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    """One migrating process at a time."""
    with named_lock(engine, "migrate", MIGRATION_LOCK):
        yield


@contextmanager
def named_lock(engine: Engine, name: str, key: int | None = None) -> Iterator[None]:
    """A lock all processes on this database share: PostgreSQL's advisory lock (``key``, or one made from
    ``name``), a lock file beside a SQLite file, a thread lock for an in-memory database."""
    url: URL = engine.url
    if url.get_backend_name() == "postgresql":
        key = zlib.crc32(name.encode()) if key is None else key
        with engine.connect() as connection:
            _unlimited(connection)
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": key})
            connection.commit()
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
                connection.commit()
        return
    if url.database in (None, "", ":memory:"):
        with _MEMORY_LOCKS.setdefault(name, threading.Lock()):
            yield
        return
    with _lock_file(str(url.database), name) as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@contextmanager
def try_named_lock(engine: Engine, name: str, wait: float) -> Iterator[bool]:
    """``named_lock``, waiting at most ``wait`` seconds for it (asking again every ``LOCK_POLL``, never blocking a
    statement on it): yields whether it is held."""
    url: URL = engine.url
    deadline = time.monotonic() + wait
    if url.get_backend_name() == "postgresql":
        key = {"key": zlib.crc32(name.encode())}
        with engine.connect() as connection:
            held = _poll(
                lambda: bool(connection.execute(text("SELECT pg_try_advisory_lock(:key)"), key).scalar()), deadline
            )
            connection.commit()
            try:
                yield held
            finally:
                if held:
                    connection.execute(text("SELECT pg_advisory_unlock(:key)"), key)
                    connection.commit()
        return
    if url.database in (None, "", ":memory:"):
        lock = _MEMORY_LOCKS.setdefault(name, threading.Lock())
        held = lock.acquire(timeout=max(wait, 0))
        try:
            yield held
        finally:
            if held:
                lock.release()
        return
    with _lock_file(str(url.database), name) as file:
        yield _poll(lambda: _flock_now(file), deadline)


#: Seconds between two attempts at a lock another process holds.
LOCK_POLL = 0.1


def _poll(attempt: Callable[[], bool], deadline: float) -> bool:
    while not attempt():
        if time.monotonic() >= deadline:
            return False
        time.sleep(LOCK_POLL)
    return True


def _flock_now(file: IO[str]) -> bool:
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@contextmanager
def _lock_file(database: str, name: str) -> Iterator[IO[str]]:
    """The lock file beside a SQLite file (owner only, as the file); closing it releases the lock."""
    with os.fdopen(os.open(f"{database}.{name}-lock", os.O_CREAT | os.O_WRONLY, FILE_MODE), "w") as file:
        yield file


_MEMORY_LOCKS: dict[str, threading.Lock] = {}

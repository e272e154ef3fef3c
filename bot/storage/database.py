"""The engine from ``DATABASE_URL`` and its schema: migrated by Alembic at start-up or by a job.

Several bot processes share one database. PostgreSQL takes care of that itself. SQLite is put in WAL
mode (readers never wait for a writer) with a busy timeout, and every statement is its own transaction
(autocommit): a writer waits its turn for at most the timeout, and no transaction that read first can
fail on upgrading its lock ("database is locked"). effbatch's own writes are single statements (an
upsert, a delete); slack_sdk's save (a select, then an insert or update) runs once per installation,
and token rotations are serialized per workspace (``named_lock``). Migrations take a lock of their own
(an advisory lock in PostgreSQL, a file lock beside a SQLite file): the first process migrates, the
others wait and find the schema current.
"""

from __future__ import annotations

import fcntl
import logging
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.engine import URL
from sqlalchemy.pool import StaticPool

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger("effbatch")

MIGRATIONS = Path(__file__).with_name("migrations")
#: The default database: this file in the data directory (``EFFBATCH_DATA_DIR``, ``./data`` unless set).
SQLITE_FILE = "effbatch.sqlite3"
#: Seconds a SQLite writer waits for another process's transaction before giving up.
SQLITE_BUSY_SECONDS = 15
#: The PostgreSQL advisory lock migrations hold (any constant shared by every effbatch process).
MIGRATION_LOCK = 0x0EFFBA7C


def default_url(data_dir: Path) -> str:
    """``sqlite:///…/effbatch.sqlite3`` in ``data_dir``, created if missing."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / SQLITE_FILE).resolve()}"


def engine_for(url: str) -> Engine:
    """An engine for ``url``; SQLite tuned for several processes, an in-memory one kept on one connection."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True, pool_size=4, max_overflow=4)
    memory = parsed.database in (None, "", ":memory:")
    options: dict[str, Any] = {"connect_args": {"timeout": SQLITE_BUSY_SECONDS, "check_same_thread": False}}
    if memory:
        options["poolclass"] = StaticPool  # one connection, or every checkout would see an empty database
    engine = create_engine(parsed, isolation_level="AUTOCOMMIT", **options)
    event.listen(engine, "connect", _sqlite_connect)
    return engine


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
        command.upgrade(_alembic_config(connection), "head")
        connection.commit()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None before the first migration)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


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
    with open(f"{url.database}.{name}-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


_MEMORY_LOCKS: dict[str, threading.Lock] = {}

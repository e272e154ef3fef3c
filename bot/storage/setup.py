"""The bot's storage, opened once at start-up from the settings: engine, schema check, stores."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from effbatch.bot.storage.database import current_revision, default_url, engine_for, head_revision, migrate
from effbatch.bot.storage.guard import READ_SECONDS, DatabaseGuard
from effbatch.bot.storage.profiles import PROFILES, ProfileStore
from effbatch.bot.texts import storage as texts

if TYPE_CHECKING:
    from effbatch.bot.storage.slack_stores import InstallationStore, OAuthStateStore


class StorageError(Exception):
    """The database cannot be used; the message (German) says why and what to do."""


@dataclass(frozen=True)
class Storage:
    """What the bot keeps: channel profiles always; installations and OAuth state when installed through OAuth."""

    engine: Engine
    profiles: ProfileStore
    #: Bounds the request path's database calls in time, and answers /readyz (``ready()``).
    guard: DatabaseGuard
    installations: InstallationStore | None = None
    states: OAuthStateStore | None = None


def database_url(configured: str | None, data_dir: Path) -> str:
    """``DATABASE_URL``, or the SQLite file in ``EFFBATCH_DATA_DIR``."""
    return configured if configured else default_url(data_dir)


def shown_url(url: str) -> str:
    """The URL with its password hidden, for messages and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return texts.UNREADABLE_URL


def open_storage(
    url: str, *, migrate_now: bool, client_id: str | None = None, seconds: float = READ_SECONDS
) -> Storage:
    """Connect, migrate (``migrate_now``) or check that a job did, and build the stores (installations and
    OAuth state with an OAuth ``client_id``); a request waits at most ``seconds`` for a read (``DatabaseGuard``).

    ``StorageError`` when the database is unreachable, the URL unreadable or the schema behind. The engine's
    pooled connections are dropped in forked children (HTTP workers), which open their own."""
    try:
        engine = engine_for(url)
        if migrate_now:
            migrate(engine)
        elif (current := current_revision(engine)) != head_revision():
            raise StorageError(texts.SCHEMA_BEHIND.format(current=current or "leer", head=head_revision()))
        storage = stores(engine, client_id, seconds)
        # The first query compiles its statement (tens of ms): done here, before HTTP workers fork, not on the
        # first command each worker answers. Connections are not shared with forked children: each opens its own.
        storage.profiles.warm()
        if storage.installations is not None:
            storage.installations.warm()
    except SQLAlchemyError as error:
        raise StorageError(texts.UNREACHABLE.format(url=shown_url(url), detail=_detail(error))) from None
    except (ValueError, ImportError, OSError) as error:
        raise StorageError(texts.UNREADABLE.format(url=shown_url(url), detail=error)) from None
    engine.dispose()
    os.register_at_fork(after_in_child=lambda: engine.dispose(close=False))
    return storage


def stores(engine: Engine, client_id: str | None, seconds: float = READ_SECONDS) -> Storage:
    """The stores over a migrated ``engine``; installations and states only with an OAuth ``client_id``."""
    guard = DatabaseGuard(engine, seconds)
    if client_id is None:
        return Storage(engine, ProfileStore(engine, guard), guard)
    from effbatch.bot.storage.slack_stores import (  # slack_sdk's stores: OAuth mode only
        InstallationStore,
        OAuthStateStore,
    )

    installations = InstallationStore(client_id, engine, guard)
    return Storage(engine, ProfileStore(engine, guard), guard, installations, OAuthStateStore(engine))


def memory_storage() -> Storage:
    """A fresh in-memory database for profiles (the console: for as long as it runs). The profiles' table is made
    from its definition, which tests/test_storage.py holds equal to the migrated one: Alembic stays unimported."""
    engine = engine_for("sqlite://")
    PROFILES.metadata.create_all(engine)
    return stores(engine, None)


def _detail(error: SQLAlchemyError) -> str:
    """The driver's first line, without the SQL and parameters SQLAlchemy appends."""
    original = getattr(error, "orig", None) or error
    return str(original).strip().splitlines()[0] if str(original).strip() else type(original).__name__

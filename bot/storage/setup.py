"""The bot's storage, opened once at start-up from the settings: engine, schema check, stores."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from effbatch.bot.storage.database import HEAD, default_url, engine_for, migrate, stamped_revision
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
    #: The SQLite file's folder when opening made it (``discard`` removes it again).
    created: Path | None = None

    def shown_url(self) -> str:
        """Where the data is, for the start-up log line: the database's URL, its password hidden."""
        return shown_url(self.engine.url.render_as_string(hide_password=False))

    def discard(self) -> None:
        """Close the connections and remove what opening made: a start-up that failed leaves no folder behind."""
        self.engine.dispose()
        if self.created is not None:
            shutil.rmtree(self.created, ignore_errors=True)


def database_url(configured: str | None, data_dir: Path) -> str:
    """``DATABASE_URL``, or the SQLite file in ``EFFBATCH_DATA_DIR``."""
    return configured if configured else default_url(data_dir)


def shown_url(url: str) -> str:
    """The URL with its password hidden, for messages and logs: after the user name and as a query parameter."""
    try:
        parsed = make_url(url)
    except SQLAlchemyError:
        return texts.UNREADABLE_URL
    hidden = {name: "HIDDEN" for name in parsed.query if name.lower() in _PASSWORD_PARAMETERS}
    shown = parsed.update_query_dict(hidden).render_as_string(hide_password=True)
    return shown.replace("=HIDDEN", "=***") if hidden else shown


#: Query parameters of a database URL that hold a password (libpq's names; SQLAlchemy hides only user:password@).
_PASSWORD_PARAMETERS = frozenset({"password", "sslpassword", "passwd"})


def open_storage(
    url: str, *, migrate_now: bool, client_id: str | None = None, seconds: float = READ_SECONDS
) -> Storage:
    """Connect, migrate (``migrate_now``) or check that a job did, and build the stores (installations and
    OAuth state with an OAuth ``client_id``); a request waits at most ``seconds`` for a read (``DatabaseGuard``).

    ``StorageError`` when the database is unreachable, the URL unreadable or the schema behind. The engine's
    pooled connections are dropped in forked children (HTTP workers), which open their own."""
    folder = _sqlite_folder(url)
    created = folder if folder is not None and not folder.exists() else None
    try:
        engine = engine_for(url)
        if (current := stamped_revision(engine)) != HEAD:  # a current schema needs no Alembic at all
            if not migrate_now:
                raise StorageError(texts.SCHEMA_BEHIND.format(current=current or "leer", head=HEAD))
            migrate(engine)
        storage = replace(stores(engine, client_id, seconds), created=created)
        # The first query compiles its statement (tens of ms): done here, before HTTP workers fork, not on the
        # first command each worker answers. Connections are not shared with forked children: each opens its own.
        storage.profiles.warm()
        if storage.installations is not None:
            storage.installations.warm()
    except SQLAlchemyError as error:
        _remove(created)
        raise StorageError(texts.UNREACHABLE.format(url=shown_url(url), detail=_detail(error))) from None
    except (ValueError, ImportError, OSError) as error:
        _remove(created)
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


def _sqlite_folder(url: str) -> Path | None:
    """The folder of a SQLite file ``url`` names; None for anything else (or an unreadable URL)."""
    try:
        parsed = make_url(url)
    except SQLAlchemyError:
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(str(parsed.database)).resolve().parent


def _remove(created: Path | None) -> None:
    if created is not None:
        shutil.rmtree(created, ignore_errors=True)


def _detail(error: SQLAlchemyError) -> str:
    """The driver's first line, without the SQL and parameters SQLAlchemy appends."""
    original = getattr(error, "orig", None) or error
    return str(original).strip().splitlines()[0] if str(original).strip() else type(original).__name__

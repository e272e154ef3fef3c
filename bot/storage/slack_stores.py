"""slack_sdk's SQLAlchemy installation and OAuth-state stores over effbatch's engine, with two changes.

- An OAuth state is consumed by one ``DELETE … WHERE state = ? AND expire_at > now``: of two processes
  handed the same state at once, exactly one succeeds (slack_sdk selects, then deletes; both would pass).
  Expired states are removed when new ones are issued.
- The tables are created by effbatch's migrations, never by ``create_tables``.

The installation store is slack_sdk's, bounded in time (``bot.storage.guard``) and with a cache per
process: a workspace's installation, once read, is answered from memory for ``CACHE_SECONDS`` – a command of
an installed workspace needs no database round trip. What this process writes or deletes (an install, a
token rotation, ``tokens_revoked``, ``app_uninstalled``) is forgotten at once; what another process changed
is seen when the entry ends (an uninstall there: within ``CACHE_SECONDS``; a rotation there: at the latest
when this process's rotator looks, which reads the database). ``save`` after a token rotation updates the
row with the same ``installed_at`` (tests/test_storage.py rotates twice and counts the rows).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime

from slack_sdk.oauth.installation_store import Bot, Installation
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.sqlalchemy_utils import normalize_datetime_for_db
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import Engine

from effbatch.bot.storage.guard import DatabaseGuard

#: Seconds an install link's state stays valid (Bolt's default: ten minutes).
STATE_SECONDS = 600
#: Seconds an installation read from the database is answered from memory.
CACHE_SECONDS = 30.0

log = logging.getLogger("effbatch")

#: A workspace as the stores key it: (enterprise id, team id); an enterprise-wide install has no team id.
Key = tuple[str | None, str | None]


def key_of(enterprise_id: str | None, team_id: str | None, is_enterprise_install: bool | None = False) -> Key:
    return enterprise_id or None, None if is_enterprise_install or not team_id else team_id


_Base = SQLAlchemyInstallationStore


class InstallationStore(SQLAlchemyInstallationStore):
    """Installations and bots per workspace, as slack_sdk keeps them, cached per process, bounded in time."""

    def __init__(
        self, client_id: str, engine: Engine, guard: DatabaseGuard | None = None, cache_seconds: float = CACHE_SECONDS
    ) -> None:
        super().__init__(client_id=client_id, engine=engine, logger=log)
        self._guard = guard or DatabaseGuard(engine)
        self._cache_seconds = cache_seconds
        self._cache: dict[Key, tuple[float, Installation]] = {}
        self._no_user: dict[tuple[Key, str], float] = {}  # users of a workspace with no installation of their own
        self._lock = threading.Lock()

    def installed(self, enterprise_id: str | None, team_id: str | None) -> bool:
        """Whether the workspace has a bot token here (an enterprise-wide install counts for its teams)."""
        if self.cached(enterprise_id, team_id):
            return True
        found = self.find_installation(enterprise_id=enterprise_id, team_id=team_id)
        if found is not None and found.bot_token is not None:
            return True
        if enterprise_id is None:
            return False
        wide = self.find_installation(enterprise_id=enterprise_id, team_id=None, is_enterprise_install=True)
        return wide is not None and wide.bot_token is not None

    def warm(self) -> None:
        """Compile the lookup's statements before HTTP workers fork (as ``ProfileStore.warm``)."""
        super().find_installation(enterprise_id=None, team_id="")

    def cached(self, enterprise_id: str | None, team_id: str | None) -> bool:
        """Whether ``installed`` answers from memory, True, without the database (the workspace's own installation
        or its enterprise's org-wide one)."""
        keys = [key_of(enterprise_id, team_id)] + ([key_of(enterprise_id, None)] if enterprise_id else [])
        return any(self._hit(key) is not None for key in keys)

    def find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        key = key_of(enterprise_id, team_id, is_enterprise_install)
        if user_id is None and (hit := self._hit(key)) is not None:
            return _copy(hit)
        if user_id is not None and self._no_user.get((key, user_id), 0.0) > time.monotonic():
            return None
        found = self._guard.read(
            lambda: _Base.find_installation(
                self,
                enterprise_id=enterprise_id,
                team_id=team_id,
                user_id=user_id,
                is_enterprise_install=is_enterprise_install,
            ),
        )
        if user_id is None and found is not None and found.bot_token is not None:
            self._remember(key, found)
        elif user_id is not None and found is None:
            self._no_user[(key, user_id)] = time.monotonic() + self._cache_seconds
        return _copy(found)

    def reload(self, installation: Installation) -> Installation | None:
        """The workspace's installation as the database has it now (another process may have changed it)."""
        self.forget(installation.enterprise_id, installation.team_id, installation.is_enterprise_install)
        return super().find_installation(
            enterprise_id=installation.enterprise_id,
            team_id=installation.team_id,
            is_enterprise_install=installation.is_enterprise_install,
        )

    def find_bot(
        self, *, enterprise_id: str | None, team_id: str | None, is_enterprise_install: bool | None = False
    ) -> Bot | None:
        found: Bot | None = self._guard.read(
            lambda: _Base.find_bot(
                self, enterprise_id=enterprise_id, team_id=team_id, is_enterprise_install=is_enterprise_install
            ),
        )
        return found

    def save(self, installation: Installation) -> None:
        self.forget(installation.enterprise_id, installation.team_id, installation.is_enterprise_install)
        self._guard.write(lambda: _Base.save(self, installation))
        self.forget(installation.enterprise_id, installation.team_id, installation.is_enterprise_install)

    def save_bot(self, bot: Bot) -> None:
        self.forget(bot.enterprise_id, bot.team_id, bot.is_enterprise_install)
        self._guard.write(lambda: _Base.save_bot(self, bot))

    def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        self.forget(enterprise_id, team_id)
        self._guard.write(lambda: _Base.delete_bot(self, enterprise_id=enterprise_id, team_id=team_id))

    def delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        self.forget(enterprise_id, team_id)
        self._guard.write(
            lambda: _Base.delete_installation(self, enterprise_id=enterprise_id, team_id=team_id, user_id=user_id),
        )

    def forget(
        self, enterprise_id: str | None, team_id: str | None, is_enterprise_install: bool | None = False
    ) -> None:
        """Drop the workspace's cached installation; an enterprise without a team: all of that enterprise's."""
        key = key_of(enterprise_id, team_id, is_enterprise_install)
        with self._lock:
            for known in list(self._cache):
                if known == key or (key[1] is None and key[0] is not None and known[0] == key[0]):
                    del self._cache[known]
            self._no_user = {k: v for k, v in self._no_user.items() if k[0] != key}

    def _hit(self, key: Key) -> Installation | None:
        entry = self._cache.get(key)
        if entry is None or entry[0] <= time.monotonic():
            return None
        return entry[1]

    def _remember(self, key: Key, installation: Installation) -> None:
        with self._lock:
            self._cache[key] = (time.monotonic() + self._cache_seconds, installation)


def _copy(installation: Installation | None) -> Installation | None:
    """A copy Bolt may change (it clears the user token of another user's request) without changing the cache."""
    return None if installation is None else Installation(**installation.to_dict_for_copying())


class OAuthStateStore(SQLAlchemyOAuthStateStore):
    """The install links' states; each consumed at most once, whichever process gets the redirect."""

    def __init__(self, engine: Engine, expiration_seconds: int = STATE_SECONDS) -> None:
        super().__init__(expiration_seconds=expiration_seconds, engine=engine, logger=log)

    def issue(self, *args: object, **kwargs: object) -> str:
        c = self.oauth_states.c
        with self.engine.begin() as connection:
            connection.execute(self.oauth_states.delete().where(c.expire_at <= _now()))
        return str(super().issue(*args, **kwargs))

    def consume(self, state: str) -> bool:
        c = self.oauth_states.c
        with self.engine.begin() as connection:
            deleted = connection.execute(self.oauth_states.delete().where(c.state == state, c.expire_at > _now()))
        return deleted.rowcount == 1


def _now() -> datetime | None:
    return normalize_datetime_for_db(datetime.now(tz=UTC))

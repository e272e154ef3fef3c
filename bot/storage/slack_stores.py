"""slack_sdk's SQLAlchemy installation and OAuth-state stores over effbatch's engine, with two changes.

- An OAuth state is consumed by one ``DELETE … WHERE state = ? AND expire_at > now``: of two processes
  handed the same state at once, exactly one succeeds (slack_sdk selects, then deletes; both would pass).
  Expired states are removed when new ones are issued.
- The tables are created by effbatch's migrations, never by ``create_tables``.

The installation store is slack_sdk's as it is: ``save`` after a token rotation updates the row with
the same ``installed_at`` (tests/test_storage.py rotates twice and counts the rows).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.sqlalchemy_utils import normalize_datetime_for_db
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import Engine

#: Seconds an install link's state stays valid (Bolt's default: ten minutes).
STATE_SECONDS = 600

log = logging.getLogger("effbatch")


class InstallationStore(SQLAlchemyInstallationStore):
    """Installations and bots per workspace, as slack_sdk keeps them."""

    def __init__(self, client_id: str, engine: Engine) -> None:
        super().__init__(client_id=client_id, engine=engine, logger=log)

    def installed(self, enterprise_id: str | None, team_id: str | None) -> bool:
        """Whether the workspace has a bot token here (an enterprise-wide install counts for its teams)."""
        if self.find_bot(enterprise_id=enterprise_id, team_id=team_id) is not None:
            return True
        return enterprise_id is not None and (
            self.find_bot(enterprise_id=enterprise_id, team_id=None, is_enterprise_install=True) is not None
        )


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

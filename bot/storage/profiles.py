"""Channel profiles in the database: one row per (team, channel), the settings as a JSON object of texts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import import_module

import sqlalchemy as sa
from sqlalchemy import Engine

from effbatch.bot.storage.guard import DatabaseGuard
from effbatch.bot.texts import storage as texts

_METADATA = sa.MetaData()
#: As migrations r0001 and r0002 make it.
PROFILES = sa.Table(
    "channel_profiles",
    _METADATA,
    sa.Column("team_id", sa.String(32), primary_key=True),
    sa.Column("channel_id", sa.String(32), primary_key=True),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("set_by", sa.String(32), nullable=False),
    sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
    # The workspace's Enterprise Grid organization, if any: an org-wide uninstall names no team.
    sa.Column("enterprise_id", sa.String(32), nullable=True, index=True),
)


@dataclass(frozen=True)
class ChannelProfile:
    """What a channel's profile holds (canonical key → value as typed), who set it and when (UTC)."""

    settings: tuple[tuple[str, str], ...]
    set_by: str
    set_at: datetime

    def as_dict(self) -> dict[str, str]:
        return dict(self.settings)


class ProfileStore:
    """Reads and writes channel profiles; every call is one short transaction, safe from several processes, and
    bounded in time by ``guard`` (``DatabaseUnavailableError`` with a German message when the database is slow)."""

    def __init__(self, engine: Engine, guard: DatabaseGuard | None = None) -> None:
        self._engine = engine
        self._guard = guard or DatabaseGuard(engine)

    def get(self, team: str, channel: str) -> ChannelProfile | None:
        return self._guard.read(lambda: self._get(team, channel), texts.PROFILE_NOT_READ)

    def put(self, team: str, channel: str, profile: ChannelProfile, enterprise: str | None = None) -> None:
        """Store ``profile`` as the channel's, replacing any before it (one upsert: the last writer wins); with the
        workspace's Enterprise Grid organization where it has one."""
        self._guard.write(lambda: self._put(team, channel, profile, enterprise), texts.PROFILE_NOT_STORED)

    def delete(self, team: str, channel: str) -> bool:
        """Remove the channel's profile; False when it had none."""
        return self._guard.write(lambda: self._delete(team, channel), texts.PROFILE_NOT_DELETED)

    def warm(self) -> None:
        """Compile the read's statement (tens of ms) here, before HTTP workers fork: not on each worker's first."""
        self._get("", "")

    def _get(self, team: str, channel: str) -> ChannelProfile | None:
        query = sa.select(PROFILES.c.settings, PROFILES.c.set_by, PROFILES.c.set_at).where(
            PROFILES.c.team_id == team, PROFILES.c.channel_id == channel
        )
        with self._engine.connect() as connection:
            row = connection.execute(query).first()
        if row is None:
            return None
        settings = tuple((str(k), str(v)) for k, v in json.loads(row.settings))
        set_at = row.set_at if row.set_at.tzinfo else row.set_at.replace(tzinfo=UTC)  # SQLite keeps no zone
        return ChannelProfile(settings, row.set_by, set_at.astimezone(UTC))

    def _put(self, team: str, channel: str, profile: ChannelProfile, enterprise: str | None) -> None:
        values = {
            "enterprise_id": enterprise or None,
            "team_id": team,
            "channel_id": channel,
            "settings": json.dumps([list(pair) for pair in profile.settings], ensure_ascii=False),
            "set_by": profile.set_by,
            "set_at": profile.set_at.astimezone(UTC),
        }
        # the dialect in use only: PostgreSQL's costs a SQLite bot tens of milliseconds of start-up
        name = "postgresql" if self._engine.dialect.name == "postgresql" else "sqlite"
        dialect = import_module(f"sqlalchemy.dialects.{name}")
        insert = dialect.insert(PROFILES).values(values)
        changed = {name: insert.excluded[name] for name in ("settings", "set_by", "set_at", "enterprise_id")}
        statement = insert.on_conflict_do_update(index_elements=["team_id", "channel_id"], set_=changed)
        with self._engine.begin() as connection:
            connection.execute(statement)

    def _delete(self, team: str, channel: str) -> bool:
        statement = PROFILES.delete().where(PROFILES.c.team_id == team, PROFILES.c.channel_id == channel)
        with self._engine.begin() as connection:
            return connection.execute(statement).rowcount > 0

    def delete_team(self, team: str) -> int:
        """Remove every profile of a workspace (it uninstalled effbatch); how many there were."""
        statement = PROFILES.delete().where(PROFILES.c.team_id == team)
        return self._guard.write(lambda: self._deleted(statement))

    def delete_enterprise(self, enterprise: str) -> int:
        """Remove every profile of an Enterprise Grid organization's workspaces (an org-wide uninstall)."""
        statement = PROFILES.delete().where(PROFILES.c.enterprise_id == enterprise)
        return self._guard.write(lambda: self._deleted(statement))

    def _deleted(self, statement: sa.Delete) -> int:
        with self._engine.begin() as connection:
            return connection.execute(statement).rowcount


def now() -> datetime:
    return datetime.now(UTC)

"""Slack installations and OAuth state (slack_sdk's SQLAlchemy stores' tables) and channel profiles.

The three ``slack_*`` tables are written out as slack_sdk 3.48 defines them
(``slack_sdk/oauth/installation_store/sqlalchemy/__init__.py``, ``…/state_store/sqlalchemy/__init__.py``),
columns for token rotation included; ``tests/test_storage.py`` compares them with slack_sdk's own
definitions, so that an upgrade of slack_sdk that adds a column asks for a migration.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _bot_columns() -> list[sa.Column[object]]:
    """The columns slack_bots and slack_installations share, in slack_sdk's order."""
    return [
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client_id", sa.String(32), nullable=False),
        sa.Column("app_id", sa.String(32), nullable=False),
        sa.Column("enterprise_id", sa.String(32)),
        sa.Column("enterprise_name", sa.String(200)),
    ]


def _bot_token_columns() -> list[sa.Column[object]]:
    return [
        sa.Column("bot_token", sa.String(200)),
        sa.Column("bot_id", sa.String(32)),
        sa.Column("bot_user_id", sa.String(32)),
        sa.Column("bot_scopes", sa.String(1000)),
        sa.Column("bot_refresh_token", sa.String(200)),
        sa.Column("bot_token_expires_at", sa.DateTime),
    ]


def _installed_at() -> list[sa.Column[object]]:
    return [
        sa.Column("is_enterprise_install", sa.Boolean, nullable=False, default=False),
        sa.Column("installed_at", sa.DateTime, nullable=False, server_default=sa.func.now()),
    ]


def upgrade() -> None:
    _installations()
    _bots()
    op.create_table(
        "slack_oauth_states",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("state", sa.String(200), nullable=False),
        sa.Column("expire_at", sa.DateTime, nullable=False),
    )
    op.create_index("slack_oauth_states_state_idx", "slack_oauth_states", ["state"])
    op.create_table(
        "channel_profiles",
        sa.Column("team_id", sa.String(32), primary_key=True),
        sa.Column("channel_id", sa.String(32), primary_key=True),
        # The profile's settings as a JSON object of texts (key → value as typed): a key the calculator learns
        # later (gpu=h100, the GPU model) needs no migration.
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("set_by", sa.String(32), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
    )


def _installations() -> None:
    op.create_table(
        "slack_installations",
        *_bot_columns(),
        sa.Column("enterprise_url", sa.String(200)),
        sa.Column("team_id", sa.String(32)),
        sa.Column("team_name", sa.String(200)),
        *_bot_token_columns(),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("user_token", sa.String(200)),
        sa.Column("user_scopes", sa.String(1000)),
        sa.Column("user_refresh_token", sa.String(200)),
        sa.Column("user_token_expires_at", sa.DateTime),
        sa.Column("incoming_webhook_url", sa.String(200)),
        sa.Column("incoming_webhook_channel", sa.String(200)),
        sa.Column("incoming_webhook_channel_id", sa.String(200)),
        sa.Column("incoming_webhook_configuration_url", sa.String(200)),
        sa.Column("token_type", sa.String(32)),
        *_installed_at(),
    )
    columns = ["client_id", "enterprise_id", "team_id", "user_id", "installed_at"]
    op.create_index("slack_installations_idx", "slack_installations", columns)


def _bots() -> None:
    op.create_table(
        "slack_bots",
        *_bot_columns(),
        sa.Column("team_id", sa.String(32)),
        sa.Column("team_name", sa.String(200)),
        *_bot_token_columns(),
        *_installed_at(),
    )
    op.create_index("slack_bots_idx", "slack_bots", ["client_id", "enterprise_id", "team_id", "installed_at"])


def downgrade() -> None:
    op.drop_table("channel_profiles")
    op.drop_index("slack_oauth_states_state_idx", "slack_oauth_states")
    op.drop_table("slack_oauth_states")
    op.drop_index("slack_bots_idx", "slack_bots")
    op.drop_table("slack_bots")
    op.drop_index("slack_installations_idx", "slack_installations")
    op.drop_table("slack_installations")

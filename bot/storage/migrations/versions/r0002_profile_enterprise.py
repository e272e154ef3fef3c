"""Channel profiles know their Enterprise Grid organization: uninstalling effbatch from a whole organization
(an org-wide install, whose events name no team) removes the profiles of all its workspaces.

Profiles stored before this revision have none (NULL): an org-wide uninstall cannot find those; a workspace's
own uninstall still does.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("channel_profiles") as table:
        table.add_column(sa.Column("enterprise_id", sa.String(32), nullable=True))
    op.create_index("channel_profiles_enterprise_idx", "channel_profiles", ["enterprise_id"])


def downgrade() -> None:
    op.drop_index("channel_profiles_enterprise_idx", "channel_profiles")
    with op.batch_alter_table("channel_profiles") as table:
        table.drop_column("enterprise_id")

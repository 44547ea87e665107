"""Timed-out turns are recorded; indexes for the paginated lobby and the expiry of idle games.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("timed_out_to", sa.String(32), nullable=True))
    op.create_index("ix_games_status_created", "games", ["status", "created_at"])
    op.create_index("ix_games_status_updated", "games", ["status", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_status_updated", "games")
    op.drop_index("ix_games_status_created", "games")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("timed_out_to")

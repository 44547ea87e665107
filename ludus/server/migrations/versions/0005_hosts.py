"""Who holds a game, and when a person last played in it: ``games.host`` (a digest of the creator's
address, for the per-address caps and the bots' fair queue) and ``games.renewed_at`` (the idle
expiry counts from it: a bot's move keeps no game alive).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("host", sa.String(64), nullable=True))
        batch.add_column(sa.Column("renewed_at", sa.Float, nullable=True))
    op.execute("UPDATE games SET renewed_at = updated_at")
    op.create_index("ix_games_status_host", "games", ["status", "host"])
    op.create_index("ix_games_status_renewed", "games", ["status", "renewed_at"])


def downgrade() -> None:
    op.drop_index("ix_games_status_renewed", "games")
    op.drop_index("ix_games_status_host", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("renewed_at")
        batch.drop_column("host")

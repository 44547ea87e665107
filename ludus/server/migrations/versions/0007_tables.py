"""Tables that wait for their players: invitations, open seats, a waiting room and turn-based play.

``tables``: a game's waiting room (``waits``), its host (account or seat), turn-based settings
(``turn_hours``, ``on_timeout``; ``games.turn_seconds`` holds the hours too, so the turn timer and its
stored deadline are the real-time one's) and its rematch. ``seat_offers``: seats offered to a named
account or to anyone with the link, not yet taken. Every game stored before has no row in either: it
counts as started and plays on as it did.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("waits", sa.Boolean, nullable=False),
        sa.Column("host_account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("host_seat", sa.Integer, nullable=True),
        sa.Column("turn_hours", sa.Integer, nullable=True),
        sa.Column("on_timeout", sa.String(8), nullable=True),
        sa.Column("rematch_id", sa.String(32), nullable=True),
    )
    op.create_table(
        "seat_offers",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("offer", sa.String(8), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    )
    op.create_index("ix_seat_offers_account", "seat_offers", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seat_offers_account", "seat_offers")
    op.drop_table("seat_offers")
    op.drop_table("tables")

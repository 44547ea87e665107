"""E-mail notices: ``mail_log`` (one row per notice sent: a game's turn, invitation or end, for one account;
its key makes a second notice of the same turn impossible, also between two server processes) and
``server_secrets`` (random keys the server makes once, such as the one signing unsubscribe links).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_log",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("turn_key", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_table("mail_log")

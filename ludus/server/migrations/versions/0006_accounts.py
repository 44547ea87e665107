"""Accounts: people who sign up (``accounts``), their sessions (``sessions``) and password-reset tokens
(``password_resets``); a seat may be held by an account (``seats.account_id``, null for a guest's seat,
which keeps its token as before). Seats get indexes by account (an account's games) and by token hash
(a guest claiming the seats its browser holds). Every game stored before stays as it was: playable by
its seat tokens.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("notify_email", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("banned_at", sa.Float, nullable=True),
        sa.Column("deleted_at", sa.Float, nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_index("ix_sessions_expires", "sessions", ["expires_at"])
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_password_resets_account", "password_resets", ["account_id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_seats_account", "accounts", ["account_id"], ["id"])
    op.create_index("ix_seats_account", "seats", ["account_id"])
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])


def downgrade() -> None:
    op.drop_index("ix_seats_token_hash", "seats")
    op.drop_index("ix_seats_account", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_account", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_table("password_resets")
    op.drop_table("sessions")
    op.drop_table("accounts")

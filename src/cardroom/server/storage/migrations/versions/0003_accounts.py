"""Accounts and their sign-in sessions; what kind of player each rated player is.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``accounts`` and ``sessions``; add ``players.kind`` (the players rated before accounts
    existed are ``guest``)."""
    op.create_table(
        "accounts",
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("password_hash", sa.Text(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_accounts"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.Text(), nullable=False),
        sa.Column("account_key", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_key"], ["accounts.key"], name="fk_sessions_account_key_accounts"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_account_key", "sessions", ["account_key"])
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("kind", sa.String(length=16), server_default="guest", nullable=False))


def downgrade() -> None:
    """Drop what ``upgrade`` added (its data with it)."""
    with op.batch_alter_table("players") as batch:
        batch.drop_column("kind")
    op.drop_index("ix_sessions_account_key", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")

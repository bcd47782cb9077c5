"""The bot ladder: its entrants (one per bot and generation) with their ratings, and its matches.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``ladder_entrants`` (by key ``id#generation``: the bot, its owner, generation and name, its
    rating and record as JSON, when last seen) and ``ladder_matches`` (by id: status, day, its teams,
    tables, games and result as JSON). People's ``players`` are not touched."""
    op.create_table(
        "ladder_entrants",
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("bot", sa.Text(), nullable=False),
        sa.Column("owner", sa.Text(), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("key", name="pk_ladder_entrants"),
    )
    op.create_index("ix_ladder_entrants_bot", "ladder_entrants", ["bot"])
    op.create_table(
        "ladder_matches",
        sa.Column("id", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("day", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_ladder_matches"),
    )
    op.create_index("ix_ladder_matches_status", "ladder_matches", ["status"])


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_index("ix_ladder_matches_status", table_name="ladder_matches")
    op.drop_table("ladder_matches")
    op.drop_index("ix_ladder_entrants_bot", table_name="ladder_entrants")
    op.drop_table("ladder_entrants")

"""Tournaments, players' ratings, and the ``rated`` mark of tables.

Revision ID: 0002
Revises: 0001
Create Date: 2025-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``tables.rated``; create ``tournaments``, ``players`` and ``player_matches``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("director_hash", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_table(
        "players",
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("last_place_streak", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_players"),
    )
    op.create_table(
        "player_matches",
        sa.Column("player_key", sa.Text(), nullable=False),
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["player_key"], ["players.key"], name="fk_player_matches_player_key_players"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name="fk_player_matches_table_id_tables"),
        sa.PrimaryKeyConstraint("player_key", "table_id", name="pk_player_matches"),
    )


def downgrade() -> None:
    """Drop what ``upgrade`` added (its data with it)."""
    op.drop_table("player_matches")
    op.drop_table("players")
    op.drop_table("tournaments")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")

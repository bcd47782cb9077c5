"""Tables and their event logs.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``tables`` (one row per card table) and ``events`` (its log, numbered from 1)."""
    op.create_table(
        "tables",
        sa.Column("id", sa.Text(), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_tables"),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "events",
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name="fk_events_table_id_tables"),
        sa.PrimaryKeyConstraint("table_id", "number", name="pk_events"),
    )


def downgrade() -> None:
    """Drop both tables (their data with them)."""
    op.drop_table("events")
    op.drop_index("ix_tables_status", table_name="tables")
    op.drop_table("tables")

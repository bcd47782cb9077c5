"""Several server processes on one database: table leases, the cluster's secret, the lobby's line of
each table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``leases`` (which process owns a table, or the primary role, until when) and ``cluster``
    (the secret the processes trust each other's forwarded requests by, made here once); add
    ``tables.summary`` (the lobby's line, written as it changes)."""
    op.create_table(
        "leases",
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("node", sa.Text(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_leases"),
    )
    op.create_index("ix_leases_node", "leases", ["node"])
    cluster = op.create_table(
        "cluster",
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_cluster"),
    )
    op.bulk_insert(cluster, [{"name": "secret", "value": secrets.token_hex(32)}])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("summary", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("summary")
    op.drop_table("cluster")
    op.drop_index("ix_leases_node", table_name="leases")
    op.drop_table("leases")

"""Each account's skeleton (what its name looks like), so that a lookalike name is refused.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``accounts.skeleton`` (indexed; the accounts opened before it get theirs when the server
    starts: ``Accounts.fill_skeletons``)."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("skeleton", sa.Text(), nullable=True))
    op.create_index("ix_accounts_skeleton", "accounts", ["skeleton"])


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_index("ix_accounts_skeleton", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("skeleton")

"""Bot accounts: who owns each, what it says of itself, and the hash of its API token.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``bots``: one row per bot account (its ``accounts`` row holds its name and skeleton), the
    owner's key, its description and link, the SHA-256 of its API token (``NULL`` once revoked) and
    the token's generation."""
    op.create_table(
        "bots",
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("owner", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("link", sa.Text(), nullable=False),
        sa.Column("token_hash", sa.Text(), nullable=True),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("token_created", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["key"], ["accounts.key"], name="fk_bots_key_accounts"),
        sa.ForeignKeyConstraint(["owner"], ["accounts.key"], name="fk_bots_owner_accounts"),
        sa.PrimaryKeyConstraint("key", name="pk_bots"),
    )
    op.create_index("ix_bots_owner", "bots", ["owner"])
    op.create_index("ix_bots_token_hash", "bots", ["token_hash"], unique=True)


def downgrade() -> None:
    """Drop what ``upgrade`` added, and the bots' accounts with it."""
    op.drop_index("ix_bots_token_hash", table_name="bots")
    op.drop_index("ix_bots_owner", table_name="bots")
    op.execute("DELETE FROM accounts WHERE key IN (SELECT key FROM bots)")
    op.drop_table("bots")

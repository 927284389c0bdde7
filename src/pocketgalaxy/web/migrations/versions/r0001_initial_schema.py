"""The schema as the first web store made it with `metadata.create_all` (no alembic_version).

A database from before migrations holds exactly these tables; `migrations.upgrade` recognises it
and stamps this revision without touching it. Written out here, not taken from `store.metadata`,
so this revision stays what it was when the tables change later.

Revision ID: 0001_initial
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("pinned", sa.JSON, nullable=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("creator_token_hash", sa.String(64), nullable=False),
        sa.Column("takeover_after_s", sa.Integer, nullable=True),
        sa.Column("turn_clock_s", sa.Integer, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("outcome", sa.JSON, nullable=True),
        sa.Column("action_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "idx", name="uq_actions_game_idx"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")

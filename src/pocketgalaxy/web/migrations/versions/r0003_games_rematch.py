"""`games.rematch_id` (the game a rematch of this one started) and `games.rematch_absent`
(what a rematch does with the seats of people who are not connected: "open" or "computer").

Revision ID: 0003_games_rematch
Revises: 0002_games_damage
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_games_rematch"
down_revision = "0002_games_damage"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rematch_id", sa.String(32), nullable=True))
    # Every game made before this revision gets the documented default.
    op.add_column("games", sa.Column("rematch_absent", sa.String(16), nullable=False,
                                     server_default="open"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_absent")
        batch.drop_column("rematch_id")

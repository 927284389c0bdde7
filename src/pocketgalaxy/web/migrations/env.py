"""Alembic's environment for the web store: run by `migrations.upgrade`, never by a command line.

The store hands over its own open connection in `config.attributes["connection"]`, so the
migrations run in the store's transaction, on its engine (SQLite pragmas included), with no
alembic.ini and no second URL.
"""

from __future__ import annotations

from alembic import context

from pocketgalaxy.web.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only when someone runs the alembic command by hand
    raise RuntimeError(
        "the web store's migrations run from pocketgalaxy.web.migrations.upgrade(engine); "
        "start the server or run `pocketgalaxy db check` to upgrade a database"
    )

# SQLite cannot alter most columns in place: batch mode rebuilds the table when a revision asks.
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()

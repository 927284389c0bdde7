"""Online play: a FastAPI app over one `Session` per live game, a SQLAlchemy store, a WebSocket hub.

`create_app(settings)` builds the app; `run(host=, port=, database_url=, data_dir=)` serves it with
uvicorn. See docs/web.md for the protocol, the settings and how durability works.
"""

from __future__ import annotations

from pocketgalaxy.web.server import create_app, run
from pocketgalaxy.web.settings import Settings

__all__ = ["Settings", "create_app", "run"]

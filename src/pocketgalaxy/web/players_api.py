"""`GET /api/players?game=GAME`: the computer players a person can choose, for the lobby.

The catalogue (agents/catalogue.py) with the measured strengths (agents/strength.json) is the
same for every request, so each game's reply is built once per process and sent with a
`Cache-Control` lifetime. The query is bounded: `game` is at most 32 characters and must name a
game of the catalogue (`game/unknown` with the list otherwise); nothing else is read.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Query, Response

from pocketgalaxy.agents import catalogue
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.web.errors import WebError

router = APIRouter()

MAX_AGE_S = 3600
"""How long a browser may keep the reply (the figures change only with a new release)."""


@lru_cache(maxsize=len(catalogue.ROLES))
def _body(game: str) -> bytes:
    return json.dumps(catalogue.catalogue_json(game), ensure_ascii=False).encode("utf-8")


@router.get("/players")
async def players(game: Annotated[str, Query(min_length=1, max_length=32)]) -> Response:
    """The catalogue of `game`: per role its default (what `bot` means) and its players by
    level, each with spec, level, description, the options it needs and its strength."""
    try:
        catalogue.roles(game)
    except PocketGalaxyError as exc:
        raise WebError("game/unknown", f"unknown game {game!r}", allowed=exc.allowed) from exc
    return Response(_body(game), media_type="application/json",
                    headers={"Cache-Control": f"public, max-age={MAX_AGE_S}"})

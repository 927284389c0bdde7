"""REST routes (JSON). Every refusal is `{"error": {"code", "message", "legal"}}` with a 4xx status.

The routes are thin: they read the request, ask the hub, and return what `payloads` builds.
Every body is checked before FastAPI or the hub reads it (`CheckedRoute`): bounded JSON and valid
text in every string (web/inputs.py), so nothing reaches the store that could not be sent back.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.options import describe_options
from pocketgalaxy.web import inputs, payloads, rematch
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.limits import Limits, client_address
from pocketgalaxy.web.live import LiveGame


class CheckedRoute(APIRoute):
    """A route whose JSON body passes `inputs.checked_json` before anything else reads it."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            body = await request.body()  # cached: FastAPI reads the same bytes afterwards
            if body:
                code = ("action/malformed" if request.url.path.endswith("/actions")
                        else "request/malformed")
                s = request.app.state.settings
                limits = inputs.TextLimits(
                    text=s.max_text_len, name=s.max_name_len, field=s.max_field_len)
                inputs.checked_json(inputs.decode_utf8(body, code=code), limits,
                                    malformed_code=code)
            return await handler(request)

        return checked


router = APIRouter(prefix="/api", route_class=CheckedRoute)


class SeatRequest(BaseModel):
    """One seat of a new game."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=200, description="computer player spec")
    name: str | None = Field(default=None, max_length=200)


class CreateGame(BaseModel):
    """`POST /api/games`. The server picks the seed."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=32)
    players: int
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(max_length=16)
    takeover_after_s: int | None = None
    turn_clock_s: int | None = None
    rematch_absent: Literal["open", "computer"] = "open"


class ClaimSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=200)


class TakeOver(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bot: str | None = Field(default=None, max_length=200)


class ActRequest(BaseModel):
    """`POST /api/games/{id}/actions`: `index` is the action count the client has seen."""

    model_config = ConfigDict(extra="forbid")
    seat: int
    action: Any
    index: int


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _settled(hub: Hub, game_id: str) -> LiveGame:
    """The game once no commit of it is under way: what a read shows next is stored."""
    live = await hub.fetch(game_id)
    await hub.settle(live)
    return live


async def _summary(hub: Hub, game_id: str) -> dict[str, Any]:
    return payloads.summary(await _settled(hub, game_id))


def bearer(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header, or None."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


AuthHeader = Annotated[str | None, Header(alias="Authorization")]


@router.post("/games", status_code=201)
async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
    """Create a game; the reply holds every human seat's token and link (shown only once)."""
    hub = _hub(request)
    limits: Limits = request.app.state.limits
    address = client_address(request.scope)
    limits.check_new_game(address, sum(1 for g in hub.live.values() if not g.session.is_over))
    made = await hub.create(
        body.game,
        body.players,
        body.options,
        [s.model_dump() for s in body.seats],
        takeover_after_s=body.takeover_after_s,
        turn_clock_s=body.turn_clock_s,
        rematch_absent=body.rematch_absent,
    )
    limits.game_created(address)
    return made


@router.get("/games")
async def list_games(
    request: Request, open: Annotated[bool, Query()] = False
) -> list[dict[str, Any]]:
    """The lobby: running games with open seats (`open=true`), or the latest games."""
    return await _hub(request).lobby(open_only=open)


@router.post("/games/{game_id}/seats/{seat}/claim")
async def claim_seat(
    game_id: str, seat: int, request: Request, body: ClaimSeat | None = None
) -> dict[str, Any]:
    """Claim an open human seat from the lobby."""
    return await _hub(request).claim(game_id, seat, body.name if body else None)


@router.get("/games/{game_id}")
async def game_summary(game_id: str, request: Request) -> dict[str, Any]:
    """Public facts: status, seats (names, kinds, connected), outcome when over."""
    return await _summary(_hub(request), game_id)


@router.get("/games/{game_id}/state")
async def game_state(
    game_id: str,
    request: Request,
    authorization: AuthHeader = None,
    seat: int | None = None,
    since: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """The same object as the WebSocket snapshot, for `seat` (Bearer token) or a watcher."""
    hub = _hub(request)
    live = await hub.fetch(game_id)
    who = await hub.authenticate(live, seat, bearer(authorization))
    await hub.settle(live)
    return payloads.seat_payload(live, who, "snapshot", since=since, clock=hub.clock_json(live))


@router.post("/games/{game_id}/actions")
async def act(
    game_id: str, body: ActRequest, request: Request, authorization: AuthHeader = None
) -> dict[str, Any]:
    """Play an action for a seat (Bearer token). `index` must be the current action count."""
    hub = _hub(request)
    live = await hub.fetch(game_id)
    seat = await hub.authenticate(live, body.seat, bearer(authorization))
    assert seat is not None
    return await hub.act(game_id, seat, body.action, body.index)


@router.post("/games/{game_id}/seats/{seat}/takeover")
async def take_over(
    game_id: str,
    seat: int,
    request: Request,
    authorization: AuthHeader = None,
    body: TakeOver | None = None,
) -> dict[str, Any]:
    """The creator (Bearer creator token) hands a person's seat to a computer player."""
    hub = _hub(request)
    await hub.take_over(game_id, seat, bearer(authorization), body.bot if body else None)
    return await _summary(hub, game_id)


@router.post("/games/{game_id}/seats/{seat}/return")
async def give_back(
    game_id: str, seat: int, request: Request, authorization: AuthHeader = None
) -> dict[str, Any]:
    """The seat's person (Bearer seat token) takes the seat back from the computer player."""
    hub = _hub(request)
    await hub.give_back(game_id, seat, bearer(authorization))
    return await _summary(hub, game_id)


class RematchRequest(BaseModel):
    """`POST /api/games/{id}/rematch`: the asker's seat (its token as Bearer)."""

    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    creator_token: str | None = Field(default=None, max_length=200)


@router.post("/games/{game_id}/rematch")
async def rematch_game(
    game_id: str, request: Request, authorization: AuthHeader = None,
    body: RematchRequest | None = None,
) -> dict[str, Any]:
    """A seated player of a finished game starts its rematch (once) and gets its seat there."""
    return await rematch.request(
        _hub(request), game_id, body.seat if body else None, bearer(authorization),
        creator_token=body.creator_token if body else None,
        limits=request.app.state.limits, address=client_address(request.scope))


@router.get("/games/{game_id}/record")
async def game_record(game_id: str, request: Request) -> dict[str, Any]:
    """The full record (core.record.GameRecord JSON), only when the game is over."""
    return payloads.record_json(await _settled(_hub(request), game_id))


@router.get("/games/{game_id}/replay")
async def game_replay(game_id: str, request: Request) -> dict[str, Any]:
    """Every step with every seat's view and the watcher's, only when the game is over."""
    return payloads.replay_json(await _settled(_hub(request), game_id))


@router.get("/options/{game}")
async def game_options(game: str, request: Request) -> dict[str, Any]:
    """The options (name, default, choices, doc) and the computer players per seat."""
    hub = _hub(request)
    try:
        rules = hub.games_lookup(game)
    except PocketGalaxyError as exc:
        raise WebError("game/unknown", f"unknown game {game!r}", allowed=exc.allowed) from exc
    options = [
        {
            "name": o.name,
            "default": o.default,
            "choices": list(o.choices) if o.choices else None,
            "doc": o.doc,
            "rule": o.rule,
            "type": o.type_name,
        }
        for o in describe_options(rules.options_type)
    ]
    bots: dict[str, list[str]] = {}
    default_bots: dict[str, str] = {}
    for seat in range(rules.max_players):
        try:
            bots[str(seat)] = hub.agent_names(rules.name, seat, rules.max_players)
            default_bots[str(seat)] = hub.default_bot(rules.name, seat, rules.max_players)
        except (PocketGalaxyError, ImportError):
            bots[str(seat)] = []
    return {
        "game": rules.name,
        "title": rules.title,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "options": options,
        "bots": bots,
        "default_bots": default_bots,
        "cards": _card_names(rules.name),
    }


def _card_names(game: str) -> list[dict[str, Any]]:
    """Adventure Cards' illustrations (public content: the pages show their names)."""
    if game != "adventure":
        return []
    from pocketgalaxy.games.adventure.content import load_cards

    return [
        {"id": c.id, "pack": c.pack, "number": c.number, "name": c.name,
         "description": c.description}
        for c in load_cards().cards.values()
    ]


@router.get("/themes")
async def themes() -> dict[str, Any]:
    """Perils themes (playsheets): ids, titles and archetypes, for the create form."""
    from pocketgalaxy.web.themes import perils_themes

    return {"themes": perils_themes()}


def error_response(err: PocketGalaxyError) -> JSONResponse:
    from pocketgalaxy.web.errors import status_for

    return JSONResponse(payloads.error_body(err), status_code=status_for(err.code))


from pocketgalaxy.web.players_api import router as _players_router  # noqa: E402

router.include_router(_players_router)  # GET /api/players?game=...: the computer players

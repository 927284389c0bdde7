"""Rematch: one finished game starts ONE new game with the same seats, players and options.

`POST /api/games/{id}/rematch` (a seated player's Bearer token) either creates the rematch or,
when it exists already, hands the asker its seat in it. What the new game takes from the old:
the game, options, number of players, seat names and computer players (each with a fresh seed of
its own), the takeover and turn clock settings and `rematch_absent`. What it does not take: the
seed. The new seed is fresh (`core.rng.new_seed`, never equal to the old one), not derived from
the old one, because a finished game's record, seed included, is public: a seed computed from it
would let anyone deal the new game's hidden cards.

Seats. A person's seat whose page is connected when the rematch starts (and the asker's) stays
that person's. A person's seat nobody is connected to follows the creator's `rematch_absent`
choice: `"open"` (the default) lists it in the lobby for anyone to claim; `"computer"` lets the
seat's computer player (its takeover player, else the default) play it, as a takeover that the
person can end.

Tokens. The server keeps only token hashes, so it cannot give anyone a new token at creation.
Instead a seat's token in the rematch is derived from its token in the old game:
HMAC-SHA256(key = old token, message = "pocketgalaxy rematch " + new game id). Only the holder of
the old seat's token can compute it, and the server only when that holder presents it. The new
seat starts with no token hash; the first time its old token holder asks (`POST .../rematch`),
the hash of the derived token is stored and the token is returned; asking again returns the same
token (idempotent: double clicks, two tabs). A seat that became open can be collected like this
until someone claims it from the lobby; after that its old holder is refused (409). The creator's
token is handed over the same way, when the asker also sends the old creator token.

Every connection of the old game, seat or watcher, is sent one `{"type": "rematch", ...}`
message with the new game's public address (never a token); each seat's page then asks for its
own seat with its own token. Snapshots of the old game carry the same `rematch` object.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.core.rng import new_seed
from pocketgalaxy.session import Session
from pocketgalaxy.web import commit, seats
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.live import LiveGame, SeatInfo, default_name, encode, play_link
from pocketgalaxy.web.store import GameRow, now
from pocketgalaxy.web.tokens import hash_token, token_matches

if TYPE_CHECKING:
    from pocketgalaxy.web.hub import Hub
    from pocketgalaxy.web.limits import Limits

ABSENT_CHOICES = ("open", "computer")
DEFAULT_ABSENT = "open"
PENDING = "pending"  # a creator hash no token matches: the old creator has not collected yet
_SALT = b"pocketgalaxy rematch "


def check_absent(value: Any) -> str:
    """The `rematch_absent` creation option: "open" (default when None) or "computer"."""
    if value is None:
        return DEFAULT_ABSENT
    if value not in ABSENT_CHOICES:
        raise WebError(
            "request/malformed",
            "'rematch_absent' says what a rematch does with the seat of a person who is not "
            f"connected: one of {', '.join(ABSENT_CHOICES)}, not {value!r}",
            allowed=list(ABSENT_CHOICES),
        )
    return str(value)


def derive_token(old_token: str, new_game_id: str) -> str:
    """The token of a seat (or the creator) in the rematch `new_game_id`, from its old token."""
    digest = hmac.new(old_token.encode("utf-8"), _SALT + new_game_id.encode("utf-8"),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def rematch_json(live: LiveGame) -> dict[str, Any] | None:
    """The public address of the game's rematch, or None (sent to seats and watchers alike)."""
    if live.rematch_id is None:
        return None
    return {"game_id": live.rematch_id, "watch_link": f"/play/{live.rematch_id}"}


async def request(
    hub: Hub,
    game_id: str,
    seat: Any,
    token: str | None,
    *,
    creator_token: str | None = None,
    limits: Limits | None = None,
    address: str = "unknown",
) -> dict[str, Any]:
    """Start the rematch of a finished game (or find it) and hand the asker its seat there.

    Refusals: a watcher (no seat) 403 `rematch/not_seated`; a wrong token 401; a game not over
    409 `rematch/not_finished`; the seat claimed by someone else 409 `seat/not_open`; creation
    limits 429/503 as for `POST /api/games` (asking for an existing rematch costs nothing).
    """
    live = await hub.fetch(game_id)
    if seat is None:
        raise WebError(
            "rematch/not_seated",
            "only a player seated at this game can ask for a rematch (send your seat and its "
            "token); watchers are moved to the rematch when a player starts it",
        )
    await hub.authenticate(live, seat, token)
    assert token is not None  # authenticate refuses a missing token
    async with live.lock:
        if live.session.outcome is None:
            raise WebError(
                "rematch/not_finished",
                f"game {live.id} has not finished ({live.status}): a rematch can be asked for "
                "once it is over",
            )
        if live.rematch_id is None:
            if limits is not None:
                limits.check_new_game(
                    address, sum(1 for g in hub.live.values() if not g.session.is_over))
            await _create(hub, live, asker=seat)
            if limits is not None:
                limits.game_created(address)
        new_id = live.rematch_id
        creator_ok = token_matches(creator_token, live.creator_token_hash)
    assert new_id is not None
    new = await hub.fetch(new_id)
    async with new.lock:
        seat_token = await _hand_over(hub, new, seat, token)
        creator = await _hand_over_creator(hub, new, creator_token) if creator_ok else None
    return {
        "game_id": new.id,
        "seat": seat,
        "token": seat_token,
        "link": play_link(new.id, seat, seat_token),
        "watch_link": f"/play/{new.id}",
        **({"creator_token": creator} if creator else {}),
    }


async def _create(hub: Hub, old: LiveGame, *, asker: int) -> None:
    """Build, store (in a thread) and start the rematch, and link it from `old` in memory
    (old game's lock held): another process's rematch when it linked one first (then nothing of
    ours was stored). Memory changes only after the store did."""
    rules = old.rules
    players = len(old.seats)
    opts = options_from_json(rules.options_type, dict(old.session.record.options))
    infos: list[SeatInfo] = []
    agents: dict[int, Agent] = {}
    for info in old.seats:
        new_info = _seat(hub, old, info, present=info.seat == asker or old.connected(info.seat))
        spec = new_info.bot if new_info.kind == "bot" else new_info.takeover
        if spec is not None:
            agents[info.seat] = hub.make_agent(rules.name, spec, info.seat, players,
                                               new_info.bot_seed)
        infos.append(new_info)
    game_id = secrets.token_urlsafe(9)
    seed = new_seed()
    while seed == old.session.record.seed:  # "a new seed": never the old one
        seed = new_seed()
    meta = hub._meta(game_id, infos)
    session = Session(rules, opts, seed=seed, players=players, agents=agents, meta=meta)
    stamp = now()
    row = GameRow(
        id=game_id, game=rules.name, options=options_to_json(opts), players=players, seed=seed,
        pinned=None, seats=[asdict(s) for s in infos], creator_token_hash=PENDING,
        takeover_after_s=old.takeover_after_s, turn_clock_s=old.turn_clock_s,
        status="over" if session.is_over else "running",
        outcome=session.outcome.to_json() if session.outcome else None, action_count=0,
        created_at=stamp, updated_at=stamp, rematch_absent=old.rematch_absent,
    )
    live = LiveGame(
        id=game_id, rules=rules, session=session, seats=infos, creator_token_hash=PENDING,
        takeover_after_s=old.takeover_after_s, turn_clock_s=old.turn_clock_s, created_at=stamp,
        by=[], rematch_absent=old.rematch_absent,
    )

    def linked(found: str) -> None:
        if found == game_id:
            hub.live[game_id] = live
            hub._after_change(live)
        old.rematch_id = found
        _announce(old)
        hub.tell(old, "rematch")  # several workers: their sockets of this game hear too

    await commit.saved("the rematch", lambda: hub.store.insert_rematch(row, old.id), linked)


def _seat(hub: Hub, old: LiveGame, info: SeatInfo, *, present: bool) -> SeatInfo:
    """A seat of the rematch from the same seat of the old game (no token yet: see above)."""
    fresh_seed = secrets.randbelow(2**31)
    if info.kind == "bot":
        return SeatInfo(seat=info.seat, kind="bot", name=info.name, bot=info.bot,
                        bot_seed=fresh_seed)
    if present:  # the person's, waiting for them to collect it (never in the lobby)
        return SeatInfo(seat=info.seat, kind="human", name=info.name, reserved=True)
    if old.rematch_absent == "computer":
        spec = info.takeover or hub.default_bot(old.rules.name, info.seat, len(old.seats))
        return SeatInfo(seat=info.seat, kind="human", name=info.name, reserved=True,
                        bot_seed=fresh_seed, takeover=spec, takeover_reason="rematch")
    return SeatInfo(seat=info.seat, kind="human", name=default_name(info.seat))


async def _hand_over(hub: Hub, new: LiveGame, seat: int, old_token: str) -> str:
    """The asker's token for its seat in the rematch (rematch's lock held), stored on first ask."""
    info = hub.seat_info(new, seat)
    token = derive_token(old_token, new.id)
    if info.token_hash is not None and token_matches(token, info.token_hash):
        return token  # asked before
    if info.kind != "human" or info.token_hash is not None or info.claimed:
        raise WebError(
            "seat/not_open",
            f"your seat {seat + 1} in the rematch was claimed by someone else from the lobby; "
            f"you can watch the rematch at /play/{new.id}",
        )
    changes: dict[str, Any] = {"token_hash": hash_token(token)}
    if not info.reserved:  # it was open in the lobby: yours now, no longer listed
        changes["claimed"] = True
    await seats.write_seats(hub, new, seat, changes, f"your seat {seat + 1} in the rematch",
                            lambda _: seats.told(hub, new))  # the seat is no longer open
    return token


async def _hand_over_creator(
    hub: Hub, new: LiveGame, old_creator_token: str | None
) -> str | None:
    """The creator's token in the rematch, for the holder of the old game's creator token."""
    assert old_creator_token is not None
    token = derive_token(old_creator_token, new.id)
    if new.creator_token_hash == PENDING:
        hashed = hash_token(token)

        def collected(_: None) -> None:
            new.creator_token_hash = hashed

        await commit.saved("the rematch's creator token",
                           lambda: hub.store.set_creator(new.id, hashed), collected)
    return token if token_matches(token, new.creator_token_hash) else None


def _announce(old: LiveGame) -> None:
    """Tell every connection of the old game where the rematch is (one message for all)."""
    message = encode({"type": "rematch", "game_id": old.id, "rematch": rematch_json(old)})
    for conn in list(old.conns):
        if not conn.closed:
            conn.push(message)

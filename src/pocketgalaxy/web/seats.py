"""Changing a live game's seats: a token's first use, claiming an open seat, a takeover by a
computer player and giving the seat back. Split from web/hub.py by job; the hub's methods of the
same names call these.

Every change follows one order, under the game's lock: check, write the new seats to the store in
a thread (`commit.saved`: the event loop serves the other games meanwhile, and a cancellation is
held back until memory follows the store), and only then change memory and tell anyone. A write
that fails changes nothing in memory and answers 503 `store/failed`. Several workers: `_fresh`
re-reads the stored seats first, so a change is written over the latest ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pocketgalaxy.web import commit
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.live import LiveGame, SeatInfo, play_link
from pocketgalaxy.web.tokens import hash_token, new_token, token_matches

if TYPE_CHECKING:
    from pocketgalaxy.web.hub import Hub


def check_token(hub: Hub, live: LiveGame, seat: Any, token: Any) -> SeatInfo | None:
    """The seat whose token this is (None: a watcher); 401 `auth/bad_token` otherwise. Pure."""
    if seat is None:
        return None
    info = hub.seat_info(live, seat)
    if info.kind != "human" or not token_matches(token, info.token_hash):
        raise WebError(
            "auth/bad_token",
            f"a valid token for seat {info.seat + 1} is needed to play or see that seat "
            "(connect without a seat to watch)",
        )
    return info


async def authenticate(hub: Hub, live: LiveGame, seat: Any, token: Any) -> int | None:
    """Check a seat's token; its first use is stored (taking the game's lock for that)."""
    info = check_token(hub, live, seat, token)
    if info is None:
        return None
    if not info.used:
        async with live.lock:
            await mark_used_locked(hub, live, info.seat, token)
    return info.seat


async def authenticate_locked(hub: Hub, live: LiveGame, seat: Any, token: Any) -> int | None:
    """`authenticate` for a caller that holds the game's lock already."""
    info = check_token(hub, live, seat, token)
    if info is None:
        return None
    if not info.used:
        await mark_used_locked(hub, live, info.seat, token)
    return info.seat


async def mark_used_locked(hub: Hub, live: LiveGame, seat: int, token: Any) -> None:
    """Store that the seat's token was presented (once; lock held): it leaves the lobby.

    Several workers: the stored seats are read first (the write replaces all of them), and the
    token checked again against them (another worker may have handed the seat on)."""
    await hub._fresh(live)
    info = check_token(hub, live, seat, token)
    if info is None or info.used:  # stored by another request while we waited for the lock
        return
    await write_seats(hub, live, seat, {"used": True}, "the first use of this seat's token")


async def write_seats(
    hub: Hub, live: LiveGame, seat: int, changes: dict[str, Any], what: str,
    after: Callable[[SeatInfo], None] | None = None,
) -> SeatInfo:
    """Store the game's seats with `changes` made to one seat, then make them in memory and run
    `after` (lock held; both even if the caller is cancelled meanwhile, so everything that
    follows the write belongs in `after`). Memory is untouched if the write fails."""
    rows = live.seats_json()
    rows[seat] = {**rows[seat], **changes}
    for name in changes:
        assert name in rows[seat] and hasattr(live.seats[seat], name), name

    def apply(_: None) -> SeatInfo:
        info = live.seats[seat]
        for name, value in changes.items():
            setattr(info, name, value)
        if after is not None:
            after(info)
        return info

    return await commit.saved(what, lambda: hub.store.update_seats(live.id, rows), apply)


def told(hub: Hub, live: LiveGame) -> None:
    """After a stored seat change: every connection here, and the other workers."""
    hub._broadcast(live)
    hub.tell(live, "seats")


def handed_to(hub: Hub, live: LiveGame, agent: Any) -> Callable[[SeatInfo], None]:
    """What follows a stored takeover or give-back: the session's seat goes to `agent` (None:
    the person again), everyone is told, and the computer players and clocks look again."""
    def after(changed: SeatInfo) -> None:
        live.session.set_agent(changed.seat, agent)
        told(hub, live)
        hub._after_change(live)
    return after


async def claim(hub: Hub, game_id: str, seat: Any, name: Any) -> dict[str, Any]:
    """Take an open human seat from the lobby: a fresh token (the creation one stops)."""
    live = await hub.fetch(game_id)
    async with live.lock:
        await hub._fresh(live)
        hub._check_playable(live)
        info = hub.seat_info(live, seat)
        if not info.is_open or live.session.is_over:
            why = " (it was created with a name: only its own link sits there)" if (
                info.reserved and info.kind == "human") else ""
            raise WebError(
                "seat/not_open", f"seat {info.seat + 1} of game {game_id} is not open{why}",
                allowed=[str(s.seat) for s in live.seats if s.is_open],
            )
        token = new_token()
        changes = {"name": hub.clean_name(name, info.name), "token_hash": hash_token(token),
                   "claimed": True}
        await write_seats(hub, live, info.seat, changes, f"the claim of seat {info.seat + 1}",
                          lambda _: told(hub, live))
    return {"token": token, "link": play_link(game_id, info.seat, token)}


async def take_over(hub: Hub, game_id: str, seat: Any, creator_token: Any, bot: Any) -> None:
    """The creator hands a person's seat to a computer player."""
    live = await hub.fetch(game_id)
    async with live.lock:
        await hub._fresh(live)
        hub.check_creator(live, creator_token)
        hub._check_playable(live)
        info = hub.seat_info(live, seat)
        if info.kind != "human":
            raise WebError("seat/not_human", f"seat {info.seat + 1} is already a computer player")
        if info.takeover is not None:
            raise WebError("seat/taken_over", f"seat {info.seat + 1} is already taken over")
        spec = bot or hub.default_bot(live.rules.name, info.seat, len(live.seats))
        if not isinstance(spec, str) or len(spec) > 200:
            raise WebError("request/malformed", "'bot' must be a computer player name")
        await take_over_locked(hub, live, info, spec, "creator")


async def take_over_locked(hub: Hub, live: LiveGame, info: SeatInfo, spec: str,
                           reason: str) -> None:
    """A computer player takes the seat (lock held): by the creator, or the away timer."""
    agent = hub.make_agent(live.rules.name, spec, info.seat, len(live.seats), info.bot_seed)
    await write_seats(hub, live, info.seat, {"takeover": spec, "takeover_reason": reason},
                      f"the takeover of seat {info.seat + 1}", handed_to(hub, live, agent))


async def give_back(hub: Hub, game_id: str, seat: Any, token: Any) -> None:
    """The seat's person takes it back from the computer player."""
    live = await hub.fetch(game_id)
    async with live.lock:
        await hub._fresh(live)
        await authenticate_locked(hub, live, seat, token)
        hub._check_playable(live)
        info = hub.seat_info(live, seat)
        if info.takeover is None:
            raise WebError("seat/not_taken_over", f"seat {info.seat + 1} is already yours")
        await write_seats(hub, live, info.seat, {"takeover": None, "takeover_reason": None},
                          f"the return of seat {info.seat + 1}", handed_to(hub, live, None))


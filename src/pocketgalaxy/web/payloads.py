"""Every outbound payload, built in one place from `Session.view(seat)` and filtered events.

This module is the choke point for hidden information (the lesson boardgame.io learned from secrets
leaking through undo history and first snapshots). A payload for a seat is made from:

- `session.view(seat)` - the rules' own per-seat view, holding only what that seat may know;
- the session's event log passed through `core.game.visible_events` for that seat;
- the seat's legal actions (only when that seat is to act);
- public server facts (seat names, kinds, who is connected, the turn clock, the outcome).

Nothing here reads the state, the seed, the random generator or the record while a game runs.
The record and the replay (which hold the seed) are only built once the game is over.
"""

from __future__ import annotations

import bisect
import dataclasses
from typing import TYPE_CHECKING, Any

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, Event, visible_events
from pocketgalaxy.core.record import start_state
from pocketgalaxy.web.errors import WebError, error_json
from pocketgalaxy.web.rematch import rematch_json

if TYPE_CHECKING:
    from pocketgalaxy.web.live import LiveGame
    from pocketgalaxy.web.store import GameRow


def seat_payload(
    live: LiveGame,
    seat: int | None,
    kind: str,
    *,
    since: int = 0,
    clock: dict[str, Any] | None = None,
    public: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A snapshot or update for one seat (None: a watcher): the WS and REST state share it.

    `since` is an action index: the events of actions `since` and later are included.
    `public`: the parts every seat is sent alike (`public_parts`), when the caller builds
    several seats' payloads of one position (a broadcast) and so builds them once.
    """
    session = live.session
    shared = public if public is not None else public_parts(live, clock)
    return {
        "type": kind,
        "game": live.rules.name,
        "game_id": live.id,
        "seat": seat,
        "index": live.index,
        "status": shared["status"],
        "to_act": session.to_act,
        "view": session.view(seat).to_json(),
        "legal": legal_json(live, seat),
        "events": events_json(live, seat, since),
        "seats": shared["seats"],
        "outcome": shared["outcome"],
        "clock": shared["clock"],
        "rematch": shared["rematch"],
    }


def public_parts(live: LiveGame, clock: dict[str, Any] | None) -> dict[str, Any]:
    """What a position's payload holds for every seat alike (public facts only)."""
    outcome = live.session.outcome
    return {
        "status": live.status,
        "seats": seats_json(live),
        "outcome": outcome.to_json() if outcome is not None else None,
        "clock": clock,
        "rematch": rematch_json(live),
    }


def legal_json(live: LiveGame, seat: int | None) -> list[dict[str, Any]]:
    """The seat's legal actions, only when a person holds that seat and it is to act."""
    session = live.session
    if seat is None or live.abandoned or session.to_act != seat or not live.seats[seat].is_person:
        return []
    key = (live.index, seat)
    if live.legal_cache is not None and live.legal_cache[0] == key:
        return live.legal_cache[1]  # the same position gives the same list (shared, not mutated)
    legal = [_action_json(a) for a in session.legal_actions(seat)]
    live.legal_cache = (key, legal)
    return legal


_FIELDS: dict[type[Action], tuple[str, ...]] = {}


def _action_json(action: Action) -> dict[str, Any]:
    """`Action.to_json()`, with each class's field names looked up once (legal lists are long)."""
    cls = type(action)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(action))
    data: dict[str, Any] = {"type": cls.__name__}
    for name in names:
        value = getattr(action, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def events_json(
    live: LiveGame, seat: int | None, since: int = 0, until: int | None = None
) -> list[dict[str, Any]]:
    """The events of actions `since` .. `until - 1` that `seat` may see, each with its `index`."""
    log = live.session.log
    start = bisect.bisect_left(log, since, key=lambda entry: entry[0])
    stop = len(log) if until is None else bisect.bisect_left(log, until, key=lambda e: e[0])
    out: list[dict[str, Any]] = []
    noticed: set[int] = set()
    for step, event in log[start:stop]:
        if step not in noticed and step < len(live.by) and live.by[step] == "clock":
            noticed.add(step)
            out.append(_timed_out(live, step))
        for shown in visible_events((event,), seat):
            out.append(_event_json(shown, step))
    return out


def _event_json(event: Event, step: int) -> dict[str, Any]:
    data = event.to_json()
    data["index"] = step
    return data


def _timed_out(live: LiveGame, step: int) -> dict[str, Any]:
    seat = live.session.record.actions[step][0]
    # A server notice, public: the turn clock ran out and a computer player moved for the seat.
    return {"type": "TurnTimedOut", "seat": seat, "audience": None, "index": step}


def seats_json(live: LiveGame) -> list[dict[str, Any]]:
    """Public facts about the seats (never token hashes or bot seeds)."""
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "kind": s.kind,
            "connected": live.connected(s.seat),
            "bot": s.bot if s.kind == "bot" else s.takeover,
            "taken_over": s.takeover is not None,
            "takeover_reason": s.takeover_reason,
            "open": s.is_open and not live.abandoned,
        }
        for s in live.seats
    ]


def presence(live: LiveGame) -> dict[str, Any]:
    """`{"type": "presence", "seats": [{"seat", "connected"}]}`: who is connected, per seat.

    Sent when a seat's connected state flips; its size depends on the seats, not the watchers.
    """
    return {
        "type": "presence",
        "game_id": live.id,
        "seats": [{"seat": s.seat, "connected": live.connected(s.seat)} for s in live.seats],
    }


def summary(live: LiveGame) -> dict[str, Any]:
    """`GET /api/games/{id}`: what anyone may know about a game."""
    outcome = live.session.outcome
    return {
        "game_id": live.id,
        "game": live.rules.name,
        "title": live.rules.title,
        "players": len(live.seats),
        "status": live.status,
        "index": live.index,
        "to_act": live.session.to_act,
        "options": dict(live.session.record.options),
        "seats": seats_json(live),
        "outcome": outcome.to_json() if outcome is not None else None,
        "takeover_after_s": live.takeover_after_s,
        "turn_clock_s": live.turn_clock_s,
        "created_at": live.created_at.isoformat(),
        "rematch_absent": live.rematch_absent,
        "rematch": rematch_json(live),
    }


def lobby_entry(row: GameRow, title: str, open_seats: list[int]) -> dict[str, Any]:
    """A lobby line; a damaged game (web/integrity.py) is `status: damaged` with its reason."""
    damage = row.problem
    return {
        "game_id": row.id,
        "game": row.game,
        "title": title,
        "players": row.players,
        "status": "damaged" if damage else row.status,
        "open_seats": [] if damage else open_seats,
        "created_at": row.created_at.isoformat(),
        "damage": damage,
    }


def _require_over(live: LiveGame) -> None:
    # An abandoned game can take no more actions, so its record (seed included) may be shown.
    if live.session.outcome is None and not live.abandoned:
        raise WebError(
            "record/not_finished",
            f"game {live.id} is still running; its record is available when it ends",
        )


def record_json(live: LiveGame) -> dict[str, Any]:
    """The full record (seed included): only once the game is over."""
    _require_over(live)
    data = live.session.record.to_json()
    data["meta"] = {**data.get("meta", {}), "by": list(live.by)}
    return data


def replay_json(live: LiveGame) -> dict[str, Any]:
    """Every step of a finished game, each seat's view and the watcher's; step 0 is the start."""
    _require_over(live)
    rules, record = live.rules, live.session.record
    seats = range(len(live.seats))

    def views(state: Any) -> dict[str, Any]:
        out: dict[str, Any] = {str(s): rules.view(state, s).to_json() for s in seats}
        out["watch"] = rules.view(state, None).to_json()
        return out

    state = start_state(rules, record)
    steps: list[dict[str, Any]] = [
        {"index": 0, "seat": None, "action": None, "events": [], "views": views(state)}
    ]
    for i, (seat, data) in enumerate(record.actions):
        state, events = rules.apply(state, seat, rules.parse_action(data))
        steps.append({
            "index": i + 1,
            "seat": seat,
            "action": data,
            "by": live.by[i] if i < len(live.by) else "person",
            "events": [_event_json(e, i) for e in events],
            "views": views(state),
        })
    return {"game_id": live.id, "game": rules.name, "steps": steps}


def error_body(err: PocketGalaxyError) -> dict[str, Any]:
    """`{"error": {"code", "message", "legal", "explanation"}}` for REST."""
    return {"error": error_json(err)}


def error_message(err: PocketGalaxyError) -> dict[str, Any]:
    """`{"type": "error", "error": {...}}` for the WebSocket."""
    return {"type": "error", "error": error_json(err)}

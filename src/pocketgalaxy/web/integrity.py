"""The integrity check: a stored game is played or shown only if its record is whole and replays.

A game is checked when the server starts (every unfinished game, and every game marked damaged
before, so a repaired one is cleared) and whenever it is loaded into memory. It is damaged when:

- a value of its row does not decode (bad JSON, a wrong type; see `Store`'s defensive reading);
- its game is not one this server knows;
- its action rows are not exactly idx 0 .. action_count - 1 (a deleted last row would silently
  rewind the game; a deleted middle row would make every later action fail);
- its seats are not well formed, or its record does not replay through `Session.from_record`;
- it is stored as over but its actions do not end it, or the other way round, or the stored
  outcome differs from the replayed one.

A damaged game gets its reason stored in `games.damage`, is answered `409 record/damaged` on every
route and WebSocket hello, is listed as damaged, and never stops the server or another game.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.exc import DatabaseError, OperationalError

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import GameRules
from pocketgalaxy.core.record import GameRecord
from pocketgalaxy.session import Session
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.store import ActionRow, GameRow, Store, UnreadableRow

log = logging.getLogger("pocketgalaxy.web")

T = TypeVar("T")
RulesFor = Callable[[str], GameRules[Any, Any]]
Build = Callable[[GameRow, list[ActionRow], GameRules[Any, Any]], T]


class Damage(Exception):
    """Why a stored game cannot be played (raised inside the check, turned into a WebError).

    `reason` is public: it is stored, listed in the lobby and sent with every refusal, so it
    never quotes a game's hidden contents (a rule's refusal can name a seat's cards). `detail`,
    for the operator only, goes to the server log and `db check`."""

    def __init__(self, reason: str, detail: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail

    @property
    def full(self) -> str:
        """The reason with the operator's detail."""
        return f"{self.reason} ({self.detail})" if self.detail else self.reason


class DamagedGame(WebError):
    """The refusal every route and hello gives for a damaged game (409 `record/damaged`)."""

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__(
            "record/damaged",
            f"game {game_id} is damaged and cannot be played or shown: {reason}. The server's "
            "operator can restore the database from a backup; `pocketgalaxy db check` lists "
            "every damaged game.",
        )
        self.reason = reason
        self.full = reason  # with the operator's detail, when the check found one



def load(
    store: Store,
    game_id: str,
    rules_for: RulesFor,
    build: Build[T],
    *,
    recheck: bool = False,
    record: bool = True,
) -> T:
    """Check a stored game and return `build(row, actions, rules)`; refuse it if it is damaged.

    A game marked damaged before is refused at once unless `recheck`. With `record` (the server)
    the verdict is logged and stored: a new reason is written, a game that passes again is
    cleared. Raises `WebError` `game/unknown`, `record/damaged`, or `store/failed` (503) when
    the database cannot be reached (that is no verdict on the game).
    """
    try:
        row = store.load_game(game_id)
    except OperationalError as exc:  # the database is away or busy: not the game's fault
        raise _unavailable(exc) from exc
    except DatabaseError as exc:
        reason = f"its row cannot be read from the database ({_db_detail(exc)})"
        log.error("game %s is damaged: %s", game_id, reason)
        raise DamagedGame(game_id, reason) from exc
    if row is None:
        raise WebError("game/unknown", f"no game {game_id!r}")
    if row.damage is not None and not recheck:  # found before: refused without a new check
        raise DamagedGame(game_id, row.damage)
    try:
        result = _checked_settled(store, row, rules_for, build)
    except Damage as exc:
        reason, full = exc.reason, exc.full
    else:
        if row.damage is not None and record:
            log.warning("game %s passes its integrity check again; cleared", game_id)
            _store_verdict(store, game_id, None)
        return result
    if record:  # the server logs and stores what it found; a tool reports it itself
        log.error("game %s is damaged: %s", game_id, full)
        if reason != row.damage:
            _store_verdict(store, game_id, reason)
    error = DamagedGame(game_id, reason)
    error.full = full
    raise error


def _unavailable(exc: OperationalError) -> WebError:
    log.error("the database cannot be read: %s", _db_detail(exc))
    return WebError("store/failed", "the database cannot be read just now; try again")


def _store_verdict(store: Store, game_id: str, reason: str | None) -> None:
    try:
        store.set_damage(game_id, reason)
    except DatabaseError as exc:  # the refusal stands even if it cannot be written down
        log.error("could not store the integrity verdict of game %s: %s", game_id, exc)


SETTLE_READS = 8
"""How many times the row of a game that keeps moving is read before its check counts. Each new read
happens only because another worker committed an action meanwhile (real progress), so a busy
game settles long before this; two re-reads were too few with workers committing every few ms."""


def _checked_settled(store: Store, row: GameRow, rules_for: RulesFor, build: Build[T]) -> T:
    """`_checked`, read again when the game's row changed meanwhile: with several workers an
    action committed between the two reads (the row, then its actions) looks like a broken log."""
    for _ in range(SETTLE_READS - 1):
        try:
            return _checked(store, row, rules_for, build)
        except Damage:
            fresh = _reread(store, row.id)
            if fresh is None or fresh.action_count == row.action_count:
                raise
            row = fresh
    return _checked(store, row, rules_for, build)


def _reread(store: Store, game_id: str) -> GameRow | None:
    try:
        return store.load_game(game_id)
    except DatabaseError:
        return None


def _checked(store: Store, row: GameRow, rules_for: RulesFor, build: Build[T]) -> T:
    if row.unreadable is not None:
        raise Damage(row.unreadable)
    try:
        rules = rules_for(row.game)
    except PocketGalaxyError as exc:
        raise Damage(f"it is a game of {row.game!r}, which this server does not know") from exc
    try:
        actions = store.load_actions(row.id)
    except UnreadableRow as exc:
        raise Damage(exc.reason) from exc
    except OperationalError as exc:
        raise _unavailable(exc) from exc
    except DatabaseError as exc:
        raise Damage(f"its action rows cannot be read ({_db_detail(exc)})") from exc
    check_sequence(row, actions)
    check_seats(row)
    try:
        return build(row, actions, rules)
    except Damage:
        raise
    except Exception as exc:  # whatever a broken record makes the rules or agents raise
        detail = (exc.message if isinstance(exc, PocketGalaxyError)
                  else f"{type(exc).__name__}: {exc}")
        # Public: only where it stops ("record step N"); the rules' words may name hidden cards.
        where = detail.split(" (seat", 1)[0] if detail.startswith("record step ") else None
        raise Damage(f"its record does not replay: {where or 'an action is refused'}",
                     detail) from exc


def check_sequence(row: GameRow, actions: Sequence[ActionRow]) -> None:
    """Action rows must be exactly idx 0 .. action_count - 1."""
    count = row.action_count
    held = [a.idx for a in actions]
    if held == list(range(count)):
        return
    present = set(held)
    missing = [i for i in range(count) if i not in present]
    extra = [i for i in held if not 0 <= i < count]
    parts = []
    if missing:
        parts.append(f"action row(s) idx {_span(missing)} missing")
    if extra:
        parts.append(f"action row(s) idx {_span(extra)} beyond the count")
    expected = f"idx 0 to {count - 1}" if count else "none"
    raise Damage(
        f"its action log is broken: the game records {count} action(s) ({expected}) but the "
        f"store holds {len(held)} row(s); " + "; ".join(parts)
    )


def _span(ids: Sequence[int], most: int = 10) -> str:
    shown = ", ".join(str(i) for i in ids[:most])
    return shown + (f" and {len(ids) - most} more" if len(ids) > most else "")


def check_seats(row: GameRow) -> None:
    """One seat object per player, in order, each a human or a computer player with a spec."""
    if len(row.seats) != row.players:
        raise Damage(f"it has {len(row.seats)} seat(s) stored for {row.players} player(s)")
    for i, seat in enumerate(row.seats):
        if seat.get("seat") != i or seat.get("kind") not in ("human", "bot"):
            # Not the seat's JSON: it holds the seat's token hash.
            raise Damage(f"seat {i} is stored in a form this server does not read",
                         f"kind {seat.get('kind')!r}, seat {seat.get('seat')!r}")
        if seat["kind"] == "bot" and not isinstance(seat.get("bot"), str):
            raise Damage(f"seat {i} is a computer player with no player name")


def record_of(row: GameRow, actions: Sequence[ActionRow], meta: dict[str, Any]) -> GameRecord:
    """The game record the row and its action rows make."""
    return GameRecord(
        game=row.game, options=row.options, players=row.players, seed=row.seed,
        pinned=row.pinned, actions=[(a.seat, a.action) for a in actions], meta=meta,
    )


def check_end(row: GameRow, session: Session) -> None:
    """The stored status and outcome must be what the replay gives."""
    over = session.outcome is not None
    if row.status == "over" and not over:
        raise Damage(f"it is stored as over, but its {row.action_count} action(s) do not end it")
    if over and row.status != "over":
        raise Damage(f"its actions end the game, but it is stored as {row.status!r}")
    if session.outcome is not None:
        replayed = json.loads(json.dumps(session.outcome.to_json()))
        if row.outcome != replayed:
            raise Damage("its stored outcome differs from the outcome its actions give")


def replay(row: GameRow, actions: list[ActionRow], rules: GameRules[Any, Any]) -> Session:
    """A `Build` for tools: the replayed session, without computer players."""
    session = Session.from_record(rules, record_of(row, actions, {"game_id": row.id}))
    check_end(row, session)
    return session


@dataclass(frozen=True)
class Verdict:
    """One game's state for `db check`: ok | over | abandoned | ... | damaged (with the reason)."""

    game_id: str
    game: str
    status: str
    actions: int
    created_at: str
    damage: str | None

    @property
    def state(self) -> str:
        if self.damage is not None:
            return "damaged"
        return "ok" if self.status == "running" else self.status

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "game": self.game, "state": self.state,
                "status": self.status, "actions": self.actions,
                "created_at": self.created_at, "damage": self.damage}


def check_all(store: Store, rules_for: RulesFor) -> list[Verdict]:
    """Check every stored game afresh without changing anything (oldest first)."""
    out = []
    for game_id in store.all_ids():
        damage = None
        try:
            load(store, game_id, rules_for, replay, recheck=True, record=False)
        except DamagedGame as exc:
            damage = exc.full  # the operator's tool: the reason with its detail
        except WebError as exc:
            if exc.code == "game/unknown":
                continue  # deleted meanwhile
            raise
        try:
            row = store.load_game(game_id)
        except DatabaseError:
            row = None
        out.append(Verdict(
            game_id=game_id, game=row.game if row else "?", status=row.status if row else "?",
            actions=row.action_count if row else 0,
            created_at=row.created_at.isoformat() if row else "", damage=damage,
        ))
    return out


def _db_detail(exc: DatabaseError) -> str:
    return str(getattr(exc, "orig", None) or exc).splitlines()[0]

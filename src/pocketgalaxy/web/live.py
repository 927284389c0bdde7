"""What the server keeps about a game in memory: seats, connections, clocks, the live game.

Plain data with small helpers; the hub (web/hub.py) and the timers (web/bots.py) change them.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson

from pocketgalaxy.core.game import GameRules
from pocketgalaxy.session import Session


@dataclass
class SeatInfo:
    """A seat as the server keeps it (stored as JSON in the games row)."""

    seat: int
    kind: str  # "human" | "bot"
    name: str
    bot: str | None = None  # the computer player's spec, for bot seats
    bot_seed: int = 0
    token_hash: str | None = None  # sha256 of the seat token (human seats only)
    claimed: bool = False  # claimed from the lobby
    used: bool = False  # its token has been presented at least once
    takeover: str | None = None  # a computer player holding a human seat
    takeover_reason: str | None = None  # "creator" | "away"
    reserved: bool = False  # created with a name: only its link may sit there

    @property
    def is_person(self) -> bool:
        """A person decides for this seat now (a human seat not taken over)."""
        return self.kind == "human" and self.takeover is None

    @property
    def is_open(self) -> bool:
        """Listed in the lobby: a human seat created without a name, not claimed or used yet."""
        return self.kind == "human" and not self.reserved and not self.claimed and not self.used

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatInfo:
        data = dict(data)
        if "reserved" not in data:
            # Rows from before reserved seats: a seat whose name is not the default was named
            # by its creator, so it is reserved too.
            data["reserved"] = data.get("kind") == "human" and data.get("name") != default_name(
                int(data.get("seat", 0)))
        return cls(**data)


def default_name(seat: int) -> str:
    """The name of a person's seat created without one (seats count from 1 for people)."""
    return f"Player {seat + 1}"


@dataclass
class Clock:
    """A running turn clock: `seat` must act at action `index` before `deadline` (loop time)."""

    seat: int
    index: int
    deadline: float
    expires_at: float  # wall-clock seconds since the epoch, for clients


class Conn:
    """One WebSocket's place in a game: its seat, what it has been sent, its outbound queue."""

    def __init__(self, limit: int) -> None:
        self.seat: int | None = None
        self.game_id: str | None = None
        self.sent_index = 0
        self.limit = limit
        self.closed = False
        self.queue: asyncio.Queue[str | dict[str, Any] | None] = asyncio.Queue()

    def push(self, message: str | dict[str, Any]) -> None:
        """Queue a message; a client too slow to keep up is cut off rather than buffered forever."""
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            self.close()
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


@dataclass
class LiveGame:
    """A game in memory: the session (the only holder of the state) plus server bookkeeping."""

    id: str
    rules: GameRules[Any, Any]
    session: Session
    seats: list[SeatInfo]
    creator_token_hash: str
    takeover_after_s: int | None
    turn_clock_s: int | None
    created_at: Any
    by: list[str]  # who made each action: person | bot | clock
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    seat_conns: dict[int, int] = field(default_factory=dict)  # open connections per seat
    bot_task: asyncio.Task[None] | None = None
    clock: Clock | None = None
    clock_task: asyncio.Task[None] | None = None
    away_seat: int | None = None
    away_task: asyncio.Task[None] | None = None
    legal_cache: tuple[tuple[int, int], list[dict[str, Any]]] | None = None
    abandoned: bool = False  # nobody came back in time: kept, viewable, no more actions
    idle_since: float | None = None  # loop time since when nobody is connected and nothing moved
    touched_at: float = 0.0  # loop time the store's `updated_at` was last refreshed
    heard_at: float = 0.0  # monotonic time of the last news of it (clustered: the store check)
    rematch_id: str | None = None  # the game its rematch started (web/rematch.py)
    rematch_absent: str = "open"  # what a rematch does with absent people's seats

    @property
    def index(self) -> int:
        """The number of accepted actions (the next action's index)."""
        return len(self.session.record.actions)

    @property
    def status(self) -> str:
        """`running`, `over` or `abandoned`."""
        if self.session.is_over:
            return "over"
        return "abandoned" if self.abandoned else "running"

    def connected(self, seat: int) -> bool:
        return self.seat_conns.get(seat, 0) > 0

    def seats_json(self) -> list[dict[str, Any]]:
        return [asdict(s) for s in self.seats]


def encode(message: dict[str, Any]) -> str:
    """Compact JSON text, as sent on the wire.

    orjson writes the same text as `json.dumps(..., separators=(",", ":"), ensure_ascii=False)`
    about ten times faster (an update is built and encoded for every seat on every move); what
    orjson refuses (an integer beyond 64 bits, a key that is not text) goes through json."""
    try:
        return orjson.dumps(message).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def play_link(game_id: str, seat: int, token: str | None) -> str:
    """The page link for a seat (the token rides in the fragment, never sent to servers)."""
    if token is None:
        return f"/play/{game_id}"
    return f"/play/{game_id}?seat={seat}#token={token}"

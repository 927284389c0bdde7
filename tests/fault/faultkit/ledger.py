"""What a client sent and what the server acknowledged, and the check against the stored record.

The load driver is the only one who acts in its games (every seat is a person it plays), and it
sends exactly one action per action index (after a restart it may send the SAME action again for
the same index: a double submit). So the stored record must satisfy, index by index:

- every acknowledged action is stored at its index (nothing acknowledged is lost);
- every stored action is the one the client sent for that index (nothing applied twice, nothing
  invented), up to the index where the client handed the game to computer players;
- the record replays through the rules (`core.record.replay`).

An action is acknowledged when the client got its reply (REST 200 with the new index) or saw an
update or snapshot whose index is past it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.record import GameRecord, replay
from pocketgalaxy.registry import get_game

Sent = tuple[int, dict[str, Any]]  # (seat, action JSON)


@dataclass
class GameLedger:
    """One game as its client knows it."""

    game_id: str
    tokens: dict[int, str]
    creator_token: str
    transport: str  # "ws" or "rest"
    sent: dict[int, Sent] = field(default_factory=dict)
    acked: set[int] = field(default_factory=set)
    seen_index: int = 0
    over: bool = False
    handed_over_at: int | None = None  # index at which computer players took every seat

    def send(self, index: int, seat: int, action: dict[str, Any]) -> None:
        """Note an action sent for `index` (the same one again is a resend, anything else a bug)."""
        before = self.sent.get(index)
        if before is not None and before != (seat, action):
            raise AssertionError(
                f"driver bug: game {self.game_id} index {index}: {before} then {(seat, action)}")
        self.sent[index] = (seat, action)

    def saw(self, index: int) -> None:
        """The server said the game has `index` actions: every sent action below is acknowledged."""
        if index > self.seen_index:
            self.acked.update(i for i in self.sent if self.seen_index <= i < index)
            self.seen_index = index

    def pending(self) -> int | None:
        """The index of an action sent but not (yet) acknowledged, if any."""
        open_ = [i for i in self.sent if i not in self.acked]
        return max(open_) if open_ else None


@dataclass
class CheckResult:
    """The verdict on one game's stored record."""

    game_id: str
    acked_checked: int
    lost: list[int]
    foreign: list[int]  # stored at an index with something the client never sent there
    replay_error: str | None
    length: int

    @property
    def ok(self) -> bool:
        return not self.lost and not self.foreign and self.replay_error is None


def check_record(ledger: GameLedger, record_json: dict[str, Any]) -> CheckResult:
    """Hold a record (the `GET /api/games/{id}/record` JSON) against what the client saw."""
    record = GameRecord.from_json(record_json)
    stored = record.actions
    lost = sorted(i for i in ledger.acked if i >= len(stored) or stored[i] != ledger.sent[i])
    people_until = len(stored) if ledger.handed_over_at is None else ledger.handed_over_at
    foreign = [
        i for i in range(min(len(stored), people_until))
        if ledger.sent.get(i) != stored[i]
    ]
    error: str | None = None
    try:
        rules = get_game(record.game)
        state, _ = replay(rules, record)
        if rules.outcome(state) is None:
            error = "the record replays but the game is not over"
    except PocketGalaxyError as exc:
        error = str(exc)
    return CheckResult(ledger.game_id, len(ledger.acked), lost, foreign, error, len(stored))

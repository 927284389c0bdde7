"""Game records: options, seed or pinned deal, and the action list. A record replays exactly.

Format (JSON, documented in docs/records.md):

    {"format": "pocketgalaxy-record", "version": 1, "game": "perils",
     "options": {...}, "players": 2, "seed": 42, "pinned": null,
     "actions": [{"seat": 1, "action": {"type": "DescribePathways", ...}}, ...],
     "meta": {...}}
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError, RecordError
from pocketgalaxy.core.game import Action, Event, GameRules
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.core.options import options_from_json, options_to_json

RECORD_FORMAT = "pocketgalaxy-record"
RECORD_VERSION = 1


@mypyc_attr(serializable=True)  # picklable when compiled (worker processes)
@dataclass
class GameRecord:
    """Everything needed to play a game again: the same inputs give the same game."""

    game: str
    options: dict[str, Any]
    players: int
    seed: int | None
    pinned: dict[str, Any] | None = None
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "pinned": self.pinned,
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "meta": self.meta,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(
                f"not a Pocket Galaxy record: expected a JSON object with format={RECORD_FORMAT!r}"
            )
        if data.get("version") != RECORD_VERSION:
            raise RecordError(
                f"record version {data.get('version')!r} is not supported"
                f" (expected {RECORD_VERSION})"
            )
        try:
            actions = [(int(a["seat"]), dict(a["action"])) for a in data["actions"]]
            seed = data.get("seed")
            if seed is not None and not isinstance(seed, int):
                raise RecordError("record 'seed' must be an integer or null")
            return cls(
                game=str(data["game"]),
                options=dict(data.get("options") or {}),
                players=int(data["players"]),
                seed=seed,
                pinned=data.get("pinned"),
                actions=actions,
                meta=dict(data.get("meta") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"record is missing or has a bad field: {exc}") from exc

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc.msg} at line {exc.lineno}") from exc
        return cls.from_json(data)


def start_state(rules: GameRules[Any, Any], record: GameRecord) -> Any:
    options = options_from_json(rules.options_type, record.options)
    return rules.new(options, record.seed or 0, players=record.players, pinned=record.pinned)


def replay(
    rules: GameRules[Any, Any], record: GameRecord
) -> tuple[Any, list[tuple[int, Action, list[Event]]]]:
    """Replay a record from its start: the final state and, per step, (seat, action, events).

    Raises RecordError naming the step that does not apply.
    """
    if record.game != rules.name:
        raise RecordError(f"record is for game {record.game!r}, not {rules.name!r}")
    state = start_state(rules, record)
    steps: list[tuple[int, Action, list[Event]]] = []
    for i, (seat, data) in enumerate(record.actions):
        try:
            action = rules.parse_action(data)
            state, events = rules.apply(state, seat, action)
        except PocketGalaxyError as exc:
            raise RecordError(f"record step {i} (seat {seat}) does not apply: {exc}") from exc
        steps.append((seat, action, events))
    return state, steps


def options_dict(opts: Any) -> dict[str, Any]:
    return options_to_json(opts)

"""Rebuild the golden records: each file holds a record, its opening events, its full event
trace and its final state. `test_golden_records.py` replays every record and diffs all three.

    .venv/bin/python tests/golden/regen.py

Run it only after a deliberate change to the rules or events, and read the diff of the JSON files
before committing them: the diff is the behaviour change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

_ADVENTURE_3P_DEAL = {
    "missions": [[f"S{k}", f"P{k}", f"A{k}", f"M{k}"] for k in range(1, 7)],
    "hands": [
        ["S1", "P2", "A3", "M4", "S5", "P6"],
        ["A1", "M2", "S3", "P4", "A5", "M6"],
        ["P1", "A2", "M3", "S4", "P5", "A6"],
    ],
    "table": ["M1", "S2", "P3", "A4", "M5", "S6"],
    "first_player": 0,
}

# name -> game, players, seed, options, pinned deal, one computer player per seat
CASES: dict[str, dict[str, Any]] = {
    "perils_cosmic_rulebased": {
        "game": "perils",
        "players": 2,
        "seed": 7,
        "options": {},
        "pinned": None,
        "bots": ["rulebased", "teller"],
    },
    "perils_dungeon_three_paths": {
        "game": "perils",
        "players": 2,
        "seed": 8,
        "options": {"theme": "dungeon", "pathways_per_round": 3},
        "pinned": None,
        "bots": ["rulebased", "teller"],
    },
    "adventure_3p_pinned": {
        "game": "adventure",
        "players": 3,
        "seed": 5,
        "options": {},
        "pinned": _ADVENTURE_3P_DEAL,
        "bots": ["memory", "forgetful", "random"],
    },
    "adventure_4p_options": {
        "game": "adventure",
        "players": 4,
        "seed": 11,
        "options": {
            "next_after_failed_request": "asked_player",
            "auto_claim": False,
            "forbid_known_misses": True,
        },
        "pinned": None,
        "bots": ["memory", "memory", "forgetful", "forgetful:level=hard"],
    },
    "adventure_5p": {
        "game": "adventure",
        "players": 5,
        "seed": 9,
        "options": {},
        "pinned": None,
        "bots": ["memory", "memory", "random", "forgetful", "random"],
    },
}


def golden_of(record_json: dict[str, Any]) -> dict[str, Any]:
    """Replay a record; return it with its opening events, full event trace and final state."""
    from pocketgalaxy.core.record import GameRecord, replay, start_state
    from pocketgalaxy.registry import get_game

    record = GameRecord.from_json(record_json)
    rules = get_game(record.game)
    final, steps = replay(rules, record)
    outcome = rules.outcome(final)
    data = {
        "record": record.to_json(),
        "opening": [e.to_json() for e in rules.opening_events(start_state(rules, record))],
        "trace": [[seat, [e.to_json() for e in events]] for seat, _, events in steps],
        "outcome": outcome.to_json() if outcome else None,
        "final": final.to_json(),
    }
    return json.loads(json.dumps(data, sort_keys=True))  # tuples -> lists, as stored


def build(name: str) -> dict[str, Any]:
    from pocketgalaxy.agents.registry import make_agent
    from pocketgalaxy.registry import get_game
    from pocketgalaxy.session import Session

    case = CASES[name]
    players = case["players"]
    agents = {
        s: make_agent(case["game"], spec, s, players, seed=100 + s)
        for s, spec in enumerate(case["bots"])
    }
    session = Session(
        get_game(case["game"]),
        case["options"],
        seed=case["seed"],
        players=players,
        pinned=case["pinned"],
        agents=agents,
        meta={"bots": case["bots"]},
    )
    session.run_bots()
    if not session.is_over:
        raise SystemExit(f"{name}: the computer players did not finish the game")
    return golden_of(session.record.to_json())


def main() -> None:
    DATA.mkdir(exist_ok=True)
    for name in CASES:
        data = build(name)
        path = DATA / f"{name}.json"
        path.write_text(
            json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        print(
            f"wrote {path.relative_to(HERE.parents[1])} ({len(data['record']['actions'])} actions)"
        )


if __name__ == "__main__":
    main()

"""Web store start-up cost: opening the store (schema check) and rebuilding every running game.

    python bench/bench_store.py [--games 200] [--actions 30] [--repeat 3] [--json]

Builds a temp SQLite database of GAMES two-seat Adventure games with ACTIONS actions each through
the hub (no server), then times, REPEAT times: `Store(url)` (which checks the schema revision and
the data folder's marker) and `Hub.start()` (which checks and replays every running game). Prints
the median of each. Works on any checkout that has `web/store.py` and `web/hub.py`, so the same
script measures the code before and after a change (point PYTHONPATH at its src/).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import Store


def _store(url: str, data_dir: Path) -> Store:
    # Older stores take only the URL; newer ones also watch the data folder's marker.
    if "data_dir" in inspect.signature(Store).parameters:
        return Store(url, data_dir=data_dir)  # type: ignore[call-arg, unused-ignore]
    return Store(url)


def build(folder: Path, games: int, actions: int) -> str:
    settings = Settings(data_dir=folder, bot_delay_ms=0)
    url = settings.resolved_database_url
    store = _store(url, folder)
    hub = Hub(store, settings)

    async def fill() -> None:  # create and commit are coroutines (their writes run in threads)
        for _ in range(games):
            made = await hub.create("adventure", 2, {}, [{"kind": "human"}, {"kind": "human"}])
            live = hub.live[made["game_id"]]
            for _ in range(actions):
                seat = live.session.to_act
                if seat is None:
                    break
                async with live.lock:
                    await hub._commit(live, seat, live.session.legal_actions(seat)[0], "person")

    asyncio.run(fill())
    store.dispose()
    return url


def measure(url: str, folder: Path, repeat: int) -> dict[str, Any]:
    opens, starts, live = [], [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        store = _store(url, folder)
        t1 = time.perf_counter()
        hub = Hub(store, Settings(data_dir=folder, bot_delay_ms=0))
        asyncio.run(hub.start())
        t2 = time.perf_counter()
        live = len(hub.live)
        asyncio.run(hub.stop())
        store.dispose()
        opens.append(t1 - t0)
        starts.append(t2 - t1)
    return {"open_ms": round(statistics.median(opens) * 1000, 1),
            "start_ms": round(statistics.median(starts) * 1000, 1), "running_games": live}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        url = build(folder, args.games, args.actions)
        result = {"games": args.games, "actions": args.actions,
                  **measure(url, folder, args.repeat)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['running_games']} running games of {args.actions} actions: store open "
              f"{result['open_ms']} ms, hub start {result['start_ms']} ms (median of "
              f"{args.repeat})")


if __name__ == "__main__":
    main()

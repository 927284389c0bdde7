"""The WebSocket fuzzer: 2,000 seeded messages (times the scale) against a real server.

Messages go to a Perils & Pathways game and an Adventure Cards game in turn (a fresh game when
one ends): valid hellos, pings and legal moves among garbage, wrong types, missing and unknown
fields, huge, deep and odd JSON, invalid UTF-8, lone surrogates, huge integers, unknown types,
wrong tokens, stale indexes and illegal moves. Asserted for every message: it gets a reply; the
socket is never closed without an error reply first; a message that must be refused is refused;
a refused message (or any message but an accepted move) changes nothing any seat or watcher can
see. At the end the server's log holds no traceback or ERROR line.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from faultkit import report
from faultkit.probe import FuzzGame, Unreadable, create_game, fingerprint
from faultkit.scale import fault_scale
from faultkit.server import ServerProcess
from faultkit.wsfuzz import Context, exchange, frame
from websockets.sync.client import ClientConnection, connect

SEED = 8_2026
MESSAGES = 2000
GAMES = ("adventure", "perils")


def _parts(fp: str) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = json.loads(fp)
    return parts


def _open(stacks: dict[str, ExitStack], name: str, url: str) -> ClientConnection:
    stack = ExitStack()
    stacks[name] = stack
    ws: ClientConnection = stack.enter_context(
        connect(url, max_size=2**22, compression=None, open_timeout=30))
    return ws


def _close(stacks: dict[str, ExitStack], sockets: dict[str, ClientConnection], name: str) -> None:
    sockets.pop(name, None)
    stacks.pop(name).close()


def test_fuzz_websocket_messages(tmp_path: Path) -> None:
    total = MESSAGES * fault_scale()
    rng = random.Random(SEED)
    server = ServerProcess(tmp_path)
    server.start()
    kinds: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    violations: list[str] = []
    kinds_of_violation: Counter[str] = Counter()
    started = time.monotonic()
    sockets: dict[str, ClientConnection] = {}
    stacks: dict[str, ExitStack] = {}
    try:
        with server.client() as http:
            games: dict[str, FuzzGame] = {name: create_game(http, name) for name in GAMES}
            prints = {name: fingerprint(http, games[name]) for name in GAMES}
            seat_of: dict[str, int | None] = {}
            hello: dict[str, bool] = {}
            for n in range(total):
                name = GAMES[n % len(GAMES)]
                game = games[name]
                if name not in sockets:
                    sockets[name] = _open(stacks, name, f"{server.ws_url}/ws/{game.game_id}")
                    seat_of[name], hello[name] = None, False
                before = prints[name]
                watcher = _parts(before)[0]
                to_act = watcher["to_act"]
                legal = _parts(before)[1 + to_act]["legal"] if to_act is not None else []
                ctx = Context(name, watcher["index"], to_act, legal, game.tokens, seat_of[name],
                              hello[name])
                f = frame(rng, ctx)
                kinds[f.kind] += 1
                reply = exchange(sockets[name], f)
                try:
                    after = fingerprint(http, game)
                except Unreadable as exc:
                    violations.append(f"message {n} ({f.kind}) {str(f.data)[:120]!r}: {exc}")
                    kinds_of_violation[f"{f.kind}: game became unreadable"] += 1
                    outcomes[reply.kind] += 1
                    games[name] = create_game(http, name)  # play on in a fresh game
                    prints[name] = fingerprint(http, games[name])
                    if name in sockets:
                        _close(stacks, sockets, name)
                    continue
                prints[name] = after
                outcomes[reply.kind] += 1
                where = f"message {n} ({f.kind}) {str(f.data)[:120]!r}"
                moved = (reply.kind == "update" and not f.must_refuse
                         and reply.index == watcher["index"] + 1)
                if reply.kind == "error":
                    refusals[reply.code or "?"] += 1
                if reply.kind == "closed":
                    refusals[reply.code or "closed without reply"] += 1
                    if not reply.error_before_close:
                        violations.append(f"{where}: socket closed without an error reply")
                        kinds_of_violation[f"{f.kind}: closed without an error reply"] += 1
                    _close(stacks, sockets, name)
                elif reply.kind == "none":
                    violations.append(f"{where}: no reply ({reply.messages})")
                    kinds_of_violation[f"{f.kind}: no reply"] += 1
                if f.must_refuse and reply.kind not in ("error", "closed"):
                    violations.append(f"{where}: accepted ({reply.kind}), must be refused")
                    kinds_of_violation[f"{f.kind}: accepted, must be refused"] += 1
                if not moved and after != before:
                    violations.append(f"{where}: answered {reply.kind} {reply.code}, "
                                      "but the game changed")
                    kinds_of_violation[f"{f.kind}: changed the game"] += 1
                if reply.kind == "snapshot" and reply.messages:
                    snap = next(m for m in reply.messages if m.get("type") == "snapshot")
                    seat_of[name], hello[name] = snap["seat"], True
                if _parts(after)[0]["status"] == "over":  # play on in a fresh game
                    games[name] = create_game(http, name)
                    prints[name] = fingerprint(http, games[name])
                    if name in sockets:
                        _close(stacks, sockets, name)
    finally:
        for name in list(sockets):
            _close(stacks, sockets, name)
        server.stop()
        print(server.log()[-6000:])  # shown by pytest when the test fails
    problems = server.problems()
    report.record("fuzz_websocket", {
        "messages_fuzzed": sum(kinds.values()), "by_kind": dict(sorted(kinds.items())),
        "replies": dict(sorted(outcomes.items())), "refusals_by_code": dict(sorted(
            refusals.items())), "violations": len(violations),
        "violations_by_kind": dict(sorted(kinds_of_violation.items())),
        "log_problem_lines": len(problems), "seconds": round(time.monotonic() - started, 1),
    })
    assert sum(kinds.values()) == total
    assert outcomes["update"] > 0 and outcomes["snapshot"] > 0, "valid messages must work too"
    assert violations == [], f"{len(violations)} violations:\n" + "\n".join(violations[:30])
    assert problems == [], "the server logged errors:\n" + "\n".join(problems[:30])

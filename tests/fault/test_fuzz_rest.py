"""The REST fuzzer: every operation of the server's /openapi.json, 40 requests each (times the
scale), plausible and hostile, against a real server with live and finished games.

Asserted for every request: no 5xx; every 4xx is the error object with a code; a hostile request
is refused; a refused request, and every GET, changes nothing (the target game as every seat and
a watcher sees it, and the list of games). At the end the log holds no traceback or ERROR line.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path

import httpx
from faultkit import report
from faultkit.probe import FuzzGame, Unreadable, create_game, fingerprint, lobby_ids, request
from faultkit.restfuzz import Context, Request, build, operations
from faultkit.scale import fault_scale
from faultkit.server import ServerProcess

SEED = 9_2026
PER_OPERATION = 40


def _finished_game(http: httpx.Client) -> str:
    """A game of two computer players, played to the end (for the record and replay routes)."""
    res = http.post("/api/games", json={"game": "adventure", "players": 2,
                                        "seats": [{"kind": "bot", "bot": "random"},
                                                  {"kind": "bot", "bot": "random"}]})
    assert res.status_code == 201, res.text
    gid: str = res.json()["game_id"]
    deadline = time.monotonic() + 60
    while http.get(f"/api/games/{gid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the computer players never finished"
        time.sleep(0.1)
    return gid


def _context(http: httpx.Client, components: dict, games: dict[str, FuzzGame],
             finished: str) -> Context:
    ctx = Context(components, [], {}, {}, {}, {})
    for game in games.values():
        ctx.game_ids.append(game.game_id)
        ctx.tokens[game.game_id] = dict(game.tokens)
        ctx.creator[game.game_id] = game.creator_token
        ctx.kinds[game.game_id] = game.game
        watcher = http.get(f"/api/games/{game.game_id}/state").json()
        to_act = watcher["to_act"]
        legal = []
        if to_act is not None:
            legal = http.get(f"/api/games/{game.game_id}/state", params={"seat": to_act},
                             headers={"Authorization": f"Bearer {game.tokens[to_act]}"}
                             ).json()["legal"]
        ctx.legal[game.game_id] = (to_act if to_act is not None else 0, watcher["index"], legal)
    ctx.game_ids.append(finished)
    return ctx


def _send(http: httpx.Client, req: Request) -> httpx.Response:
    return request(http, req.method, req.url, params=req.params, headers=req.headers,
                   content=req.content)


def test_fuzz_every_rest_route(tmp_path: Path) -> None:
    per_op = PER_OPERATION * fault_scale()
    rng = random.Random(SEED)
    server = ServerProcess(tmp_path)
    server.start()
    statuses: Counter[int] = Counter()
    refusals: Counter[str] = Counter()
    per_route: Counter[str] = Counter()
    violations: list[str] = []
    started = time.monotonic()
    try:
        with server.client() as http:
            schema = http.get("/openapi.json").json()
            ops = operations(schema)
            finished = _finished_game(http)
            games = {name: create_game(http, name) for name in ("adventure", "perils")}
            plan = [op for op in ops for _ in range(per_op)]
            rng.shuffle(plan)
            for n, op in enumerate(plan):
                ctx = _context(http, schema["components"]["schemas"], games, finished)
                req = build(rng, op, ctx)
                target = next((g for g in games.values() if g.game_id == req.game_id), None)
                before = (fingerprint(http, target) if target else None, lobby_ids(http))
                res = _send(http, req)
                per_route[f"{op.method} {op.path}"] += 1
                statuses[res.status_code] += 1
                where = f"request {n}: {req.describe()} -> {res.status_code} {res.text[:160]}"
                if res.status_code >= 500:
                    violations.append(where)
                elif res.status_code >= 400:
                    try:
                        refusals[res.json()["error"]["code"]] += 1
                    except (ValueError, KeyError, TypeError):
                        violations.append(f"{where}: a refusal without the error object")
                if req.hostile and res.status_code < 400:
                    violations.append(f"{where}: hostile request accepted")
                try:
                    after = (fingerprint(http, target) if target else None, lobby_ids(http))
                except Unreadable as exc:
                    violations.append(f"{where}: {exc}")
                    after = None  # type: ignore[assignment]
                changes_allowed = op.method == "POST" and res.status_code < 400
                if not changes_allowed and after != before:
                    violations.append(f"{where}: the refused request changed the game or lobby")
                if after is None or (res.status_code < 400 and op.path.endswith(
                        ("/takeover", "/claim"))) or (after[0] and '"over"' in after[0]):
                    # A seat handed to a computer (or a claimed seat's new token, or a game
                    # over): play on with a fresh game of that kind.
                    kind = target.game if target else "adventure"
                    games[kind] = create_game(http, kind)
    finally:
        server.stop()
        print(server.log()[-6000:])  # shown by pytest when the test fails
    problems = server.problems()
    report.record("fuzz_rest", {
        "operations": len(ops), "requests": sum(per_route.values()),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "refusals_by_code": dict(sorted(refusals.items())),
        "5xx": sum(v for k, v in statuses.items() if k >= 500),
        "violations": len(violations), "log_problem_lines": len(problems),
        "seconds": round(time.monotonic() - started, 1),
    })
    assert set(per_route) == {f"{op.method} {op.path}" for op in ops}, "every route fuzzed"
    assert len(ops) >= 12
    assert violations == [], f"{len(violations)} violations:\n" + "\n".join(violations[:30])
    assert problems == [], "the server logged errors:\n" + "\n".join(problems[:30])

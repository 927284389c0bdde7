"""Nothing acknowledged is lost: 20 games (times the scale) played at once over WebSockets and
REST against a real server that is killed with SIGKILL at seeded moments, 3 times (times the
scale), and restarted on the same database each time. Afterwards every game is finished and its
stored record is held against everything the clients were told."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest
from faultkit import report
from faultkit.ledger import check_record
from faultkit.load import (
    Epoch,
    LoadStats,
    create_games,
    hand_to_computers,
    resend_unacknowledged,
    wait_all_over,
)
from faultkit.scale import fault_scale
from faultkit.server import ServerProcess
from loopkit import run_on_own_loop

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")

SEED = 20261201
GAMES = 20
KILLS = 3
# A kill comes after this many acknowledged actions in that server's life (seeded): the games
# are in full swing, and about 2,700 actions are played at scale 1, so 3 kills fit.
KILL_AFTER_ACKS = (150, 600)


def test_sigkill_under_load_loses_nothing_acknowledged(tmp_path: Path) -> None:
    scale = fault_scale()
    rng = random.Random(SEED)
    server = ServerProcess(tmp_path)
    server.start()
    stats = LoadStats()
    started = time.monotonic()
    try:
        games = create_games(server, GAMES * scale)
        rngs = [random.Random(rng.getrandbits(64)) for _ in games]
        kills = KILLS * scale
        per_epoch_acks = []
        for epoch in range(kills + 1):
            last = epoch == kills
            run = Epoch(server, games, rngs, stats,
                        kill_after_acks=None if last else rng.randint(*KILL_AFTER_ACKS),
                        deadline=time.monotonic() + 60, max_actions=10_000)
            run_on_own_loop(run.run())
            per_epoch_acks.append(stats.acked_in_epoch)
            if not last:
                assert not server.running
                server.start()
                resend_unacknowledged(server, games, stats)
        hand_to_computers(server, games)
        run_on_own_loop(wait_all_over(server, games, timeout=60 * scale))
        results = [check_record(g, server.api("GET", f"/api/games/{g.game_id}/record"))
                   for g in games]
        problems = server.problems()
    finally:
        server.stop()

    checked = sum(r.acked_checked for r in results)
    lost = sorted({(r.game_id, i) for r in results for i in r.lost})
    foreign = sorted({(r.game_id, i) for r in results for i in r.foreign})
    report.record("kill_under_load", {
        "games": len(games), "kills": server.kills, "restarts": server.starts - 1,
        "acknowledged_actions_checked": checked, "lost": len(lost),
        "applied_twice_or_foreign": len(foreign),
        "double_submits_after_restart": stats.resends, "double_submit_answers": stats.resend_codes,
        "acks_per_server_life": per_epoch_acks,
        "games_handed_to_computers": sum(g.handed_over_at is not None for g in games),
        "seconds": round(time.monotonic() - started, 1),
    })
    assert server.kills == kills, "every planned kill must hit a running server"
    assert checked >= 100 * scale, f"too little load to mean anything: {checked} acknowledged"
    assert all(n > 0 for n in per_epoch_acks[:-1]), per_epoch_acks
    assert stats.lost_after_restart == []
    assert lost == [], f"acknowledged actions lost: {lost[:10]}"
    assert foreign == [], f"stored actions the clients never sent there: {foreign[:10]}"
    assert [r.game_id for r in results if r.replay_error] == [], [
        r.replay_error for r in results if r.replay_error][:3]
    # A double submit is refused as stale when stored, applied once when not; nothing else.
    assert set(stats.resend_codes) <= {"action/stale", "applied"}, stats.resend_codes
    assert stats.refused == {}, f"the server refused the driver's own legal moves: {stats.refused}"
    assert problems == [], "\n".join(problems[:20])

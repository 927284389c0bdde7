"""The one runner of the shared anchor bench: OpenSpiel's C++ go_fish(players=4) random playouts.

    from anchor import ANCHOR_GAME, anchor_playouts
    row = anchor_playouts("/tmp/anchorvenv/bin/python", seconds=2.0, seed=1234)

It runs the anchor bench's own function (`bench_openspiel_playouts` in
../shared/anchor-bench/bench.py: uniform random legal actions, chance sampled, games to the
end) in a fresh interpreter of the anchor virtualenv, and adds the CPU clock to the anchor's wall
clock. Set the virtualenv up once, as the anchor's README says: `python3 -m venv /tmp/anchorvenv
&& /tmp/anchorvenv/bin/pip install open-spiel "pettingzoo[classic]"`. bench_anchor.py and
bench_perils_playouts.py both measure through here.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ANCHOR_DIR = ROOT.parent.parent / "shared" / "anchor-bench"
if not ANCHOR_DIR.is_dir():  # a worktree sits one level deeper than the main checkout
    ANCHOR_DIR = Path("/work/shared/anchor-bench")
ANCHOR_GAME = "go_fish(players=4)"
DEFAULT_PYTHON = "/tmp/anchorvenv/bin/python"

_CODE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import bench
cpu = time.process_time()
row = bench.bench_openspiel_playouts(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))
row["cpu_s"] = time.process_time() - cpu
print(json.dumps(row))
"""


def anchor_playouts(
    python: str, seconds: float, seed: int = 1, game: str = ANCHOR_GAME
) -> dict[str, Any]:
    """One anchor measurement: the anchor's own row plus "wall" and "cpu" decisions per second."""
    out = subprocess.run(
        [python, "-c", _CODE, str(ANCHOR_DIR), game, str(seconds), str(seed)],
        capture_output=True, text=True, check=True, timeout=seconds * 10 + 60,
    )
    row: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    decisions = row["decisions_per_s"] * row["seconds"]
    row["decisions_per_s_cpu"] = round(decisions / row["cpu_s"]) if row["cpu_s"] > 0 else 0
    row["wall"] = row["decisions_per_s"]
    row["cpu"] = row["decisions_per_s_cpu"]
    return row

"""docs/rl.md against the code, and the rule that only rl/ needs the RL packages."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.registry import perils_rules
from pocketgalaxy.rl.encoding import Layout
from pocketgalaxy.rl.encoding.adventure import (
    AdventureActionCodec,
    AdventureObservation,
    table_slots,
)
from pocketgalaxy.rl.encoding.perils import PerilsActionCodec, PerilsObservation

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
THEME = perils_rules().theme(PerilsOptions())


def _rows(layout: Layout) -> None:
    for block in layout:
        first, last = block.start, block.stop - 1
        slots = str(first) if first == last else f"{first}..{last}"
        row = re.compile(rf"^\| {re.escape(slots)} \| `{re.escape(block.name)}` \|", re.M)
        assert row.search(DOC), f"docs/rl.md has no row `| {slots} | `{block.name}` |`"


@pytest.mark.parametrize(
    "layout",
    [
        AdventureActionCodec(4, 8).layout,
        AdventureObservation(4, 8).layout,
        PerilsActionCodec(THEME).layout,
        PerilsObservation(THEME).layout,
    ],
    ids=["adventure actions", "adventure observation", "perils actions", "perils observation"],
)
def test_every_block_is_documented_at_its_slots(layout: Layout) -> None:
    _rows(layout)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_documented_sizes_per_player_count(players: int) -> None:
    t = table_slots(players)
    actions = AdventureActionCodec(players, t).size
    obs = AdventureObservation(players, t).size
    assert f"| {players} | {t} | {actions} | {obs} |" in DOC


def test_documented_perils_sizes() -> None:
    actions, obs = PerilsActionCodec(THEME).size, PerilsObservation(THEME).size
    assert f"{actions} actions, {obs} observation slots" in DOC


def test_only_rl_imports_the_rl_packages() -> None:
    # numpy is a product dependency now (the designer's statistics, sim/); the environment
    # packages stay the rl extra's alone.
    src = ROOT / "src" / "pocketgalaxy"
    heavy = {"gymnasium", "pettingzoo"}
    for path in src.rglob("*.py"):
        if path.relative_to(src).parts[0] == "rl":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in heavy, f"{path} imports {name}"

"""Tuning: search a grid of option values toward a target the designer states.

`--tune start_health=2|3|4 --tune pathways_per_round=2|3` (or `start_health=2..4`) makes one
variant per combination (at most the study's variant limit; search.py goes beyond the grid),
all played on the same deals as any other study. The
target is a win rate (`--target win_rate=0.5`), an ideal length (`--target length=20-26`) or
both; each variant's distance from it is

    |win rate - target|  +  (how far the mean length lies outside the band) / (band width + 1)

so a point of win rate and a band's width of length weigh alike (0 is on target). The report
ranks the variants by that distance, with their intervals, and marks those the study cannot
tell from being on target: their win-rate interval holds the target rate (or, for a length
target alone, their length interval meets the band). Several marked variants mean more games
are needed to choose among them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pocketgalaxy.sim.balance.search import parse_axes
from pocketgalaxy.sim.balance.study import MAX_VARIANTS, StudyError


@dataclass(frozen=True)
class Target:
    win_rate: float | None = None
    length: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"win_rate": self.win_rate,
                "length": list(self.length) if self.length else None}


def parse_target(flags: Sequence[str]) -> Target:
    """`["win_rate=0.5", "length=20-26"]` -> Target; anything else is refused."""
    rate: float | None = None
    band: tuple[int, int] | None = None
    for flag in flags:
        key, eq, value = flag.partition("=")
        try:
            if key == "win_rate" and eq:
                rate = float(value)
                if not 0.0 <= rate <= 1.0:
                    raise ValueError
            elif key == "length" and eq:
                low, dash, high = value.partition("-")
                band = (int(low), int(high) if dash else int(low))
                if not 0 <= band[0] <= band[1]:
                    raise ValueError
            else:
                raise ValueError
        except ValueError:
            raise StudyError(f"bad --target {flag!r}: use win_rate=0.5 (0..1) or "
                             "length=LOW-HIGH") from None
    if rate is None and band is None:
        raise StudyError("--tune needs a --target: win_rate=0.5, length=LOW-HIGH, or both")
    return Target(rate, band)


def grid_variants(game: str, flags: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
    """One variant per combination of `KEY=V1|V2|...` (or `KEY=LOW..HIGH`) flags, named
    tune-1, tune-2, ..."""
    axes = parse_axes(game, flags)
    combos = list(itertools.product(*(axis.values() for axis in axes)))
    if len(combos) + 1 > MAX_VARIANTS:
        raise StudyError(f"--tune makes {len(combos)} combinations; at most "
                         f"{MAX_VARIANTS - 1} (with the baseline, {MAX_VARIANTS} variants); "
                         "--search optuna --trials N searches larger ranges")
    return [(f"tune-{i + 1}", {axis.key: value for axis, value in zip(axes, combo, strict=True)})
            for i, combo in enumerate(combos)]


def distance(measures: dict[str, Any], target: Target) -> float:
    d = 0.0
    if target.win_rate is not None:
        d += abs((measures["win_rate"]["rate"] or 0.0) - target.win_rate)
    if target.length is not None:
        low, high = target.length
        mean = measures["length"]["mean"] or 0.0
        d += max(0.0, low - mean, mean - high) / (high - low + 1)
    return d


def _holds_target(m: dict[str, Any], target: Target) -> bool:
    if target.win_rate is not None:
        return bool(m["win_rate"]["ci_low"] <= target.win_rate <= m["win_rate"]["ci_high"])
    assert target.length is not None
    low, high = target.length
    return bool(m["length"]["ci_low"] <= high and m["length"]["ci_high"] >= low)


def rank(summary: dict[str, Any], target: Target) -> list[dict[str, Any]]:
    """Every variant by distance from the target (ties by study order)."""
    variants = summary["variants"]
    overrides = {v["name"]: v["options"] for v in summary["study"]["variants"]}
    order = sorted(variants, key=lambda n: (distance(variants[n], target),
                                            list(variants).index(n)))
    rows = []
    for place, name in enumerate(order, start=1):
        m = variants[name]
        rows.append({
            "place": place, "variant": name, "options": overrides.get(name, {}),
            "distance": round(distance(m, target), 6),
            "win_rate": m["win_rate"], "length": m["length"],
            "on_target": _holds_target(m, target),
        })
    return rows

"""The study's plots with matplotlib (Agg, no screen): PNG and SVG files, and the SVG text for
the HTML report. SVG ids are salted with a fixed string and carry no date, so they repeat."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from pocketgalaxy.sim.balance.run import StudyRun

# No date (so files repeat) and no RDF block (so the inline copy is only the picture).
_NO_SVG_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}
COLOURS = ("#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085", "#7f8c8d")


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "pocketgalaxy"
    plt.rcParams["svg.fonttype"] = "none"
    return plt


def _save(fig: Any, folder: Path, name: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    fig.savefig(folder / f"{name}.png", dpi=110, bbox_inches="tight",
                metadata={"Software": None})
    fig.savefig(folder / f"{name}.svg", bbox_inches="tight", metadata=_NO_SVG_METADATA)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata=_NO_SVG_METADATA)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def write_plots(run: StudyRun, summary: dict[str, Any], folder: Path) -> dict[str, str]:
    """Draw every plot of the study; returns {name: inline SVG text}."""
    plt = _plt()
    variants = summary["variants"]
    names = list(variants)
    out: dict[str, str] = {}

    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    rates = [variants[n]["win_rate"] for n in names]
    y = [100 * (r["rate"] or 0) for r in rates]
    err = [[100 * ((r["rate"] or 0) - (r["ci_low"] or 0)) for r in rates],
           [100 * ((r["ci_high"] or 0) - (r["rate"] or 0)) for r in rates]]
    ax.bar(names, y, yerr=err, capsize=4, color=COLOURS[: len(names)] or COLOURS[0])
    ax.set_ylabel("Hero wins (%)" if run.study.game == "perils" else "first player wins (%)")
    ax.set_title("Win rate by variant, with 95% intervals")
    out["win_rate"] = _save(fig, folder, "win_rate")
    plt.close(fig)

    if summary["comparisons"]:
        fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.5 * len(summary["comparisons"])))
        for i, c in enumerate(summary["comparisons"]):
            w = c["win_rate"]
            ax.errorbar([100 * (w["diff"] or 0)], [i],
                        xerr=[[100 * ((w["diff"] or 0) - (w["ci_low"] or 0))],
                              [100 * ((w["ci_high"] or 0) - (w["diff"] or 0))]],
                        fmt="o", color=COLOURS[(i + 1) % len(COLOURS)], capsize=4)
        ax.axvline(0, color="#555", linewidth=1)
        ax.set_yticks(range(len(summary["comparisons"])),
                      [f"{c['variant']} − {c['against']}" for c in summary["comparisons"]])
        ax.set_xlabel("paired difference in win rate (points)")
        ax.set_title("Variants against the baseline, same deals")
        out["comparisons"] = _save(fig, folder, "comparisons")
        plt.close(fig)

    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    for i, n in enumerate(names):
        lengths = [r.length for r in run.games[n]]
        if lengths:
            ax.hist(lengths, bins=range(min(lengths), max(lengths) + 2), histtype="step",
                    density=True, label=n, color=COLOURS[i % len(COLOURS)], linewidth=1.5)
    band = run.study.length_band
    if band:
        ax.axvspan(band[0], band[1] + 1, color="#2e8b57", alpha=0.12, label="ideal band")
    ax.set_xlabel("rounds" if run.study.game == "perils" else "turns")
    ax.set_ylabel("share of games")
    ax.set_title("Game length")
    ax.legend(fontsize=8)
    out["length"] = _save(fig, folder, "length")
    plt.close(fig)

    if run.study.game == "perils":
        fig, ax = plt.subplots(figsize=(6.4, 3.2))
        for i, n in enumerate(names):
            curve = variants[n]["survival"]
            xs = [0] + [p["round"] for p in curve]
            ys = [1.0] + [p["surviving"] for p in curve]
            ax.step(xs, ys, where="post", label=n, color=COLOURS[i % len(COLOURS)])
        ax.set_xlabel("round")
        ax.set_ylabel("health never yet at zero")
        ax.set_ylim(0, 1.02)
        ax.set_title("Hero survival (Kaplan-Meier)")
        ax.legend(fontsize=8)
        out["survival"] = _save(fig, folder, "survival")
        plt.close(fig)

        fig, ax = plt.subplots(figsize=(6.4, 3.2))
        for i, n in enumerate(names):
            pts = [p for p in variants[n]["health_by_round"] if p["mean"] is not None]
            ax.plot([p["round"] for p in pts], [p["mean"] for p in pts], marker="o",
                    label=n, color=COLOURS[i % len(COLOURS)])
        ax.set_xlabel("round")
        ax.set_ylabel("mean health at the start")
        ax.set_title("Health over the game")
        ax.legend(fontsize=8)
        out["health"] = _save(fig, folder, "health")
        plt.close(fig)
    else:
        fig, ax = plt.subplots(figsize=(6.4, 3.2))
        width = 0.8 / max(1, len(names))
        for i, n in enumerate(names):
            seats = variants[n]["missions_by_seat"]
            ax.bar([s["seat"] + i * width for s in seats], [s["mean"] or 0 for s in seats],
                   width=width, label=n, color=COLOURS[i % len(COLOURS)])
        ax.set_xlabel("seat")
        ax.set_ylabel("missions per game")
        ax.set_title("Missions by seat")
        ax.legend(fontsize=8)
        out["missions"] = _save(fig, folder, "missions")
        plt.close(fig)
    if "ladder" in summary:
        out["ladder"] = _ladder_plot(plt, summary["ladder"], folder)
    return out


def _ladder_plot(plt: Any, ladder: dict[str, Any], folder: Path) -> str:
    """The ladder's win rates with their intervals, weakest rung first."""
    rungs = ladder["rungs"]
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    y = [100 * (r["win_rate"]["rate"] or 0) for r in rungs]
    err = [[100 * ((r["win_rate"]["rate"] or 0) - (r["win_rate"]["ci_low"] or 0)) for r in rungs],
           [100 * ((r["win_rate"]["ci_high"] or 0) - (r["win_rate"]["rate"] or 0)) for r in rungs]]
    ax.bar([f"{r['rung']}\n({r['player'].split(':')[0]})" for r in rungs], y, yerr=err,
           capsize=4, color=COLOURS[: len(rungs)])
    if ladder.get("fair_share") is not None:
        ax.axhline(100 * ladder["fair_share"], color="#555", linewidth=1, linestyle="--",
                   label="fair share")
        ax.legend(fontsize=8)
    ax.set_ylabel("wins (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Skill ladder on the same deals, with 95% intervals")
    text = _save(fig, folder, "ladder")
    plt.close(fig)
    return text

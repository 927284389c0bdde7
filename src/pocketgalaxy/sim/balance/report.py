"""A study's folder: raw games (CSV and JSON lines), the measures (JSON), plots and a report.

    OUT/study.json     the study as run (variants, players, seed, games)
    OUT/games.csv      one row per game: variant, game number, seed, players, result, course
    OUT/games.jsonl    the same rows as JSON, one per line
    OUT/summary.json   every measure with its interval and meaning (sim/balance/measures.py)
    OUT/plots/*.png    the plots, and the same as *.svg
    OUT/report.html    tables and the plots (inline SVG): one file, readable offline

The CSV, JSON lines and summary hold no timings, so the same study with the same seed writes
the same bytes with any number of workers. Any game can be replayed from its seed and options.
"""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path
from typing import Any

from pocketgalaxy.sim.balance.measures import r6
from pocketgalaxy.sim.balance.plots import write_plots
from pocketgalaxy.sim.balance.run import StudyRun, game_number

CSV_FIELDS = ("variant", "game", "seed", "players", "winners", "reason", "length", "capped",
              "first_player", "archetype", "rounds", "showdown", "first_zero_health", "health_path",
              "deciding_suit",
              "missions", "lead_changes", "decided_at", "drama")


def game_rows(run: StudyRun) -> list[dict[str, Any]]:
    """One plain row per game, variants in study order, games by number."""
    count = len(run.study.variants)
    rows = []
    for variant in run.study.variants:
        for r in run.games[variant.name]:
            x = r.extras
            rows.append({
                "variant": variant.name,
                "game": game_number(r, count),
                "seed": r.seed,
                "players": list(r.specs),
                "winners": [w + 1 for w in r.winners],
                "reason": r.reason,
                "length": r.length,
                "capped": r.ended_by_cap,
                "first_player": None if r.first_player is None else r.first_player + 1,
                "archetype": x.get("archetype"),
                "rounds": x.get("rounds"),
                "showdown": x.get("showdown"),
                "first_zero_health": x.get("first_zero_health"),
                "health_path": x.get("health_path"),
                "deciding_suit": x.get("deciding_suit"),
                "missions": x.get("missions"),
                "lead_changes": x.get("lead_changes"),
                "decided_at": r6(x["decided_at"]) if x.get("decided_at") is not None else None,
                "drama": x.get("drama"),
            })
    return rows


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ";".join(str(v) for v in value)
    return str(value)


def write_report(run: StudyRun, summary: dict[str, Any], out: Path) -> Path:
    """Write the study's folder (created if missing); returns the report's path."""
    out.mkdir(parents=True, exist_ok=True)
    rows = game_rows(run)
    _write(out / "study.json", json.dumps(run.study.to_json(), indent=2) + "\n")
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for row in rows:
        writer.writerow([_cell(row[k]) for k in CSV_FIELDS])
    _write(out / "games.csv", buf.getvalue())
    _write(out / "games.jsonl", "".join(json.dumps(row, separators=(",", ":")) + "\n"
                                        for row in rows))
    _write(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    plots = write_plots(run, summary, out / "plots")
    report = out / "report.html"
    _write(report, render_html(summary, plots))
    return report


def _write(path: Path, text: str) -> None:
    """Write through a temporary file, so a reader never sees half a file."""
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ci(d: dict[str, Any], pct: bool = True) -> str:
    lo, hi = d.get("ci_low"), d.get("ci_high")
    if lo is None or hi is None:
        return ""
    return f"{_pct(lo)} to {_pct(hi)}" if pct else f"{lo:.2f} to {hi:.2f}"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th scope='col'>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _section(key: str, title: str, meanings: dict[str, str], content: str) -> str:
    meaning = html.escape(meanings.get(key, ""))
    return f"<section><h2>{html.escape(title)}</h2><p class='meaning'>{meaning}</p>{content}" \
           "</section>"


def render_html(summary: dict[str, Any], plots: dict[str, str]) -> str:
    """The report page: one file with its styles and inline SVG plots."""
    study = summary["study"]
    meanings = summary["meanings"]
    variants = summary["variants"]
    game = study["game"]
    title = f"Balance study: {'Perils & Pathways' if game == 'perils' else 'Adventure Cards'}"
    parts = [f"<h1>{html.escape(title)}</h1>"]
    players = ", ".join(study["players"])
    parts.append(
        f"<p>Seed {study['seed']}, up to {study['games']:,} games per variant, players: "
        f"{html.escape(players)}. Every variant played the same deals. Stopped: "
        f"{html.escape(summary['stopped'])}. Intervals are 95%.</p>")
    rows = []
    for name, m in variants.items():
        rows.append([name, f"{m['games']:,}", _pct(m["win_rate"]["rate"]), _ci(m["win_rate"]),
                     f"{m['length']['mean'] or 0:.2f}", _ci(m["length"], pct=False),
                     _pct(m["completion"]["rate"])])
    headline = "Hero wins" if game == "perils" else "First player wins"
    parts.append(_section("win_rate", "Win rate by variant", meanings, _table(
        ["variant", "games", headline, "95% interval", "mean length", "interval", "completed"],
        rows) + plots.get("win_rate", "")))
    if summary["comparisons"]:
        crow = []
        for c in summary["comparisons"]:
            w, ln, need = c["win_rate"], c["length"], c["games_needed"]
            crow.append([f"{c['variant']} vs {c['against']}", f"{c['pairs']:,}",
                         _pct(w["diff"]), _ci(w), _fmt_p(w.get("p_holm")),
                         f"{ln['diff'] or 0:+.2f}", _fmt_p(ln.get("p_holm")),
                         f"{need['paired'] or '–'} / {need['unpaired']}"])
        parts.append(_section("comparisons", "Variants against the baseline", meanings, _table(
            ["comparison", "pairs", "win-rate difference", "95% interval", "p (Holm)",
             "length difference", "p (Holm)", f"games needed for {study['detect']:.0%}: "
             "paired / unpaired"], crow) + plots.get("comparisons", "")))
    if "tuning" in summary:
        aim = summary["tuning"]["target"]
        trows = [[str(t["place"]), t["variant"],
                  ", ".join(f"{k}={v}" for k, v in t["options"].items()) or "(defaults)",
                  f"{t['distance']:.3f}", _pct(t["win_rate"]["rate"]), _ci(t["win_rate"]),
                  f"{t['length']['mean'] or 0:.2f}", "yes" if t["on_target"] else ""]
                 for t in summary["tuning"]["ranking"]]
        wanted = []
        if aim["win_rate"] is not None:
            wanted.append(f"win rate {_pct(aim['win_rate'])}")
        if aim["length"]:
            wanted.append(f"length {aim['length'][0]}-{aim['length'][1]}")
        parts.append(_section("tuning", f"Tuning toward {' and '.join(wanted)}", meanings,
                              _table(["place", "variant", "settings", "distance", "win rate",
                                      "95% interval", "mean length", "on target"], trows)))
    if "ladder" in summary:
        parts.append(_ladder_section(summary["ladder"], meanings, plots.get("ladder", "")))
    parts.append(_section("length", "Game length", meanings, plots.get("length", "")))
    if game == "perils":
        parts.append(_section("survival", "Hero survival by round", meanings,
                              plots.get("survival", "")))
        parts.append(_section("health_by_round", "Health over the game", meanings,
                              plots.get("health", "")))
        for name, m in variants.items():
            causes = [[k, _pct(v["rate"]), _ci(v)] for k, v in m["loss_causes"].items()]
            suits = [[k, _pct(v["rate"]), _ci(v)] for k, v in m["deciding_suit"].items()]
            arch = [[k, f"{v['n']:,}", _pct(v["rate"]), _ci(v)]
                    for k, v in m["win_rate_by_archetype"].items()]
            rb = m["role_balance"]
            parts.append(_section("loss_causes", f"{name}: how games were lost", meanings,
                                  _table(["cause", "share of games", "95% interval"], causes)
                                  + f"<p>{html.escape(meanings['deciding_suit'])}</p>"
                                  + _table(["suit", "share of losses", "95% interval"], suits)
                                  + f"<p>{html.escape(meanings['win_rate_by_archetype'])}</p>"
                                  + _table(["archetype", "games", "Hero wins", "95% interval"],
                                           arch)
                                  + f"<p>Role balance {rb['value']} ({_ci(rb, pct=False)}).</p>"))
    else:
        for name, m in variants.items():
            seats = [[str(s["seat"]), _pct(s["rate"]), _ci(s)] for s in m["win_share_by_seat"]]
            who = [[k, _pct(v["rate"]), _ci(v)] for k, v in m["win_share_by_player"].items()]
            e, b = m["first_player_edge"], m["balance"]
            lc, dc, dr = m["lead_changes"], m["decisiveness"], m["drama"]
            parts.append(_section("win_share_by_seat", f"{name}: seats and players", meanings,
                                  _table(["seat", "win share", "95% interval"], seats)
                                  + _table(["player", "win share", "95% interval"], who)
                                  + f"<p>First-player edge {_pct(e['edge'])} ({_ci(e)}); "
                                  f"Ludii balance {b['value']} ({_ci(b, pct=False)}); lead "
                                  f"changes {lc['mean']} per game; decided at "
                                  f"{_pct(dc['mean'])} of the game; comeback share "
                                  f"{_pct(dr['comeback']['rate'])}.</p>"))
        parts.append(_section("missions_by_seat", "Missions by seat", meanings,
                              plots.get("missions", "")))
    style = ("body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2em auto;"
             "padding:0 1em;color:#1b1b1b}table{border-collapse:collapse;margin:.5em 0}"
             "td,th{border:1px solid #bbb;padding:.25em .6em;text-align:left}"
             "th{background:#eef}.meaning{color:#444;font-style:italic}svg{max-width:100%;"
             "height:auto}")
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{style}</style></head><body>"
            + "".join(parts) + "</body></html>\n")


def _ladder_section(ladder: dict[str, Any], meanings: dict[str, str], plot: str) -> str:
    shares = ladder["skill_share"]
    rows = []
    for r in ladder["rungs"]:
        share = shares.get(r["rung"])
        rows.append([r["rung"], r["player"], f"{r['games']:,}", _pct(r["win_rate"]["rate"]),
                     _ci(r["win_rate"]), f"{r['length']['mean'] or 0:.2f}",
                     "–" if share is None or share["value"] is None else
                     f"{share['value']:.2f} ({_ci(share, pct=False)})"])
    spread = ladder["spread"]
    words = f"<p>Against {html.escape(ladder['field'])}."
    if spread is not None:
        words += (f" Spread, oracle minus random: {_pct(spread['diff'])} "
                  f"({_ci({'ci_low': spread['ci_low'], 'ci_high': spread['ci_high']})}).")
    if ladder.get("fair_share") is not None:
        words += f" A fair share is {_pct(ladder['fair_share'])}."
    return _section("ladder", "Skill versus luck: the ladder", meanings, _table(
        ["rung", "player", "games", "wins", "95% interval", "mean length",
         "skill share (95% interval)"],
        rows) + words + "</p>" + plot)


def _fmt_p(p: float | None) -> str:
    if p is None:
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"

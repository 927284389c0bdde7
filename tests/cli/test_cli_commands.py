"""`rules`, `simulate`, `replay` and `serve` through the Typer app."""

from __future__ import annotations

import json
import sys
import types
from typing import Any

import pytest
from typer.testing import CliRunner

from pocketgalaxy.cli.app import app
from pocketgalaxy.core.options import describe_options
from pocketgalaxy.registry import get_game


@pytest.mark.parametrize("game", ["perils", "adventure"])
@pytest.mark.parametrize("columns", ["240", "80"])  # a table when wide, blocks when narrow
def test_rules_lists_every_option(game: str, columns: str) -> None:
    result = CliRunner().invoke(app, ["rules", game, "--options"], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    for info in describe_options(get_game(game).options_type):
        assert info.name in result.output  # whole, never folded: it is typed back as key=value
        assert info.doc.split()[0] in result.output
        if info.rule:
            assert info.rule in result.output


def test_rules_of_an_unknown_game() -> None:
    result = CliRunner().invoke(app, ["rules", "chess"])
    assert result.exit_code == 2 and "unknown game 'chess'" in result.stderr


def test_simulate_perils_json_has_the_fields() -> None:
    result = CliRunner().invoke(app, ["simulate", "perils", "-n", "12", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 12 and data["seed"] == 3
    assert data["hero"] == "rulebased" and data["teller"] == "teller"
    assert data["options"]["teller_policy"] == "approve_all"
    hw = data["hero_win"]
    assert 0 <= hw["ci_low"] <= hw["rate"] <= hw["ci_high"] <= 1
    assert sum(d["n"] for d in data["by_archetype"].values()) == 12
    assert data["rounds"]["mean"] > 0
    assert result.stderr == ""  # no progress bar with --json


def test_simulate_perils_measures_each_archetype_in_turn_or_one_chosen() -> None:
    each = CliRunner().invoke(
        app, ["simulate", "perils", "-n", "8", "--seed", "3", "--archetype", "each", "--json"]
    )
    assert each.exit_code == 0, each.output
    by_arch = json.loads(each.stdout)["by_archetype"]
    assert set(by_arch) == {"envoy", "marine", "pilot", "scout"}  # the cosmic playsheet's four
    assert all(d["n"] == 2 for d in by_arch.values())
    one = CliRunner().invoke(
        app, ["simulate", "perils", "-n", "3", "--seed", "3", "--archetype", "scout", "--json"]
    )
    assert one.exit_code == 0, one.output
    assert set(json.loads(one.stdout)["by_archetype"]) == {"scout"}
    bad = CliRunner().invoke(app, ["simulate", "perils", "-n", "3", "--archetype", "wizard"])
    assert bad.exit_code == 2 and "wizard" in bad.output


def _without_timing(report: dict[str, Any]) -> dict[str, Any]:
    out = dict(report)
    out.pop("timing")
    if "by_kind" in out:
        out["by_kind"] = {
            k: {f: v for f, v in d.items() if f != "ms_per_decision"}
            for k, d in out["by_kind"].items()
        }
    return out


def test_simulate_adventure_json_and_workers_agree() -> None:
    base = [
        "simulate",
        "adventure",
        "-n",
        "8",
        "--players",
        "3",
        "--bots",
        "memory,forgetful,random",
        "--seed",
        "5",
        "--json",
    ]
    one = CliRunner().invoke(app, [*base, "--workers", "1"])
    two = CliRunner().invoke(app, [*base, "--workers", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert _without_timing(a) == _without_timing(b)
    assert a["shared_win_rule"].startswith("a shared win counts as 1/k")
    assert len(a["by_seat"]) == 3
    assert set(a["by_kind"]) == {"memory", "forgetful", "random"}
    assert a["turns"]["n"] == 8 and a["ended_by_cap"] == 0
    assert a["first_player"]["fair_share"] == pytest.approx(1 / 3)
    shares = sum(d["successes"] for d in a["by_seat"])
    assert shares == pytest.approx(8 - a["games_without_winner"])


def test_simulate_prints_tables_and_chosen_seed() -> None:
    result = CliRunner().invoke(app, ["simulate", "perils", "-n", "3"])
    assert result.exit_code == 0, result.output
    assert "Hero win rate" in result.stdout and "95% CI" in result.stdout
    assert "use --seed" in result.stderr


def test_simulate_rejects_bad_input() -> None:
    result = CliRunner().invoke(
        app, ["simulate", "adventure", "-n", "2", "--players", "3", "--bots", "memory,random"]
    )
    assert result.exit_code == 2 and "give one per seat" in result.stderr
    result = CliRunner().invoke(app, ["simulate", "perils", "-n", "0"])
    assert result.exit_code == 2


def _record(tmp_path: Any) -> Any:
    path = tmp_path / "game.json"
    result = CliRunner().invoke(
        app, ["play", "perils", "--hero", "rulebased", "--seed", "8", "--record", str(path)]
    )
    assert result.exit_code == 0, result.output
    return path


def test_replay_prints_words_and_final_position(tmp_path: Any) -> None:
    path = _record(tmp_path)
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Perils & Pathways: seed 8" in result.output
    assert "Round 1:" in result.output
    assert "Final position" in result.output and "Outcome:" in result.output


def test_replay_for_a_seat_hides_what_it_could_not_see(tmp_path: Any) -> None:
    path = _record(tmp_path)
    hero = CliRunner().invoke(app, ["replay", str(path), "--json", "--seat", "0"])
    teller = CliRunner().invoke(app, ["replay", str(path), "--json", "--seat", "1"])
    hero_types = {e["type"] for s in json.loads(hero.stdout)["steps"] for e in s["events"]}
    teller_types = {e["type"] for s in json.loads(teller.stdout)["steps"] for e in s["events"]}
    assert "PathwaysDealt" in teller_types and "PathwaysDealt" not in hero_types
    assert "final_view" in json.loads(hero.stdout)
    assert "final_state" not in json.loads(hero.stdout)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "record is not valid JSON"),
        ('{"format": "other"}', "not a Pocket Galaxy record"),
        (
            '{"format": "pocketgalaxy-record", "version": 1, "game": "perils", "players": 2, '
            '"seed": 1, "options": {}, "actions": [{"seat": 0, "action": {"type": "Fly"}}]}',
            "record step 0 (seat 0) does not apply",
        ),
    ],
)
def test_broken_record_is_one_line_and_exit_2(tmp_path: Any, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_serve_calls_the_web_server_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    fake = types.ModuleType("pocketgalaxy.web.server")
    fake.run = lambda **kw: calls.append(kw)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pocketgalaxy.web.server", fake)
    result = CliRunner().invoke(
        app, ["serve", "--port", "9001"], env={"POCKETGALAXY_DATA_DIR": "/tmp/pg-data"}
    )
    assert result.exit_code == 0, result.output
    assert calls == [
        {"host": "127.0.0.1", "port": 9001, "database_url": None, "data_dir": "/tmp/pg-data",
         "allow_empty": False}
    ]


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.startswith("pocketgalaxy ")


def test_replay_shows_the_deal_to_each_seat_only_its_own(tmp_path: Any) -> None:
    from pocketgalaxy.agents.registry import make_agent
    from pocketgalaxy.session import Session

    agents = {s: make_agent("adventure", "memory", s, 3, seed=s) for s in range(3)}
    session = Session(get_game("adventure"), {}, seed=2, players=3, agents=agents)
    session.run_bots()
    path = tmp_path / "adv.json"
    path.write_text(session.record.dumps())
    everyone = json.loads(CliRunner().invoke(app, ["replay", str(path), "--json"]).stdout)
    seat1 = json.loads(
        CliRunner().invoke(app, ["replay", str(path), "--json", "--seat", "1"]).stdout
    )
    dealt = [e for e in everyone["opening_events"] if e["type"] == "CardsDealt"]
    assert sorted(e["seat"] for e in dealt) == [0, 1, 2]
    assert [e["seat"] for e in seat1["opening_events"] if e["type"] == "CardsDealt"] == [1]
    assert everyone["final_state"] == session.state.to_json()
    words = CliRunner().invoke(app, ["replay", str(path), "--seat", "1"])
    assert words.exit_code == 0
    assert "You were dealt 6 test-cards" in words.output
    assert "Ada was dealt" not in words.output

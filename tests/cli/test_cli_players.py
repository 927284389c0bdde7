"""The catalogue in the terminal: `pocketgalaxy players`, the `--help` of `play`, `bot` as a
player name, and the refusal of a name the registry does not know."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pocketgalaxy.agents import catalogue
from pocketgalaxy.agents.registry import agent_names
from pocketgalaxy.cli import play
from pocketgalaxy.cli.app import app
from pocketgalaxy.core.record import GameRecord


def _help(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    # Rich draws the help in a box and wraps it: join the lines' text back into one string.
    text = re.sub(r"[│╭╮╰╯─]", " ", result.output)
    return " ".join(text.split())


def test_play_perils_help_lists_every_hero_and_teller_from_the_catalogue() -> None:
    text = _help("play", "perils")
    for role in ("hero", "teller"):
        for entry in catalogue.entries("perils", role):
            assert f"{entry.spec} ({entry.level})" in text
    assert "bot (= planner)" in text and "planner (Expert)" in text
    assert "bot (= teller:style=fair)" in text


def test_play_adventure_help_lists_ismcts_and_every_level() -> None:
    text = _help("play", "adventure")
    assert "ismcts:iterations=300 (Expert search)" in text
    for entry in catalogue.entries("adventure"):
        assert f"{entry.spec} ({entry.level})" in text


@pytest.mark.parametrize("game,role,seat", [("perils", "hero", 0), ("perils", "teller", 1),
                                            ("adventure", "player", 0)])
def test_the_help_names_every_registry_player_not_hidden(game: str, role: str, seat: int) -> None:
    helps = {"hero": play.HERO_HELP, "teller": play.TELLER_HELP, "player": play.BOTS_HELP}
    named = {e.name for e in catalogue.entries(game, role) if e.spec in helps[role]}
    hidden = {n for (g, r, n) in catalogue.HIDDEN if (g, r) == (game, role)}
    assert named | hidden == set(agent_names(game, seat, 4 if game == "adventure" else 2))


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[dict[int, str]]:
    seen: list[dict[int, str]] = []
    real = play.bot_agents

    def spy(game: str, seats: Any, players: int) -> Any:
        seen.append({s.seat: s.spec for s in seats if s.is_bot})
        return real(game, seats, players)

    monkeypatch.setattr(play, "bot_agents", spy)
    return seen


def test_hero_bot_and_teller_bot_play_the_documented_defaults(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen = _spy(monkeypatch)
    path = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "perils", "--hero", "bot", "--teller", "bot",
                                      "--seed", "3", "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert seen == [{0: "planner", 1: "teller:style=fair"}]
    record = GameRecord.loads(path.read_text("utf-8"))
    assert record.options["teller_policy"] == "rubric"  # fair: the rubric judges, as ever
    assert "Seed 3" in result.output


def test_a_teller_style_alone_judges_through_the_teller_seat(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen = _spy(monkeypatch)
    path = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "perils", "--hero", "rulebased", "--teller",
                                      "harsh", "--seed", "4", "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert seen == [{0: "rulebased", 1: "teller:style=harsh"}]
    assert GameRecord.loads(path.read_text("utf-8")).options["teller_policy"] == "human"


def test_adventure_bots_accept_bot_and_specs_with_settings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _spy(monkeypatch)
    # The person at seat 1 stops at the first prompt (no input): the seats are set by then.
    result = CliRunner().invoke(app, ["play", "adventure", "--players", "4", "--seat", "0",
                                      "--bots", "bot,forgetful:level=easy,fade=0.5,random",
                                      "--seed", "5"], input="")
    assert seen == [{1: "memory", 2: "forgetful:level=easy,fade=0.5", 3: "random"}], (
        result.output)


def test_a_bad_player_name_lists_the_catalogue_in_80_columns() -> None:
    result = CliRunner().invoke(app, ["play", "perils", "--hero", "wizard"])
    assert result.exit_code == 2
    err = result.stderr
    assert "unknown computer player 'wizard' for the Hero. Choose one of:" in err
    assert "bot: the default, planner" in err
    assert "planner: Expert: weighs every pathway" in err
    assert all(len(line) <= 80 for line in err.splitlines())
    result = CliRunner().invoke(app, ["play", "adventure", "--bots", "memory,zork,random"])
    assert result.exit_code == 2
    assert "unknown computer player 'zork'. Choose one of:" in result.stderr
    assert "ismcts:iterations=300: Expert search" in result.stderr


def test_players_prints_every_entry_with_its_strength() -> None:
    result = CliRunner().invoke(app, ["players", "adventure"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Adventure Cards: computer players (any seat)" in text
    for entry in catalogue.entries("adventure"):
        assert entry.spec in result.output
        assert f"{round(100 * entry.strength.rate)}%" in text or entry.strength.reference
    assert "Expert memory (bot)" in text
    assert "bot means the level marked (bot)" in text


def test_players_both_games_fit_80_columns() -> None:
    result = CliRunner().invoke(app, ["players"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "Perils & Pathways: computer Tellers (seat 2)" in result.output
    assert "teller:style=adaptive" in result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80


def test_players_json_is_the_catalogue() -> None:
    result = CliRunner().invoke(app, ["players", "perils", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == catalogue.catalogue_json("perils")
    both = json.loads(CliRunner().invoke(app, ["players", "--json"]).output)
    assert [g["game"] for g in both] == ["adventure", "perils"]


def test_players_of_an_unknown_game_is_refused_with_the_games() -> None:
    result = CliRunner().invoke(app, ["players", "chess"])
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.stderr and "adventure, perils" in result.stderr

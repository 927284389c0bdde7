"""The catalogue of computer players (agents/catalogue.py) against the registry, the `bot`
alias, and the measured strengths in agents/strength.json (replayed in small)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from pocketgalaxy.agents import catalogue
from pocketgalaxy.agents.adventure import ForgetfulAgent, MemoryAgent
from pocketgalaxy.agents.ismcts import ISMCTSAgent
from pocketgalaxy.agents.perils import PlannerHero, RuleBasedHero, StyledTeller
from pocketgalaxy.agents.registry import agent_names, make_agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.sim.runner import play_one
from pocketgalaxy.web.hub import Hub

BENCH = Path(__file__).resolve().parents[2] / "bench" / "measure_opponents.py"
SEATS = {"player": (0, 3), "hero": (0,), "teller": (1,)}
PLAYERS = {"adventure": 4, "perils": 2}


def _all() -> list[catalogue.Entry]:
    return [e for g in catalogue.ROLES for e in catalogue.entries(g)]


def test_the_specs_are_the_stable_names_the_api_and_cli_take() -> None:
    # A rename breaks saved games, scripts and links: this list changes only on purpose.
    assert [(e.game, e.role, e.spec) for e in _all()] == [
        ("adventure", "player", "random"),
        ("adventure", "player", "forgetful:level=easy"),
        ("adventure", "player", "forgetful:level=normal"),
        ("adventure", "player", "forgetful:level=hard"),
        ("adventure", "player", "memory"),
        ("adventure", "player", "ismcts:iterations=300"),
        ("perils", "hero", "random"),
        ("perils", "hero", "rulebased"),
        ("perils", "hero", "planner"),
        ("perils", "teller", "teller:style=fair"),
        ("perils", "teller", "teller:style=generous"),
        ("perils", "teller", "teller:style=harsh"),
        ("perils", "teller", "teller:style=adaptive"),
    ]


@pytest.mark.parametrize("game", sorted(catalogue.ROLES))
def test_every_registry_name_has_an_entry_or_is_deliberately_hidden(game: str) -> None:
    for role in catalogue.roles(game):
        for seat in SEATS[role]:
            names = agent_names(game, seat, PLAYERS[game])
            listed = {e.name for e in catalogue.entries(game, role)}
            hidden = {n for (g, r, n) in catalogue.HIDDEN if (g, r) == (game, role)}
            assert sorted(listed | hidden) == names, (game, role, seat)
            assert not listed & hidden, "a name is both offered and hidden"


def test_hidden_names_still_build_and_say_why() -> None:
    for (game, role, name), why in catalogue.HIDDEN.items():
        seat = SEATS[role][0]
        assert make_agent(game, name, seat, PLAYERS[game]).name == name
        assert len(why) > 20


def test_the_catalogue_is_ordered_by_measured_strength_within_each_role() -> None:
    for game in catalogue.ROLES:
        for role in ("player", "hero"):
            if role not in catalogue.roles(game):
                continue
            rates = [e.strength.rate for e in catalogue.entries(game, role)]
            assert rates == sorted(rates), (game, role, rates)


@pytest.mark.parametrize("entry", _all(), ids=lambda e: f"{e.game}-{e.spec}")
def test_every_spec_builds_the_player_it_names(entry: catalogue.Entry) -> None:
    for seat in SEATS[entry.role]:
        agent = make_agent(entry.game, entry.spec, seat, PLAYERS[entry.game], seed=3)
        assert agent.name == entry.name
    if entry.spec.startswith("forgetful:level="):
        assert isinstance(agent, ForgetfulAgent)
        assert agent.level == entry.spec.rpartition("=")[2]
    if entry.spec.startswith("ismcts"):
        assert isinstance(agent, ISMCTSAgent) and agent.iterations == 300
    if entry.spec.startswith("teller:style="):
        assert isinstance(agent, StyledTeller)
        assert agent.style == entry.spec.rpartition("=")[2]


@pytest.mark.parametrize("entry", _all(), ids=lambda e: f"{e.game}-{e.spec}")
def test_every_entry_speaks_player_words_and_has_a_measured_figure(
        entry: catalogue.Entry) -> None:
    assert entry.level[0].isupper() and entry.description[0].islower()
    assert ":" not in entry.description and "=" not in entry.description
    s = entry.strength
    if s.reference:
        assert entry.spec == catalogue.strength_data()["references"][entry.game]
        assert s.rate == s.low == s.high == 1 / PLAYERS[entry.game] and s.games == 0
        return
    assert s.games >= 100, "a figure from too few games"
    assert 0.0 <= s.low <= s.rate <= s.high <= 1.0
    assert s.high - s.low < 0.2
    text = s.describe()
    assert text.startswith(s.lead) and f"{round(100 * s.rate)}% " in text
    assert f"{s.games} games" in text


def test_strength_words() -> None:
    s = catalogue.Strength(rate=0.62, low=0.59, high=0.65, games=400, lead="wins",
                           against="of 4-player games against three Normal players")
    assert s.describe() == "wins 62% of 4-player games against three Normal players (±3, 400 games)"
    never = catalogue.Strength(rate=0.0, low=0.0, high=0.0092, games=400, lead="wins",
                               against="of mazes under the Fair Teller")
    assert never.describe() == "wins 0% of mazes under the Fair Teller (at most 1%, 400 games)"
    ref = catalogue.Strength(0.25, 0.25, 0.25, 0, "wins", "x", reference=True)
    assert ref.describe() == "the yardstick: the others are measured in games against it"


def test_one_default_per_role_and_bot_means_it() -> None:
    for game in catalogue.ROLES:
        for role in catalogue.roles(game):
            defaults = [e.spec for e in catalogue.entries(game, role) if e.default]
            assert len(defaults) == 1, (game, role)
    assert type(make_agent("adventure", "bot", 2, 4)) is MemoryAgent
    assert type(make_agent("adventure", "BOT", 0, 2)) is MemoryAgent
    assert isinstance(make_agent("perils", "bot", 0), PlannerHero)
    teller = make_agent("perils", "bot", 1)
    assert isinstance(teller, StyledTeller) and teller.style == "fair"
    assert catalogue.resolve_spec("perils", " bot ", 1) == "teller:style=fair"
    assert catalogue.resolve_spec("perils", "rulebased", 0) == "rulebased"
    assert isinstance(make_agent("perils", "rulebased", 0), RuleBasedHero)
    # `bot` is the alias alone: with settings it is no player at all.
    with pytest.raises(PocketGalaxyError, match="unknown computer player 'bot'"):
        make_agent("adventure", "bot:level=easy", 0, 2)


def test_bot_agrees_with_the_web_default_for_an_unnamed_computer_seat() -> None:
    fake = SimpleNamespace(agent_names=agent_names)
    for game in catalogue.ROLES:
        for role in catalogue.roles(game):
            seat = SEATS[role][0]
            web = Hub.default_bot(fake, game, seat, PLAYERS[game])  # type: ignore[arg-type]
            spec = catalogue.resolve_spec(game, "bot", seat)
            assert make_agent(game, web, seat).name == make_agent(game, spec, seat).name
            if game == "perils" and role == "teller":
                assert make_agent(game, web, seat).style == "fair"  # type: ignore[attr-defined]


def test_an_unknown_name_is_refused_with_the_catalogue_counting_seats_from_1() -> None:
    with pytest.raises(PocketGalaxyError) as info:
        make_agent("perils", "wizard", 0)
    err = info.value
    assert err.code == "agent/unknown"
    assert "perils seat 1 (the Hero)" in err.message
    assert list(err.allowed) == ["bot", "random", "rulebased", "planner"]
    message = catalogue.unknown_message("adventure", "player", "zork")
    lines = message.splitlines()
    assert lines[0] == "unknown computer player 'zork'. Choose one of:"
    assert lines[1] == "  bot: the default, memory"
    for e in catalogue.entries("adventure"):
        assert f"  {e.spec}: {e.level}:" in message
    assert all(len("error: " + line) <= 80 for line in lines)


def test_options_a_teller_style_needs() -> None:
    assert catalogue.options_for("perils", "teller:style=harsh") == {"teller_policy": "human"}
    assert catalogue.options_for("perils", "teller:style=fair") == {}
    assert catalogue.options_for("perils", "teller:style=adaptive,low=0.3") == {
        "teller_policy": "human"}
    assert catalogue.options_for("adventure", "memory") == {}


def test_help_lines_name_every_entry() -> None:
    line = catalogue.help_line("adventure", "player")
    assert line.startswith("bot (= memory), random (Beginner)")
    for e in catalogue.entries("adventure"):
        assert f"{e.spec} ({e.level})" in line


def test_unknown_game_or_role() -> None:
    with pytest.raises(PocketGalaxyError) as info:
        catalogue.entries("chess")
    assert info.value.code == "game/unknown" and list(info.value.allowed) == ["adventure", "perils"]
    with pytest.raises(PocketGalaxyError) as info:
        catalogue.entries("perils", "player")
    assert list(info.value.allowed) == ["hero", "teller"]


def test_catalogue_json_per_role() -> None:
    data = catalogue.catalogue_json("perils")
    assert [(r["role"], r["seat"], r["default"]) for r in data["roles"]] == [
        ("hero", 0, "planner"), ("teller", 1, "teller:style=fair")]
    teller = data["roles"][1]["players"]
    assert [p["level"] for p in teller] == ["Fair", "Generous", "Harsh", "Adaptive"]
    assert teller[2]["options"] == {"teller_policy": "human"}
    assert teller[2]["strength"]["text"].startswith("the Steady computer Hero wins ")
    assert data["measured"]["seed"] == catalogue.strength_data()["seed"]


# -- the measured figures are reproducible in small ----------------------------------------------
def _samples(heavy: bool) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    out = []
    for game, rows in catalogue.strength_data()["players"].items():
        for spec, row in rows.items():
            is_heavy = spec.startswith("ismcts")
            if is_heavy != heavy:
                continue
            for game_row in row["sample"][: 1 if heavy else 2]:
                out.append((game, spec, row, game_row))
    return out


def _replay(game: str, row: dict[str, Any], sample: dict[str, Any]) -> None:
    result = play_one(game, sample["specs"], sample["seed"], row["options"], row["players"],
                      index=sample["index"])
    assert list(result.winners) == sample["winners"]


@pytest.mark.parametrize("game,spec,row,sample", _samples(False),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_stored_sample_games_replay_to_the_same_winners(
        game: str, spec: str, row: dict[str, Any], sample: dict[str, Any]) -> None:
    assert spec in sample["specs"]
    _replay(game, row, sample)


@pytest.mark.parametrize("game,spec,row,sample", _samples(True),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_one_stored_search_game_replays(
        game: str, spec: str, row: dict[str, Any], sample: dict[str, Any]) -> None:
    _replay(game, row, sample)


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_measure_opponents", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["_measure_opponents"] = module
    spec.loader.exec_module(module)
    return module


def test_the_script_in_small_writes_the_same_format_and_the_same_first_games(
        tmp_path: Path) -> None:
    bench = _bench()
    stored = catalogue.strength_data()
    only = ["forgetful:level=easy", "teller:style=harsh", "rulebased"]
    out = tmp_path / "strength.json"
    assert bench.main(["-n", str(bench.SAMPLE), "--search-n", "1", "--seed",
                       str(stored["seed"]), "--only", *only, "--out", str(out)]) == 0
    import json

    fresh = json.loads(out.read_text("utf-8"))
    assert set(fresh) == set(stored)
    assert fresh["format"] == stored["format"] and fresh["seed"] == stored["seed"]
    measured = [(g, s) for g, rows in fresh["players"].items() for s in rows]
    assert sorted(measured) == sorted([("adventure", only[0]), ("perils", only[1]),
                                       ("perils", only[2])])
    for game, spec in measured:
        new, old = fresh["players"][game][spec], stored["players"][game][spec]
        assert set(new) == set(old)
        assert new["games"] == bench.SAMPLE
        # The first games of the full run are these games: same seeds, seats and winners.
        assert new["sample"] == old["sample"]
        assert new["lineup"] == old["lineup"] and new["options"] == old["options"]

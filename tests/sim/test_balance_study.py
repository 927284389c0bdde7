"""Balance studies: what a study accepts and what it refuses, before any game is played."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pocketgalaxy.sim.balance.study import (
    MAX_GAMES,
    MAX_VARIANTS,
    StudyError,
    load_study_file,
    parse_variant_flag,
    study_from_flags,
)

PERILS = ["rulebased", "teller"]


def test_variant_flags_name_options_and_defaults() -> None:
    assert parse_variant_flag("base:") == ("base", [])
    assert parse_variant_flag("wide:pathways_per_round=3,start_health=4") == (
        "wide", ["pathways_per_round=3", "start_health=4"])
    study = study_from_flags("perils", ["base:", "wide:pathways_per_round=3"], players=PERILS,
                             games=10, seed=5)
    assert [v.name for v in study.variants] == ["base", "wide"]
    assert study.baseline.name == "base"
    assert study.variants[1].overrides == {"pathways_per_round": 3}
    assert study.variants[1].options["pathways_per_round"] == 3
    # A simulation's Teller approves plans, as in `simulate` (PP-A7), unless told otherwise.
    assert study.variants[0].options["teller_policy"] == "approve_all"


def test_no_variant_means_the_defaults_alone() -> None:
    study = study_from_flags("adventure", [], players=["random", "random"], games=3, seed=1)
    assert [v.name for v in study.variants] == ["defaults"]
    assert study.rotate is True


@pytest.mark.parametrize(
    ("flags", "games", "players", "message"),
    [
        (["base"], 10, PERILS, "expected NAME:key=value"),
        (["base:nope=1"], 10, PERILS, "unknown option nope"),
        (["base:pathways_per_round=9"], 10, PERILS, "variant 'base'"),
        (["a:", "a:"], 10, PERILS, "two variants are named 'a'"),
        (["bad name:"], 10, PERILS, "bad variant name"),
        (["base:"], 0, PERILS, f"1..{MAX_GAMES:,}"),
        (["base:"], MAX_GAMES + 1, PERILS, f"1..{MAX_GAMES:,}"),
        ([f"v{i}:" for i in range(MAX_VARIANTS + 1)], 10, PERILS, f"at most {MAX_VARIANTS}"),
        (["base:"], 10, ["rulebased"], "perils needs 2..2 players"),
        (["base:"], 10, ["nobody", "teller"], "player 'nobody' (seat 1)"),
    ],
)
def test_bad_studies_are_refused_with_what_is_allowed(
    flags: list[str], games: int, players: list[str], message: str
) -> None:
    with pytest.raises(StudyError, match=re.escape(message)) as info:
        study_from_flags("perils", flags, players=players, games=games, seed=1)
    assert info.value.code == "balance/bad_study"


def test_precision_detect_and_band_are_bounded() -> None:
    for kwargs, message in [({"precision": 0.0}, "precision must be"),
                            ({"detect": 2.0}, "detect must be"),
                            ({"length_band": [9, 3]}, "length_band")]:
        with pytest.raises(StudyError, match=message):
            study_from_flags("perils", [], players=PERILS, games=5, seed=1,
                             **kwargs)  # type: ignore[arg-type]


STUDY = """
game = "perils"
games = 30
seed = 9
length_band = [20, 30]
hero = "rulebased"
[options]
teller_policy = "approve_all"
[[variant]]
name = "defaults"
[[variant]]
name = "tough"
options = { start_health = 2 }
"""


def test_study_file_reads_and_flags_override(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text(STUDY, encoding="utf-8")
    study = load_study_file(path)
    assert (study.game, study.games, study.seed) == ("perils", 30, 9)
    assert study.length_band == (20, 30)
    assert study.variants[1].options["start_health"] == 2
    again = load_study_file(path, game="perils", games=7, seed=2)
    assert (again.games, again.seed) == (7, 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("game = 'perils'\nspeed = 3\n", "unknown key"),
        ("game = 'perils'\n[[variant]]\noptions = {}\n", "needs a name"),
        ("game = [\n", "not valid TOML"),
        ("game = 'chess'\n", "game must be one of"),
    ],
)
def test_broken_study_files_say_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "study.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StudyError, match=message):
        load_study_file(path)


def test_study_file_of_the_other_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text(STUDY, encoding="utf-8")
    with pytest.raises(StudyError, match="a study of 'perils', not 'adventure'"):
        load_study_file(path, game="adventure")


def test_missing_and_oversized_study_files(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match="cannot read study file"):
        load_study_file(tmp_path / "absent.toml")
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 300_000, encoding="utf-8")
    with pytest.raises(StudyError, match="at most"):
        load_study_file(big)


def test_a_variant_may_change_who_plays() -> None:
    study = study_from_flags("perils", ["base:", "harsh:teller=teller:style=harsh",
                                        "planner:hero=planner"],
                             players=PERILS, games=5, seed=1)
    seats = {v.name: v.players for v in study.variants}
    assert seats == {"base": ("rulebased", "teller"), "harsh": ("rulebased", "teller:style=harsh"),
                     "planner": ("planner", "teller")}
    # A Teller style judges plans from its seat (as in `tournament`); the others approve all.
    policies = {v.name: v.options["teller_policy"] for v in study.variants}
    assert policies == {"base": "approve_all", "harsh": "human", "planner": "approve_all"}
    adv = study_from_flags("adventure", ["base:", "two:players=memory+random"],
                           players=["random", "random", "random"], games=5, seed=1)
    assert adv.variants[1].players == ("memory", "random")
    with pytest.raises(StudyError, match="not players="):
        study_from_flags("perils", ["x:players=a+b"], players=PERILS, games=5, seed=1)
    with pytest.raises(StudyError, match="player 'nobody'"):
        study_from_flags("perils", ["x:hero=nobody"], players=PERILS, games=5, seed=1)


def test_bot_in_a_study_is_the_documented_default() -> None:
    study = study_from_flags("perils", ["base:", "mild:teller=bot"], players=["bot", "teller"],
                             games=3, seed=1)
    assert study.players == ("planner", "teller")
    assert study.variants[1].players == ("planner", "teller:style=fair")

"""`pocketgalaxy tutorial perils|adventure` from scripted input: both lessons to the end typed as
a person reading the coach would type them, a different move explained, leaving with `quit`,
and `new` starting a real game."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from pocketgalaxy.cli import tutorial_cmd
from pocketgalaxy.cli.app import app


def _typed_move(host: tutorial_cmd.TutorialHost, prompt: str) -> str:
    """What a learner types after reading the coach's suggestion (not the `do` shortcut)."""
    p = prompt.lower()
    advice = host.advice
    if "press enter" in p and "roll" not in p:
        return ""
    if advice is None or advice.expected is None:
        return ""
    move = advice.expected.to_json()
    view = host.session.view(host.lesson.hero)
    kind = move["type"]
    if "which pathway" in p:
        return str(move["position"] + 1)
    if "channel a skill" in p:
        return move.get("channel") or ""
    if "use items" in p:
        codes = [i.code for i in view.items]
        return " ".join(str(codes.index(c) + 1) for c in move.get("items", []))
    if "how do you do it" in p:
        return "I fly through it with my best skill and every tool I carry"
    if "roll" in p:
        return ""
    if kind == "RequestCard":
        return f"ask Bo {move['card']}"
    if kind == "DeclareCard":
        return f"declare {move['slot'] + 1} {move['card']}"
    if kind == "Peek":
        return f"peek {move['slot'] + 1}"
    if kind == "SkipPeek":
        return "skip"
    if kind == "PassTurn":
        return "pass"
    return "do"


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_the_lesson_plays_to_the_end_from_scripted_input(
    script_game: Callable[..., tuple[list[str], Any]], game: str
) -> None:
    typed, first = script_game(["tutorial", game], _typed_move,
                               host=(tutorial_cmd, "TutorialHost"))
    assert first.exit_code == 0, first.output
    assert "do" not in typed  # every move typed as the coach explained it
    # The same lines as plain input give the same lesson, to its end.
    result = CliRunner().invoke(app, ["tutorial", game], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "Coach: The lesson is over: this game showed 7 of 7 lessons." in result.output
    assert "Well done: that is the move this step teaches." in result.output
    assert f"Play a real game: pocketgalaxy play {game}" in result.output
    assert re.findall(r"Coach: [^\n]*", result.output) == re.findall(r"Coach: [^\n]*",
                                                                      first.output)


def test_do_makes_the_coach_move_and_hint_repeats_it() -> None:
    result = CliRunner().invoke(app, ["tutorial", "perils"], input="hint\ndo\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    line = "Coach: Round 1: three pathways lie face down"
    assert out.count(line) == 2  # said, then repeated by `hint`
    assert "Revealed: the 5 of Spades (5S), a peril of difficulty 5." in out
    assert "You left the lesson." in out


def test_help_lists_the_lesson_commands() -> None:
    result = CliRunner().invoke(app, ["tutorial", "adventure"], input="?\nquit\n")
    out = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    assert "declare SLOT CARD" in out  # the game's own help
    assert out.count("Lesson commands: hint the coach's suggestion again") == 2


def test_a_different_move_is_accepted_and_explained() -> None:
    result = CliRunner().invoke(app, ["tutorial", "perils"], input="3\nquit\n")
    out = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    assert "That is not the move of this step (take pathway 2), but it is allowed: take " \
           "pathway 3." in out
    assert "Take pathway 2. Type: 2" in out
    assert "Not shown yet: an automatic pass; a plan with a channelled skill and an item;" in out
    assert "Off the lesson's script, a coach would say:" in out


def test_an_illegal_move_is_refused_and_the_lesson_goes_on() -> None:
    result = CliRunner().invoke(app, ["tutorial", "adventure"], input="ask Bo S5\nquit\n")
    out = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    # The refusal in the player's words (games/adventure/explain.py), then the coach again.
    assert "You already hold Lantern Barge (space ship 5): ask for a card you don't have." in out
    assert "That move is not allowed here" in out
    assert "That move is not allowed here; Mission 2 needs" in out
    assert "You left the lesson." in out


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_quit_leaves_the_lesson_without_saving(game: str, save_dir: Any) -> None:
    result = CliRunner().invoke(app, ["tutorial", game], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "You left the lesson." in result.output
    assert f"pocketgalaxy tutorial {game}" in result.output
    assert not save_dir.exists() or not any(save_dir.iterdir())


@pytest.mark.parametrize(("game", "banner"), [("perils", "Perils & Pathways (seed"),
                                              ("adventure", "Adventure Cards (seed")])
def test_new_leaves_and_starts_a_real_game(game: str, banner: str) -> None:
    result = CliRunner().invoke(app, ["tutorial", game], input="new\nquit\nn\n")
    out = result.output
    assert "You left the lesson; a real game starts now." in out
    assert banner in out
    assert "Coach:" not in out.split("a real game starts now.")[1]


def test_an_unknown_game_has_no_lesson() -> None:
    result = CliRunner().invoke(app, ["tutorial", "chess"])
    assert result.exit_code == 2
    assert "there is no lesson for 'chess': choose perils or adventure" in result.output

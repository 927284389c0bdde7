"""Words for people in the terminal: lines wrap at word boundaries at 80 columns, numbers count
from 1, a bad answer re-asks the same question, refusals are sentences, bot-only games leave no
save behind."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.cli import play
from pocketgalaxy.cli.app import app
from pocketgalaxy.cli.host import GameHost
from pocketgalaxy.cli.perils_screen import PerilsScreen
from pocketgalaxy.cli.saves import SeatInfo
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session

_BOX = re.compile("[\u2500-\u257f]")  # panel borders are not words
Responder = Callable[[GameHost, str], str]


def _echoing_run(
    monkeypatch: pytest.MonkeyPatch, args: list[str], respond: Responder, columns: int
) -> tuple[str, list[str]]:
    """Play `args` with a scripted person at a terminal `columns` wide. The typed answer is
    echoed on its own line (as a terminal shows it), so the output reads like the screen."""
    hosts: list[GameHost] = []
    prompts: list[str] = []

    class RecordingHost(GameHost):
        def __init__(self, *a: Any, **k: Any) -> None:
            super().__init__(*a, **k)
            hosts.append(self)

    def input_fn(out: Console) -> Callable[[str], str]:
        def read(prompt: str) -> str:
            out.print(prompt)  # Console.input prints its prompt the same way (wrapped)
            prompts.append(prompt)
            return respond(hosts[-1], prompt)

        return read

    with monkeypatch.context() as m:
        m.setattr(play, "GameHost", RecordingHost)
        m.setattr(play, "_input_fn", input_fn)
        m.setenv("COLUMNS", str(columns))
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output, prompts


def _lines(text: str) -> list[str]:
    return [_BOX.sub(" ", line).rstrip() for line in text.splitlines()]


def _assert_wrapped_at_words(narrow: str, wide: str) -> None:
    """No line is over 80 columns, and every word of the narrow screen is a whole word of the
    same screen drawn wide (a word cut at the edge would leave two pieces found nowhere)."""
    words = set(" ".join(_lines(wide)).split())
    long = [line for line in _lines(narrow) if len(line) > 80]
    assert long == []
    cut = sorted({w for line in _lines(narrow) for w in line.split() if w not in words})
    assert cut == []


def _bad_then(respond: Responder) -> Responder:
    """A person who first gives a long wrong answer to each kind of question once."""
    tried: set[str] = set()

    def answer(host: GameHost, prompt: str) -> str:
        key = prompt.split("?")[0].split(",")[0]
        low = prompt.lower()
        if key not in tried and "press enter" not in low and "record" not in low:
            tried.add(key)
            return "absolutely-not-an-answer-at-all"
        return respond(host, prompt)

    return answer


@pytest.mark.parametrize(
    "args",
    [
        ["play", "perils", "--seed", "4"],
        ["play", "perils", "--seed", "4", "--hero", "rulebased", "--teller", "human"],
        ["play", "adventure", "--players", "4", "--seat", "1", "--seed", "21",
         "--bots", "memory,forgetful,random"],
    ],
)
def test_screens_wrap_at_word_boundaries_at_80_columns(
    monkeypatch: pytest.MonkeyPatch, args: list[str], perils_person: Responder,
    adventure_person: Responder,
) -> None:
    person = perils_person if args[1] == "perils" else adventure_person
    narrow, asked = _echoing_run(monkeypatch, args, _bad_then(person), 80)
    wide, asked_wide = _echoing_run(monkeypatch, args, _bad_then(person), 300)
    assert asked == asked_wide and len(asked) > 5  # the same game, question for question
    # The answers to the bad lines are on screen too (a Teller's yes/no questions say so).
    assert "✗" in narrow or "Please answer y or n" in narrow
    _assert_wrapped_at_words(narrow, wide)


def _plan_host() -> tuple[GameHost, list[str], list[str]]:
    """A Hero holding an item facing a Strength peril (pinned), answers scripted."""
    rules = get_game("perils")
    session = Session(
        rules, {"archetype": "pilot"}, seed=3, players=2,
        pinned={"draw": ["KD", "7S", "9D", "8C"], "rolls": [6, 6, 6]},
        agents={1: make_agent("perils", "teller", 1, 2, seed=5)},
    )
    session.run_bots()
    session.act(0, {"type": "ChoosePathway", "position": 0})  # KD: an item
    session.run_bots()
    session.act(0, {"type": "ChoosePathway", "position": 0})  # 9D: a Strength peril
    assert session.view(0).phase == "plan" and len(session.view(0).items) == 1
    prompts: list[str] = []
    answers = ["C", "7", "1", "I brace with agile feet and swing the frame"]
    out = Console(width=80, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return answers.pop(0)

    seats = [SeatInfo(0, "Hero"), SeatInfo(1, "Teller", kind="bot", spec="teller", seed=5)]
    host = GameHost(session, seats, PerilsScreen(seed=3), out, input_fn=read, autosave=False)
    return host, prompts, answers


def test_a_bad_item_number_asks_for_the_items_again_not_the_skill() -> None:
    host, prompts, answers = _plan_host()
    action = host.screen.ask_action(host, 0)
    assert answers == []
    assert [p.split("?")[0] for p in prompts] == [
        "Channel a skill for +1", "Use items, +1 each", "Use items, +1 each", "How do you do it",
    ]
    assert action.to_json()["channel"] == "C" and action.to_json()["items"] == ["KD"]
    host.out.file.close()
    shown = host.out.export_text()
    assert "'7' is not one of the numbers 1-1" in shown


def test_a_game_with_no_person_leaves_no_save(save_dir: Any) -> None:
    result = CliRunner().invoke(app, ["play", "perils", "--hero", "rulebased", "--seed", "8"])
    assert result.exit_code == 0, result.output
    assert "The end" in result.output
    assert not save_dir.exists() or list(save_dir.iterdir()) == []


def test_a_game_with_a_person_is_still_autosaved(
    script_game: Any, perils_person: Responder, save_dir: Any
) -> None:
    _, result = script_game(["play", "perils", "--seed", "4"], perils_person)
    assert result.exit_code == 0, result.output
    assert [p.name for p in save_dir.iterdir()] == ["perils-4.json"]


def test_adventure_counts_players_from_one(script_game: Any, adventure_person: Any) -> None:
    args = ["play", "adventure", "--players", "3", "--seat", "1", "--bots", "random",
            "--seed", "5"]
    typed, first = script_game(args, adventure_person)
    assert first.exit_code == 0
    result = CliRunner().invoke(app, args, input="\n".join(["ask 4 P1", "ask Bo P1", *typed])
                                + "\n")
    assert result.exit_code == 0, result.output
    assert "you play Bo (player 2)" in result.output
    assert "you are Bo (player 2)" in result.output
    assert "'4' is not a player: type a number 1-3 or a name (1 Ada, 2 Bo, 3 Cyd)" in (
        " ".join(result.output.split()))
    assert "You cannot ask yourself for a card: ask Ada or Cyd. (AC-R8)" in result.output


def test_the_roll_twice_line_keeps_a_things_own_article() -> None:
    from pocketgalaxy.cli.perils_judgement import advantage_line

    needs = {"threshold": 3, "granted": False, "sources": 0, "thing_words": ["push"],
             "steps_needed": 2, "steps": 1}
    line = advantage_line({**needs, "thing": "a runaway cargo loader"})
    assert line is not None and "deals with a runaway cargo loader (yes: 'push')" in line
    line = advantage_line({**needs, "thing": "cargo loader"})
    assert line is not None and "deals with the cargo loader" in line


def test_the_turn_passing_to_the_reader_says_you() -> None:
    from pocketgalaxy.cli.adventure_screen import NAMES, event_text
    from pocketgalaxy.games.adventure.events import TurnPassed

    event = TurnPassed(0, 1, "request_refused")
    assert event_text(event, NAMES, 1) == "The turn passes to you."
    assert event_text(event, NAMES, 2) == "The turn passes to Bo."


def test_the_end_of_a_perils_game_says_why_in_words() -> None:
    from pocketgalaxy.cli.perils_screen import OUTCOME_WORDS, render_text

    agents = {0: make_agent("perils", "rulebased", 0, 2, seed=1),
              1: make_agent("perils", "teller", 1, 2, seed=2)}
    session = Session(get_game("perils"), {}, seed=4, players=2, agents=agents)
    session.run_bots()
    view = session.view(0)
    assert view.outcome is not None
    text = render_text(view, [], width=80)
    assert f"({OUTCOME_WORDS[view.outcome['reason']]})" in text
    assert "_" not in text.split("The end", 1)[1]


@pytest.mark.parametrize(
    ("answer", "message"),
    [("", "type the archetype's number, 1-2, or its name"),
     ("9", "'9' is not an archetype: type 1-2 or its name")],
)
def test_a_bad_archetype_answer_says_what_is_allowed(answer: str, message: str) -> None:
    from pocketgalaxy.cli.perils_screen import _BadInput, _pick

    with pytest.raises(_BadInput) as info:
        _pick(answer, ["pilot", "envoy"], "archetype")
    assert str(info.value) == message
    assert _pick("Envoy", ["pilot", "envoy"], "archetype") == "envoy"

"""The Perils & Pathways terminal: screens from views, and whole games through the CLI."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.cli.app import app
from pocketgalaxy.cli.host import GameHost
from pocketgalaxy.cli.perils_screen import PerilsScreen, render_text
from pocketgalaxy.cli.saves import SeatInfo
from pocketgalaxy.core.cards import card
from pocketgalaxy.core.record import GameRecord
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session

SEED = 11


def _session_at_choice(seed: int = SEED, **options: Any) -> Session:
    """A game with the Hero at the first pathway choice (the computer Teller has described)."""
    rules = get_game("perils")
    session = Session(
        rules,
        {"archetype": None, **options},
        seed=seed,
        agents={1: make_agent("perils", "teller", 1, 2, seed=5)},
    )
    archetype = session.legal_actions(0)[0]
    session.act(0, archetype)
    session.run_bots()
    assert session.view(0).phase == "choose"
    return session


def test_hero_screen_shows_skills_health_pathways_and_no_hidden_face() -> None:
    session = _session_at_choice()
    hero = session.view(0)
    text = render_text(hero, session.events_for(0))
    for skill in hero.skills:
        if skill.suit != "H":
            assert skill.name in text
    assert f"{hero.health}/{hero.max_health}" in text
    assert "pathway 1 (left)" in text and "pathway 2 (right)" in text
    for p in hero.pathways:
        assert p.description and p.description.split()[0] in text
    # The faces are known to the Teller only: not one shows on the Hero's screen.
    faces = [p.face for p in session.view(1).pathways]
    assert all(faces)
    for face in faces:
        assert card(face).label not in text
    assert "▒▒▒" in text


def test_teller_screen_shows_the_faces_it_may_see() -> None:
    session = _session_at_choice()
    teller = session.view(1)
    text = render_text(teller, [])
    for p in teller.pathways:
        assert card(p.face).label in text
    assert "you are the Teller" in text


def test_whole_game_as_hero_through_the_command_line(
    script_game: Any, perils_person: Any, tmp_path: Any
) -> None:
    args = ["play", "perils", "--seed", str(SEED)]
    typed, first = script_game(args, perils_person)
    assert first.exit_code == 0, first.output
    record_file = tmp_path / "game.json"
    result = CliRunner().invoke(
        app, [*args, "--record", str(record_file)], input="\n".join(typed) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "The end" in result.output
    assert "Choose your archetype" in result.output
    assert "Round 1:" in result.output
    record = GameRecord.loads(record_file.read_text())
    assert record.seed == SEED
    # The record replays to the finished game that the command line showed.
    replayed = CliRunner().invoke(app, ["replay", str(record_file), "--json"])
    assert replayed.exit_code == 0, replayed.output
    data = json.loads(replayed.stdout)
    live = Session.from_record(get_game("perils"), record)
    assert data["final_state"] == live.state.to_json()
    assert data["outcome"] == live.outcome.to_json()
    won = 0 in data["outcome"]["winners"]
    assert ("The Hero wins!" if won else "The Hero is lost.") in result.output


def test_bad_input_is_answered_in_one_line_and_asked_again(
    script_game: Any, perils_person: Any
) -> None:
    args = ["play", "perils", "--seed", str(SEED), "--archetype", "pilot"]
    typed, _ = script_game(args, perils_person)
    # Insert nonsense before the first pathway choice: it is refused, then the game goes on.
    lines = ["banana", "7", *typed]
    result = CliRunner().invoke(app, args, input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "'banana' is not a pathway: type 1-2" in result.output
    assert "there is no pathway 7: type 1-2" in result.output
    assert result.output.count("Which pathway?") >= 3


def test_question_mark_shows_help(script_game: Any, perils_person: Any) -> None:
    args = ["play", "perils", "--seed", str(SEED), "--archetype", "pilot"]
    typed, _ = script_game(args, perils_person)
    result = CliRunner().invoke(app, args, input="\n".join(["?", *typed]) + "\n")
    assert result.exit_code == 0
    assert "how to answer" in result.output


def test_seed_is_chosen_and_printed_when_not_given() -> None:
    result = CliRunner().invoke(app, ["play", "perils", "--hero", "rulebased"], input="\n")
    assert result.exit_code == 0, result.output
    assert "use --seed" in result.output


def test_human_teller_with_computer_hero(script_game: Any, perils_person: Any) -> None:
    args = ["play", "perils", "--seed", "4", "--hero", "rulebased", "--teller", "human"]
    typed, first = script_game(args, perils_person)
    assert first.exit_code == 0, first.output
    result = CliRunner().invoke(app, args, input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "Enter keeps the suggestion" in result.output
    assert "Does the plan really use" in result.output  # teller_policy=human: the person judges


def test_two_people_share_the_screen_with_a_hand_over(script_game: Any, perils_person: Any) -> None:
    args = [
        "play",
        "perils",
        "--seed",
        "4",
        "--hero",
        "human",
        "--teller",
        "human",
        "--archetype",
        "pilot",
    ]
    typed, first = script_game(args, perils_person)
    assert first.exit_code == 0, first.output
    assert "Pass the screen to Teller" in first.output
    assert "Pass the screen to Hero" in first.output


def test_bad_option_is_one_clear_line_and_exit_2() -> None:
    result = CliRunner().invoke(app, ["play", "perils", "--option", "pathways_per_round=5"])
    assert result.exit_code == 2
    assert "pathways_per_round=5 is not allowed" in result.stderr
    result = CliRunner().invoke(app, ["play", "perils", "--option", "no_such=1"])
    assert result.exit_code == 2 and "unknown option no_such" in result.stderr
    result = CliRunner().invoke(app, ["play", "perils", "--hero", "wizard"])
    assert result.exit_code == 2 and "unknown computer player 'wizard'" in result.stderr


def test_ctrl_c_offers_to_save(save_dir: Any) -> None:
    session = _session_at_choice()
    answers = iter(["y"])

    def read(prompt: str) -> str:
        if "Which pathway" in prompt:
            raise KeyboardInterrupt
        return next(answers)

    from rich.console import Console

    out = Console(file=open("/dev/null", "w"), width=100)  # noqa: SIM115
    host = GameHost(
        session,
        [SeatInfo(0, "Hero"), SeatInfo(1, "Teller", "bot", "teller", 5)],
        PerilsScreen(seed=SEED),
        out,
        input_fn=read,
        save_name="ctrlc",
    )
    try:
        assert host.play() == 130
    finally:
        out.file.close()
    saved = json.loads((save_dir / "ctrlc.json").read_text())
    assert saved["record"]["actions"] == session.record.to_json()["actions"]


def test_no_hero_screen_in_a_whole_game_shows_a_face_down_card() -> None:
    rules = get_game("perils")
    session = Session(
        rules,
        {"teller_policy": "approve_all"},
        seed=23,
        agents={
            0: make_agent("perils", "rulebased", 0, 2, seed=1),
            1: make_agent("perils", "teller", 1, 2, seed=2),
        },
    )
    checked = 0
    while not session.is_over:
        teller = session.view(1)
        if session.to_act == 0 and teller.pathways:
            text = render_text(session.view(0), [])
            for p in teller.pathways:
                assert card(p.face).label not in text
            checked += 1
        session.step_bot()
    assert checked >= 20


def test_a_revealed_card_is_told_as_a_story_with_its_thing_named() -> None:
    from pocketgalaxy.games.perils import events as ev
    from pocketgalaxy.games.perils.actions import ChoosePathway

    session = _session_at_choice(14)  # pathway 1 is a peril that needs a plan
    before = len(session.events_for(0))
    session.act(0, ChoosePathway(0))
    events = session.events_for(0)[before:]
    revealed = next(e for e in events if isinstance(e, ev.CardRevealed))
    text = render_text(session.view(0), events)
    # The story's first words (the screen may wrap the rest), and the thing named on the "Now"
    # panel while the Hero plans against it.
    flat = " ".join(text.split())
    assert " ".join(revealed.story.split()[:4]) in flat
    view = session.view(0)
    assert view.phase == "plan" and view.current_thing == revealed.thing
    theme = get_game("perils").theme(session.state.options)
    assert f"Now: {theme.things[revealed.thing].name}" in flat

"""The Adventure Cards terminal: screens from views, typed moves, whole games through the CLI."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from pocketgalaxy.cli.adventure_screen import (
    NAMES,
    AdventureScreen,
    _BadMove,
    card_name,
    parse_move,
    render_text,
)
from pocketgalaxy.cli.app import app
from pocketgalaxy.games.adventure.actions import DeclareCard, Peek, RequestCard, SkipPeek
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session


def _fresh(players: int = 4, seed: int = 9) -> Session:
    return Session(get_game("adventure"), {"first_player": "seat0"}, seed=seed, players=players)


def _table_text(view: Any, assist: bool) -> str:
    out = Console(width=110, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
    try:
        out.print(AdventureScreen(assist=assist)._table(view))
    finally:
        out.file.close()
    return out.export_text()


def test_screen_shows_own_hand_and_never_another_hand() -> None:
    session = _fresh()
    view = session.view(0)
    text = render_text(view, [], NAMES)
    for c in view.hand:
        assert card_name(c) in text
    others = session.view(1).hand + session.view(2).hand + session.view(3).hand
    assert others
    for c in others:
        assert card_name(c) not in text
    for seat in range(4):
        assert NAMES[seat] in text
    assert "Missions" in text and "Table" in text


def test_peeked_face_is_shown_for_a_moment_and_then_gone_unless_assist() -> None:
    session = _fresh()
    view = session.view(0)
    target = 1
    wanted = next(c for c in view.legal.request_cards if c not in session.view(1).hand)
    session.act(0, RequestCard(target=target, card=wanted))
    slot = session.view(0).legal.peek_slots[0]
    session.act(0, Peek(slot=slot))
    after = session.view(0)
    face = after.known[slot]
    assert face is not None
    plain = _table_text(after, assist=False)
    helped = _table_text(after, assist=True)
    assert face not in plain and "▒▒▒▒" in plain
    assert face in helped

    # In play: the peek is shown, the person presses Enter, and the screen is cleared.
    from pocketgalaxy.cli.host import GameHost
    from pocketgalaxy.cli.saves import SeatInfo

    prompts: list[str] = []
    out = Console(width=110, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
    seats = [SeatInfo(s, NAMES[s]) for s in range(4)]
    host = GameHost(
        session, seats, AdventureScreen(), out, input_fn=lambda p: prompts.append(p) or ""
    )
    events = session.events_for(0, len(session.log) - 2)
    host.screen.after_action(host, 0, events)
    out.file.close()
    shown = out.export_text()
    assert "Only you can see this" in shown and face in shown
    assert prompts == ["Remember it, then press Enter to hide it. "]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ask 3 p4", RequestCard(target=2, card="P4")),
        ("a Cyd M1", RequestCard(target=2, card="M1")),
        ("declare 3 A2", DeclareCard(slot=2, card="A2")),
        ("peek 8", Peek(slot=7)),
        ("skip", SkipPeek()),
    ],
)
def test_typed_moves(line: str, expected: Any) -> None:
    view = _fresh().view(0)
    assert parse_move(line, view, NAMES) == expected


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "type a move"),
        ("ask 2", "ask needs a player and a card"),
        ("ask 9 P4", "'9' is not a player"),
        ("declare 99 P4", "'99' is not a table slot: use 1-8"),
        ("fly away", "'fly' is not a move"),
    ],
)
def test_bad_moves_say_what_is_wrong(line: str, message: str) -> None:
    view = _fresh().view(0)
    with pytest.raises(_BadMove, match=message):
        parse_move(line, view, NAMES)


def test_human_seat_plays_against_bots_to_the_end(script_game: Any, adventure_person: Any) -> None:
    args = [
        "play",
        "adventure",
        "--players",
        "4",
        "--seat",
        "1",
        "--bots",
        "memory,forgetful,random",
        "--seed",
        "21",
    ]
    typed, first = script_game(args, adventure_person)
    assert first.exit_code == 0, first.output
    lines = ["ask 2 S1", "wave", *typed]  # two bad lines first: refused, asked again
    result = CliRunner().invoke(app, args, input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "The end" in result.output
    assert "'wave' is not a move" in result.output
    # Bo is player 2: asking player 2 is asking yourself, said in words with the rule number.
    assert "You cannot ask yourself for a card: ask Ada, Cyd or Dee. (AC-R8)" in result.output
    assert "RequestCard(" not in result.output and "self_request" not in result.output
    assert "asked" in result.output  # other players' moves in words


def test_hot_seat_hides_hands_between_people(script_game: Any, adventure_person: Any) -> None:
    args = [
        "play",
        "adventure",
        "--players",
        "3",
        "--humans",
        "0,2",
        "--bots",
        "random",
        "--seed",
        "5",
    ]
    typed, result = script_game(args, adventure_person)
    assert result.exit_code == 0, result.output
    assert "Pass the screen to Ada" in result.output
    assert "Pass the screen to Cyd" in result.output


def test_wrong_number_of_bots_is_a_clear_error() -> None:
    result = CliRunner().invoke(
        app, ["play", "adventure", "--players", "4", "--bots", "memory,random"]
    )
    assert result.exit_code == 2
    assert "--bots names 2 computer players but 3 seats" in result.stderr


def test_no_screen_in_a_whole_game_shows_another_hand() -> None:
    from pocketgalaxy.agents.registry import make_agent

    agents = {s: make_agent("adventure", "memory", s, 3, seed=s) for s in range(3)}
    session = Session(get_game("adventure"), {}, seed=17, players=3, agents=agents)
    checked = 0
    while not session.is_over:
        seat = session.to_act
        assert seat is not None
        text = render_text(session.view(seat), [], NAMES)
        for other in range(3):
            if other != seat:
                for c in session.view(other).hand:
                    assert card_name(c) not in text
        checked += 1
        session.step_bot()
    assert checked > 10


def test_manual_claims_are_offered_and_taken(script_game: Any, adventure_person: Any) -> None:
    def person(host: Any, prompt: str) -> str:
        if prompt.startswith("Mission "):
            return "claim " + prompt.split()[1].rstrip(",")
        return str(adventure_person(host, prompt))

    args = [
        "play",
        "adventure",
        "--players",
        "2",
        "--bots",
        "random",
        "--seed",
        "4",
        "--option",
        "auto_claim=false",
    ]
    typed, result = script_game(args, person)
    assert result.exit_code == 0, result.output
    assert any(line.startswith("claim ") for line in typed)
    assert "You completed mission" in result.output

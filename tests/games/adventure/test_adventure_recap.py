"""The shared words for Adventure events and "what happened since your last turn"."""

from __future__ import annotations

from typing import Any

from pocketgalaxy.cli import adventure_screen
from pocketgalaxy.games.adventure import events as E
from pocketgalaxy.games.adventure.content import card_info
from pocketgalaxy.games.adventure.recap import (
    card_name,
    event_actor,
    event_text,
    since_last_turn,
)

NAMES = ("Ada", "Bo", "Cyd")

SETUP: list[Any] = [
    E.CardsDealt(seat=0, cards=("S1", "P2"), audience=(0,)),
    E.TableLaid(slots=8),
    E.MissionsLaid(missions=(("S1", "P1", "A1", "M1"),)),
    E.FirstPlayerChosen(seat=0),
]
ADA_TURN: list[Any] = [
    E.RequestRefused(requester=0, target=1, card="S3"),
    E.PeekSkipped(seat=0),
    E.TurnPassed(from_seat=0, to_seat=1, reason="request_refused"),
]
OTHERS: list[Any] = [
    E.RequestGranted(requester=1, target=2, card="A4"),
    E.RequestRefused(requester=1, target=0, card="M2"),
    E.SlotPeeked(seat=1, slot=0),
    E.PeekSkipped(seat=1),
    E.TurnPassed(from_seat=1, to_seat=2, reason="request_refused"),
    E.CardDeclared(seat=2, slot=5, card="P6", correct=False, revealed_card="S2"),
    E.TurnPassed(from_seat=2, to_seat=0, reason="declaration_missed"),
]
ADA_NOW: list[Any] = [E.RequestGranted(requester=0, target=2, card="P4")]


def test_since_last_turn_is_every_move_of_the_others_up_to_your_turn() -> None:
    log = SETUP + ADA_TURN + OTHERS + ADA_NOW
    assert since_last_turn(log, 0) == OTHERS  # not Ada's own moves, before or now


def test_before_your_first_turn_it_is_everything_so_far() -> None:
    log = SETUP + ADA_TURN + OTHERS[:5]  # Bo's turn ended: Cyd (seat 2) is to act
    assert since_last_turn(log, 2) == log
    assert since_last_turn(log, 1) == []  # Bo's own turn just ended: nothing since
    mid = SETUP + ADA_TURN + OTHERS[:2]  # Bo is mid-turn
    assert since_last_turn(mid, 1) == SETUP + ADA_TURN  # up to where Bo's turn began


def test_the_first_player_mid_turn_sees_the_deal_only() -> None:
    log = SETUP + ADA_TURN[:1]
    assert since_last_turn(log, 0) == SETUP


def test_a_watcher_sees_the_turns_since_the_one_before_last() -> None:
    log = SETUP + ADA_TURN + OTHERS
    assert since_last_turn(log, None) == OTHERS[5:]
    assert since_last_turn(SETUP, None) == SETUP


def test_sentences_count_from_1_name_the_card_and_say_you() -> None:
    snail = card_info("S3").name
    assert card_name("S3") == f"Space Ship 3 ({snail})"
    ship = f"Space Ship 3 ({snail})"
    assert event_text(ADA_TURN[0], NAMES, 0) == f"You asked Bo for {ship}: refused."
    assert event_text(ADA_TURN[0], NAMES, 1) == f"Ada asked you for {ship}: refused."
    declared = event_text(OTHERS[5], NAMES, 0)
    assert declared == (
        f"Cyd declared slot 6 is {card_name('P6')}: wrong, it was {card_name('S2')}"
        ", shown to all and turned face down again."
    )
    assert event_text(OTHERS[2], NAMES, 0) == "Bo peeked at slot 1."
    assert event_text(OTHERS[6], NAMES, 0) == "The turn passes to you."
    assert event_text(OTHERS[6], NAMES, 1) == "The turn passes to Ada."
    claimed = E.MissionClaimed(seat=1, mission=0, cards=("S1", "P1", "A1", "M1"))
    assert event_text(claimed, NAMES, 0) == (
        "Bo completed mission 1 and claimed it (S1 P1 A1 M1)."
    )


def test_a_peek_result_is_worded_only_for_the_peeker_and_only_when_asked() -> None:
    seen = E.PeekSeen(seat=1, slot=2, card="M5", audience=(1,))
    assert event_text(seen, NAMES, 1) is None  # the terminal keeps it out of the log
    assert event_text(seen, NAMES, 1, private=True) == (
        f"You saw {card_name('M5')} in slot 3 (only you saw it)."
    )
    assert event_text(seen, NAMES, 0, private=True) is None


def test_json_events_get_the_same_words_as_the_events() -> None:
    for e in SETUP + ADA_TURN + OTHERS:
        data = e.to_json()
        assert event_text(data, NAMES, 0, private=True) == event_text(e, NAMES, 0, private=True)
        assert event_actor(data) == event_actor(e)
    assert since_last_turn([e.to_json() for e in SETUP + ADA_TURN + OTHERS + ADA_NOW], 0) == [
        e.to_json() for e in OTHERS
    ]


def test_every_event_type_has_words_and_moves_have_an_actor() -> None:
    ended = E.GameEnded(winners=(0, 2), reason="turn_cap", ended_by_cap=True)
    samples = [*SETUP, *ADA_TURN, *OTHERS, E.PeekSeen(seat=0, slot=0, card="S1"),
               E.CardDeclared(seat=0, slot=1, card="A2", correct=True, revealed_card="A2"),
               E.MissionClaimed(seat=0, mission=0, cards=("S1", "P1", "A1", "M1")), ended]
    assert {type(e) for e in samples} == set(E.EVENT_TYPES)
    for e in samples:
        assert event_text(e, NAMES, 0, private=True), type(e).__name__
    assert event_text(ended, NAMES, 0) == (
        "The game is over (the turn cap was reached): Ada and Cyd win."
    )
    assert [event_actor(e) for e in SETUP] == [None] * 4
    assert [event_actor(e) for e in OTHERS] == [1, 1, 1, 1, 1, 2, 2]
    timed = {"type": "TurnTimedOut", "seat": 2}
    assert event_actor(timed) == 2
    assert event_text(timed, NAMES, 0) == (
        "Time ran out for Cyd: a computer player moved for them."
    )


def test_the_terminal_speaks_with_the_same_words() -> None:
    assert adventure_screen.event_text is event_text
    assert adventure_screen.card_name is card_name

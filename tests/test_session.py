"""The session: the one authority. Refusals change nothing, output is filtered per seat,
the deal's events are logged, bots step, and a session rebuilds from its record."""

from __future__ import annotations

import json

import pytest

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError, PocketGalaxyError
from pocketgalaxy.core.record import GameRecord
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session


def _adventure(players: int = 3, seed: int = 2) -> Session:
    return Session(get_game("adventure"), None, seed=seed, players=players)


def test_each_seat_receives_only_its_own_hand_from_the_deal() -> None:
    session = _adventure()
    for seat in range(3):
        dealt = [e for e in session.events_for(seat) if type(e).__name__ == "CardsDealt"]
        assert [e.seat for e in dealt] == [seat]  # type: ignore[attr-defined]
        assert sorted(dealt[0].cards) == sorted(session.view(seat).to_json()["hand"])  # type: ignore[attr-defined]
    assert not [e for e in session.events_for(None) if type(e).__name__ == "CardsDealt"]


def test_perils_preset_archetype_logs_the_setup_and_hides_the_faces_from_the_hero() -> None:
    rules = get_game("perils")
    first = rules.theme(rules.options_type()).archetypes[0].id  # type: ignore[attr-defined]
    session = Session(rules, {"archetype": first}, seed=4)
    teller = [type(e).__name__ for e in session.events_for(1)]
    hero = [type(e).__name__ for e in session.events_for(0)]
    assert "PathwaysDealt" in teller and "PathwaysDealt" not in hero
    assert "ArchetypeChosen" in hero and "PathwaysLaid" in hero


def test_refused_actions_change_nothing_and_are_not_recorded() -> None:
    session = _adventure()
    before = json.dumps(session.state.to_json(), sort_keys=True)
    seat = session.to_act
    assert seat is not None
    other = (seat + 1) % 3
    with pytest.raises(IllegalActionError):
        session.act(other, session.legal_actions(seat)[0])
    with pytest.raises(MalformedActionError):
        session.act(seat, {"type": "RequestCard", "target": "two"})
    assert json.dumps(session.state.to_json(), sort_keys=True) == before
    assert session.record.actions == [] and all(i == -1 for i, _ in session.log)


def test_bots_play_to_the_end_and_the_record_rebuilds_the_same_game() -> None:
    agents = {s: make_agent("adventure", spec, s, 3, seed=s)
              for s, spec in enumerate(["memory", "forgetful", "random"])}
    session = Session(get_game("adventure"), None, seed=9, players=3, agents=agents)
    steps = session.run_bots()
    assert session.is_over and steps == len(session.record.actions) > 0
    with pytest.raises(IllegalActionError, match="game_over"):
        session.act(0, {"type": "PassTurn"})
    with pytest.raises(PocketGalaxyError, match="no computer player"):
        session.step_bot()
    again = Session.from_record(get_game("adventure"), GameRecord.loads(session.record.dumps()))
    assert again.state.to_json() == session.state.to_json()
    assert [e for _, e in again.log] == [e for _, e in session.log]


def test_a_person_can_hand_a_seat_to_a_bot_mid_game() -> None:
    session = _adventure(players=2, seed=5)
    seat = session.to_act
    assert seat is not None
    session.set_agent(seat, make_agent("adventure", "memory", seat, 2, seed=1))
    assert session.bot_to_act()
    session.step_bot()
    assert len(session.record.actions) == 1
    session.set_agent(seat, None)
    assert seat not in session.agents


def test_a_record_whose_step_does_not_apply_is_refused_with_the_step() -> None:
    session = _adventure()
    record = GameRecord.loads(session.record.dumps())
    record.actions.append((0 if session.to_act != 0 else 1, {"type": "PassTurn"}))
    with pytest.raises(PocketGalaxyError, match="record step 0"):
        Session.from_record(get_game("adventure"), record)

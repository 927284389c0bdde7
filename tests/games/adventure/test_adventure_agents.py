"""Computer players: what they deduce, what they choose, and how they rank (slow check)."""

from __future__ import annotations

import pytest
from adventure_testkit import FOUR_PLAYER_DEAL, RULES

from pocketgalaxy.agents.adventure import (
    ForgetfulAgent,
    MemoryAgent,
    agents_for_seat,
)
from pocketgalaxy.agents.adventure.memory import SLOT, Memory
from pocketgalaxy.agents.registry import agent_names, make_agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.games.adventure import (
    AdventureOptions,
    DeclareCard,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.events import (
    CardDeclared,
    RequestGranted,
    RequestRefused,
    TurnPassed,
)
from pocketgalaxy.session import Session
from pocketgalaxy.sim.report import adventure_report
from pocketgalaxy.sim.runner import run_many


def _session_with_memory_at(seat: int) -> tuple[Session, MemoryAgent]:
    agent = MemoryAgent(seed=3)
    session = Session(RULES, AdventureOptions(), seed=1, players=4, pinned=FOUR_PLAYER_DEAL)
    session.set_agent(seat, agent)
    return session, agent


def test_registry_knows_the_adventure_players() -> None:
    assert {"forgetful", "memory", "random"} <= set(agent_names("adventure", 0, 4))
    bot = make_agent("adventure", "forgetful:level=easy", 2, 4, seed=5)
    assert isinstance(bot, ForgetfulAgent) and bot.fade == 0.35
    assert make_agent("adventure", "forgetful:fade=0.5", 0, 3).fade == 0.5  # type: ignore[attr-defined]
    for bad in ("forgetful:level=sleepy", "memory:fade=2", "memory:colour=red"):
        with pytest.raises(PocketGalaxyError, match="bad settings"):
            make_agent("adventure", bad, 0, 4)
    assert {"random", "memory", "forgetful"} <= set(agents_for_seat(3, 5))


def test_memory_takes_a_card_it_saw_change_hands_first() -> None:
    session, _ = _session_with_memory_at(1)
    session.act(0, RequestCard(2, "P3"))
    session.act(0, DeclareCard(0, "P5"))  # a miss: seat 1's turn
    events = session.step_bot()
    assert events[0] == RequestGranted(1, 0, "P3")


def test_memory_does_not_ask_back_a_card_taken_from_it() -> None:
    session, agent = _session_with_memory_at(1)
    session.act(0, RequestCard(1, "P2"))
    session.act(0, DeclareCard(0, "P5"))
    assert agent.memory.loc["P2"] == 0 and "P2" in agent.memory.gave_away
    action = agent.act(session.view(1), session.legal_actions(1))
    assert action != RequestCard(0, "P2")


def test_memory_declares_a_face_it_saw_and_peeks_where_nobody_looked() -> None:
    session, agent = _session_with_memory_at(1)
    session.act(0, RequestCard(3, "P6"))  # refused: seat 0 peeks at slot 2, the bot sees which
    session.act(0, Peek(2))
    view = session.view(1)
    assert view.to_act == 1
    # A public reveal the bot heard (consistent with the pinned table: slot 5 holds P6).
    agent.observe([CardDeclared(3, 5, "S6", False, "P6")])
    assert agent.act(view, session.legal_actions(1)) == DeclareCard(5, "P6")
    for seed in range(10):
        agent.rng = agent.rng.fork() if seed else agent.rng
        peek = agent._peek(view, [Peek(s) for s in range(8)] + [SkipPeek()])
        assert isinstance(peek, Peek) and peek.slot not in (2, 5)  # 2: seat 0 looked; 5: known


def test_beliefs_respect_refusals_and_room() -> None:
    mem = Memory(0, 2)
    mine = ["S1", "S2", "S3", "S4", "S5", "S6", "P1", "P2"]
    mem.hand = set(mine)
    lacked = ["P3", "P4", "P5", "P6", "A1", "A2", "A3", "A4"]
    mem.observe([RequestRefused(0, 1, c) for c in lacked])
    b = mem.beliefs(hand_sizes=(8, 8), occupied=(True,) * 8)
    for c in lacked:
        assert b.on_table[c] == pytest.approx(1.0, abs=1e-6)
        assert b.in_hand[1].get(c, 0.0) == pytest.approx(0.0, abs=1e-9)
    for c in ["A5", "A6", "M1", "M2", "M3", "M4", "M5", "M6"]:
        assert b.in_hand[1][c] == pytest.approx(1.0, abs=1e-6)
    total_table = sum(b.on_table.values())
    assert total_table == pytest.approx(8.0, abs=1e-6)


def test_forgetful_memory_fades_and_perfect_memory_does_not() -> None:
    facts = [
        RequestGranted(2, 1, "P4"),
        RequestRefused(3, 2, "M1"),
        CardDeclared(1, 4, "S2", False, "A3"),
    ]
    keen = Memory(0, 4)
    hazy = Memory(0, 4, fade=1.0)
    for mem in (keen, hazy):
        mem.observe(facts)
        mem.observe([TurnPassed(1, 2, "declaration_missed")] * 3)
    assert keen.loc == {"P4": 2, "A3": SLOT + 4} and "M1" in keen.lacks[2]
    assert hazy.loc == {} and hazy.slot_face == {} and not any(hazy.lacks)


def test_bots_finish_games_through_the_session_for_every_player_count() -> None:
    for players in (2, 3, 4, 5):
        specs = ["memory", "forgetful", "random", "memory", "forgetful"][:players]
        agents = {
            s: make_agent("adventure", spec, s, players, seed=s) for s, spec in enumerate(specs)
        }
        session = Session(RULES, None, seed=players, players=players, agents=agents)
        session.run_bots()
        outcome = session.outcome
        assert outcome is not None and not outcome.ended_by_cap


def _by_kind(specs: list[str], games: int, seed: int) -> dict[str, dict[str, float]]:
    """Seat-rotated bot games through the simulator; win share and Wilson interval per bot kind."""
    results = run_many("adventure", specs, games, seed, players=len(specs), rotate=True)
    assert not any(r.ended_by_cap for r in results)
    report = adventure_report(results, seed=seed, options={}, specs=specs, rotate=True)
    return report["by_kind"]  # type: ignore[no-any-return]


@pytest.mark.slow
def test_memory_beats_forgetful_beats_random_in_four_player_games() -> None:
    kinds = _by_kind(["memory", "forgetful", "random", "random"], games=240, seed=2024)
    memory, forgetful, rand = (kinds[s] for s in ("memory", "forgetful", "random"))
    assert memory["ci_low"] > forgetful["ci_high"], kinds
    assert forgetful["ci_low"] > rand["ci_high"], kinds


@pytest.mark.slow
def test_forgetful_levels_are_ordered_by_their_memory() -> None:
    specs = ["forgetful:level=hard", "forgetful:level=easy"]
    kinds = _by_kind(specs, games=160, seed=77)  # two-player games: short and decisive
    hard, easy = kinds[specs[0]], kinds[specs[1]]
    assert hard["ci_low"] > easy["ci_high"], kinds

"""The ISMCTS player: general over the game contract, legal, seeded, and blind to hidden cards.

These tests check correctness with small iteration counts; strength is measured by
`pocketgalaxy tournament` runs (docs/agents.md), not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from pocketgalaxy.agents.adventure.search import AdventureDeterminizer, make_ismcts
from pocketgalaxy.agents.ismcts import Determinizer, ISMCTSAgent, Sampler
from pocketgalaxy.agents.registry import agent_names, make_agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, Event, GameRules, Outcome, visible_events
from pocketgalaxy.games.adventure import (
    AdventureOptions,
    AdventureRules,
    AdventureState,
    DeclareCard,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.sim.runner import play_one

RULES = AdventureRules()
MISSIONS = [[f"S{k}", f"P{k}", f"A{k}", f"M{k}"] for k in range(1, 7)]


# -- a tiny perfect-information game: the search must be general over the contract -------
@dataclass(frozen=True, slots=True)
class Take(Action):
    """Take `k` counters."""

    k: int


class TakeAway(GameRules[Any, None]):
    """Two seats take 1 or 2 counters in turn from a pile; who takes the last one wins."""

    name: ClassVar[str] = "takeaway"
    title: ClassVar[str] = "Take-away"
    options_type: ClassVar[type[Any]] = dict
    action_types: ClassVar[tuple[type[Action], ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def new(self, options: Any = None, seed: int = 0, *, players: int | None = None,
            pinned: Any = None) -> Any:
        return _Pile(pinned or 7)

    def to_act(self, state: Any) -> int | None:
        return None if state.left == 0 else state.seat

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        if self.to_act(state) != seat:
            return []
        return [take(k) for k in (1, 2) if k <= state.left]

    def check(self, state: Any, seat: int, action: Action) -> None:
        assert action in self.legal_actions(state, seat)

    def _do(self, state: Any, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Take)
        state.left -= action.k
        state.last = seat
        state.seat = 1 - seat
        return []

    def view(self, state: Any, seat: int | None) -> Any:
        return state.clone()

    def outcome(self, state: Any) -> Outcome | None:
        return Outcome((state.last,), "took_last") if state.left == 0 else None

    def state_from_json(self, data: dict[str, Any]) -> Any:
        raise NotImplementedError


class _Pile:
    def __init__(self, left: int) -> None:
        self.left, self.seat, self.last = left, 0, -1

    def clone(self) -> _Pile:
        c = _Pile(self.left)
        c.seat, c.last = self.seat, self.last
        return c

    def to_json(self) -> dict[str, Any]:
        return {"left": self.left}


def take(k: int) -> Action:
    return Take(k)


class _Open(Determinizer):
    """Perfect information: the only consistent state is the one shown."""

    policies: ClassVar[tuple[str, ...]] = ("random",)

    def sampler(self, view: Any) -> Sampler:
        return lambda rng: view.clone()


@pytest.mark.parametrize(("pile", "best"), [(4, 1), (5, 2), (7, 1), (8, 2)])
def test_search_finds_the_winning_move_of_a_small_perfect_information_game(
    pile: int, best: int
) -> None:
    rules = TakeAway()
    agent = ISMCTSAgent(3, rules=rules, determinizer=_Open(), iterations=600, c=0.7)
    agent.reset(0, 2, None)
    state = rules.new(pinned=pile)
    assert agent.act(rules.view(state, 0), rules.legal_actions(state, 0)) == take(best)
    visits = agent.last.root_visits
    assert visits[take(best)][0] > visits[take(3 - best)][0]


# -- Adventure Cards -----------------------------------------------------------------------
def _pinned_three() -> dict[str, Any]:
    return {
        "missions": MISSIONS,
        "hands": [
            ["S1", "P1", "A1", "S2", "P2", "A2"],
            ["M1", "S3", "P3", "A3", "S4", "P4"],
            ["M2", "M3", "A4", "M4", "S5", "P5"],
        ],
        "table": ["A5", "M5", "S6", "P6", "A6", "M6"],
        "first_player": 2,
    }


def _agent(seat: int = 0, **settings: Any) -> ISMCTSAgent:
    agent = make_ismcts(seed=11, **{"iterations": 40, **settings})
    agent.reset(seat, 3, AdventureOptions())
    return agent


def _feed(agent: ISMCTSAgent, seat: int, events: list[Event]) -> None:
    agent.observe(visible_events(events, seat))


def test_ismcts_is_offered_wherever_adventure_bots_are_chosen() -> None:
    assert "ismcts" in agent_names("adventure", 0, 3)
    bot = make_agent("adventure", "ismcts:iterations=50,c=1.2,depth=8,playout=random", 1, 3)
    assert isinstance(bot, ISMCTSAgent)
    assert (bot.iterations, bot.c, bot.depth, bot.playout) == (50, 1.2, 8, "random")
    for bad in ("ismcts:iterations=0", "ismcts:playout=greedy", "ismcts:c=-1",
                "ismcts:depth=1.5", "ismcts:colour=red", "ismcts:seconds=0"):
        with pytest.raises(PocketGalaxyError, match="bad settings"):
            make_agent("adventure", bad, 0, 3)


def test_a_known_face_that_completes_a_mission_is_declared() -> None:
    state = RULES.new(AdventureOptions(), 1, players=3, pinned=_pinned_three())
    agent = _agent()
    _feed(agent, 0, state.log_cur)
    # seat 2 names M1 at slot 1: a miss that shows M5 to everyone; then seat 0 is to act
    state, events = RULES.apply(state, 2, DeclareCard(1, "M1"))
    _feed(agent, 0, events)
    assert RULES.to_act(state) == 0
    legal = RULES.legal_actions(state, 0)
    action = agent.act(RULES.view(state, 0), legal)
    assert action in legal
    # the only certain gain on the board: slot 1 is M5 (a hit keeps the turn going)
    assert action == DeclareCard(1, "M5")


def test_decisions_depend_only_on_what_the_seat_knows() -> None:
    # two games that differ only in cards seat 0 cannot see: same decision, same seed
    base = _pinned_three()
    twin = _pinned_three()
    twin["hands"][1][0], twin["hands"][2][0] = twin["hands"][2][0], twin["hands"][1][0]
    twin["table"][0], twin["hands"][2][1] = twin["hands"][2][1], twin["table"][0]
    choices = []
    for pinned in (base, twin):
        pinned = dict(pinned, first_player=0)
        state = RULES.new(AdventureOptions(), 1, players=3, pinned=pinned)
        agent = _agent()
        _feed(agent, 0, state.log_cur)
        choices.append(agent.act(RULES.view(state, 0), RULES.legal_actions(state, 0)))
    assert choices[0] == choices[1]


def test_same_seed_same_decision_and_a_time_budget_runs() -> None:
    state = RULES.new(AdventureOptions(), 5, players=3)
    seat = RULES.to_act(state)
    assert seat in range(3)  # a fresh 3-player deal: someone is to act
    picks = []
    for _ in range(2):
        agent = _agent(seat)
        _feed(agent, seat, state.log_cur)
        picks.append(agent.act(RULES.view(state, seat), RULES.legal_actions(state, seat)))
    assert picks[0] == picks[1]
    timed = _agent(seat, seconds=0.01)
    _feed(timed, seat, state.log_cur)
    action = timed.act(RULES.view(state, seat), RULES.legal_actions(state, seat))
    assert action in RULES.legal_actions(state, seat) and timed.last.iterations >= 1


def test_after_a_refused_request_it_peeks_at_a_slot_it_has_not_seen() -> None:
    state = RULES.new(AdventureOptions(), 1, players=3, pinned=dict(_pinned_three(),
                                                                     first_player=0))
    agent = _agent()
    _feed(agent, 0, state.log_cur)
    state, events = RULES.apply(state, 0, RequestCard(1, "M2"))  # seat 2 holds it: refused
    _feed(agent, 0, events)
    action = agent.act(RULES.view(state, 0), RULES.legal_actions(state, 0))
    assert isinstance(action, Peek) and not isinstance(action, SkipPeek)


@pytest.mark.parametrize("playout", ["memory", "random"])
@pytest.mark.parametrize("players", [2, 4])
def test_whole_games_end_with_only_legal_moves(players: int, playout: str) -> None:
    specs = [f"ismcts:iterations=12,depth=6,playout={playout}"] + ["memory"] * (players - 1)
    result = play_one("adventure", specs, seed=players * 3 + len(playout), players=players)
    assert result.reason in ("all_missions_claimed", "turn_cap")
    assert result.seat_decisions[0] > 0


def test_it_plays_under_options_that_narrow_the_legal_moves() -> None:
    opts = {"forbid_known_misses": True, "require_mission_card_to_request": True,
            "auto_claim": False, "next_after_failed_request": "asked_player"}
    specs = ["ismcts:iterations=12,depth=6", "memory", "forgetful"]
    result = play_one("adventure", specs, seed=9, options=opts)
    assert result.reason in ("all_missions_claimed", "turn_cap")


def test_determinizer_state_has_the_views_turn_and_phase() -> None:
    state = RULES.new(AdventureOptions(), 2, players=3)
    seat = RULES.to_act(state)
    assert seat in range(3)  # a fresh 3-player deal: someone is to act
    det = AdventureDeterminizer()
    det.reset(seat, 3, AdventureOptions())
    det.observe(visible_events(state.log_cur, seat))
    view = RULES.view(state, seat)
    sample: AdventureState = det.sampler(view)(make_ismcts().fast)
    assert (sample.to_move, sample.phase, sample.turn) == (seat, view.phase, view.turn)
    assert RULES.legal_actions(sample, seat) == RULES.legal_actions(state, seat)

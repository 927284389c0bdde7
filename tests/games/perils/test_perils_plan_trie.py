"""The listed plans come from a trie of item prefixes (games/perils/planning.py): every plan
phase of seeded games under the rulings that shape the list (suit restriction, heart as a
skill) must list exactly the plans a plain build makes, in order, whether the trie is warm,
cold, or starts afresh in the middle of a game."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from pocketgalaxy.core.game import Action
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import planning
from pocketgalaxy.games.perils.actions import MakePlan
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.registry import perils_rules

QUIET = perils_rules(narrate=False)


@pytest.fixture
def small_trie() -> Iterator[Callable[[int], None]]:
    """Lets a test put a trie of its own bound in place; the process's trie comes back after."""
    kept = planning._TRIE[0]

    def use(limit: int) -> None:
        planning._TRIE[0] = planning._PlanTrie(limit)

    yield use
    planning._TRIE[0] = kept


def _plain_plans(state: PerilsState) -> list[Action]:
    """PP-R13 and PP-A6..A8 written out: no channel or one other skill, the first k usable."""
    assert state.current is not None
    peril = planning.suit_of(state.current)
    channels: list[str | None] = [None]
    channels += [s for s in ("D", "C", "S") if s != peril]
    if state.options.heart_is_skill and peril != "H":
        channels.append("H")
    out: list[Action] = []
    for channel in channels:
        usable = [c for c in state.inventory
                  if not state.options.item_suit_restriction or c.startswith("JK")
                  or c[-1] in (peril, channel)]
        out += [MakePlan(channel, tuple(usable[:k]), "") for k in range(len(usable) + 1)]
    return out


@pytest.mark.parametrize("options", [
    PerilsOptions(teller_policy="approve_all"),
    PerilsOptions(item_suit_restriction=True),
    PerilsOptions(heart_is_skill=True, item_suit_restriction=True),
    PerilsOptions(heart_is_skill=True, pathways_per_round=3),
])
def test_every_listed_plan_list_is_the_plain_one(
        options: PerilsOptions, small_trie: Callable[[int], None]) -> None:
    small_trie(40)  # starts afresh many times a game
    lists = afresh = 0
    for seed in range(25):
        state = QUIET.new(options, seed)
        rng = Rng(seed + 100)
        seat = QUIET.to_act(state)
        while seat is not None:
            legal = QUIET.legal_actions(state, seat)
            if state.phase == "plan":
                trie = planning._TRIE[0]
                assert legal == _plain_plans(state)
                assert legal == QUIET.legal_actions(state, seat)  # warm: the same again
                afresh += planning._TRIE[0] is not trie
                lists += 1
            QUIET.apply_unchecked(state, seat, legal[rng.below(len(legal))])
            seat = QUIET.to_act(state)
    assert lists > 50 and afresh > 0


def test_the_trie_shares_its_plans_and_stays_bounded(small_trie: Callable[[int], None]) -> None:
    small_trie(10)
    first = planning._prefix_nodes(["JD", "QS", "KC"])
    again = planning._prefix_nodes(["JD", "QS"])
    assert [n.items for n in first] == [(), ("JD",), ("JD", "QS"), ("JD", "QS", "KC")]
    assert again == first[:3]  # the same nodes: their plans are shared, not made again
    assert first[2].plan(1, "D") is again[2].plan(1, "D") == MakePlan("D", ("JD", "QS"), "")
    assert planning._TRIE[0].nodes == 4
    planning._prefix_nodes([f"{r}H" for r in ("J", "Q", "K")] + ["JK1", "JK2", "QD", "KD"])
    assert planning._TRIE[0].nodes == 11  # over the bound: the next walk starts afresh
    fresh = planning._prefix_nodes(["JD"])
    assert planning._TRIE[0].nodes == 2 and planning._TRIE[0].limit == 10
    assert fresh[1] is not first[1] and fresh[1].items == ("JD",)

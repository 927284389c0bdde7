"""Why an Adventure Cards action is refused: the one source of truth for legality.

`problem` returns (reason code, rule, detail) of a refusal, or None when the action is legal now;
`AdventureRules.check` raises from it, and `listing.legal_list` lists exactly the candidates it
accepts (the contract tests hold the two together).
"""

from __future__ import annotations

from pocketgalaxy.core.game import Action
from pocketgalaxy.games.adventure.actions import (
    ClaimMission,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.identities import CARD_INDEX
from pocketgalaxy.games.adventure.listing import act_candidates, holds_mission_mate
from pocketgalaxy.games.adventure.state import AdventureState

Problem = tuple[str, str, str]
"""(reason code, rule, detail) of a refusal."""


def problem(state: AdventureState, seat: int, action: Action) -> Problem | None:
    """Why `seat` may not take `action` now, or None when it may."""
    if state.phase == "over":
        return ("game_over", "AC-R6", "the game has ended")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        return ("no_such_seat", "AC-R2", f"seats are 0..{state.players - 1}")
    if seat != state.to_move:
        return ("not_your_turn", "AC-R7", f"seat {state.to_move} to act")
    if state.phase == "peek":
        if isinstance(action, Peek):
            return _slot_problem(state, action.slot, "AC-A3")
        if isinstance(action, SkipPeek):
            return None
        return ("wrong_phase", "AC-A3", "after a refused request: Peek(slot) or SkipPeek()")
    if isinstance(action, RequestCard):
        return _request_problem(state, seat, action.target, action.card)
    if isinstance(action, DeclareCard):
        return _declare_problem(state, seat, action.slot, action.card)
    if isinstance(action, ClaimMission):
        return _claim_problem(state, seat, action.mission)
    if isinstance(action, PassTurn):
        if act_candidates(state, seat):
            return ("has_legal_action", "AC-R10", "pass only when nothing else is legal")
        return None
    return ("wrong_phase", "AC-A3", "Peek and SkipPeek only right after a refused request")


def _request_problem(state: AdventureState, seat: int, target: int, card: str) -> Problem | None:
    opts = state.options
    if target == seat:
        return ("self_request", "AC-R8", "ask another player")
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < state.players:
        return ("no_such_seat", "AC-R8", f"seats are 0..{state.players - 1}")
    hand = state.hands[seat]
    if card in hand:
        return ("card_in_own_hand", "AC-A2", f"{card} is already in your hand")
    if card in state.discard:
        return ("card_discarded", "AC-A2", f"{card} was discarded with a claimed mission")
    if opts.require_mission_card_to_request and not holds_mission_mate(state, seat, card):
        return (
            "need_mission_card",
            "AC-A1",
            f"hold a card of {card}'s mission to ask for it (require_mission_card_to_request)",
        )
    if opts.forbid_empty_targets and not state.hands[target]:
        return ("empty_target", "AC-A12", f"seat {target} holds no cards (forbid_empty_targets)")
    if opts.forbid_known_misses and state.lacks[target] >> CARD_INDEX[card] & 1:
        return (
            "known_miss",
            "AC-A2",
            f"everyone saw seat {target} lack {card} (forbid_known_misses)",
        )
    return None


def _declare_problem(state: AdventureState, seat: int, slot: int, card: str) -> Problem | None:
    problem = _slot_problem(state, slot, "AC-R9")
    if problem is not None:
        return problem
    if not state.options.allow_any_declaration:
        if card in state.hands[seat]:
            return ("card_in_own_hand", "AC-A13", f"{card} is in your hand, so it is not there")
        if card in state.discard:
            return ("card_discarded", "AC-A13", f"{card} was discarded with a claimed mission")
    return None


def _slot_problem(state: AdventureState, slot: int, rule: str) -> Problem | None:
    if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < len(state.table):
        return ("no_such_slot", rule, f"slots are 0..{len(state.table) - 1}")
    if state.table[slot] is None:
        return ("empty_slot", rule, f"slot {slot} is empty (slots keep their place, AC-A15)")
    return None


def _claim_problem(state: AdventureState, seat: int, mission: int) -> Problem | None:
    if state.options.auto_claim:
        return ("claims_automatic", "AC-A5", "missions are claimed automatically (auto_claim)")
    if isinstance(mission, bool) or not isinstance(mission, int) or not 0 <= mission < 6:
        return ("no_such_mission", "AC-A5", "missions are 0..5")
    if state.claimed_by[mission] >= 0:
        return ("mission_claimed", "AC-R5", f"seat {state.claimed_by[mission]} claimed it")
    hand = state.hands[seat]
    missing = [c for c in state.missions[mission] if c not in hand]
    if missing:
        return ("mission_not_solved", "AC-R4", f"missing {', '.join(missing)}")
    return None

"""Perils & Pathways for a learning Hero: a fixed action space and a flat observation.

The learning agent is the Hero (seat 0). The Teller's decisions, which are free text or
judgement (descriptions, plan verdicts, the shuffle-back choice), are made by a computer
Teller inside the environment, so they have no index here.

Actions (docs/rl.md lists the same table):

- `ChooseArchetype` by index into the theme's archetypes (in playsheet order);
- `ChoosePathway` by position 0..2;
- `MakePlan` by (channel, item count): channel none, D, C, S or H, and the first k items the
  rules list as usable, with an empty plan text (the rules' canonical plans);
- `Roll`;
- `ChooseLostLevels` / `ChooseShuffleBack` by index into the rules' canonical legal list,
  capped at `choice_cap` entries (the rules list at most 64 subsets, and beyond that a few
  canonical splits; entries past the cap are not reachable and not in the mask).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError, OptionsError
from pocketgalaxy.core.game import Action
from pocketgalaxy.games.perils.actions import (
    HERO,
    ChooseArchetype,
    ChooseLostLevels,
    ChoosePathway,
    ChooseShuffleBack,
    MakePlan,
    Roll,
)
from pocketgalaxy.games.perils.content import BANDS, ITEM_CODES, SENSES, Theme
from pocketgalaxy.games.perils.state import PHASES, STAGES
from pocketgalaxy.games.perils.views import PerilsView
from pocketgalaxy.rl.encoding import MASK_DTYPE, OBS_DTYPE, ActionCodec, Layout

CHANNELS: tuple[str | None, ...] = (None, "D", "C", "S", "H")
"""MakePlan channel slots: none, then the suits (H only with heart_is_skill)."""
SUITS = ("D", "C", "S", "H")
MAX_ITEMS = len(ITEM_CODES)
"""At most 14 items exist (12 face cards and 2 jokers), so a plan commits 0..14."""
MAX_PATHWAYS = 3
"""Three pathways at most: k=3 rounds, or the three Big Bads laid out together."""
CHOICE_CAP = 64
KINDS = ("peril", "gift", "item", "big_bad")
_CARD_INDEX = {c: i for i, c in enumerate(DECK_54)}
_ITEM_INDEX = {c: i for i, c in enumerate(ITEM_CODES)}
_LIST_TYPES = (ChooseLostLevels, ChooseShuffleBack)


class PerilsActionCodec(ActionCodec):
    """The Hero's decisions for one theme (its archetype count fixes the first block)."""

    def __init__(self, theme: Theme, *, choice_cap: int = CHOICE_CAP) -> None:
        if isinstance(choice_cap, bool) or not isinstance(choice_cap, int) or choice_cap < 1:
            raise OptionsError(f"choice_cap={choice_cap!r} should be a whole number >= 1")
        self.archetypes = tuple(a.id for a in theme.archetypes)
        self.choice_cap = choice_cap
        self.layout = Layout([
            ("ChooseArchetype", len(self.archetypes),
             f"archetype i of theme {theme.id}: {', '.join(self.archetypes)}"),
            ("ChoosePathway", MAX_PATHWAYS, "pathway at position 0..2"),
            ("MakePlan", len(CHANNELS) * (MAX_ITEMS + 1),
             "channel ch (none, D, C, S, H) and the first k usable items: ch*15 + k"),
            ("Roll", 1, "roll the die"),
            ("ChooseFromList", choice_cap,
             "entry i of the rules' ChooseLostLevels / ChooseShuffleBack list"),
        ])
        self._arch0 = self.layout["ChooseArchetype"].start
        self._path0 = self.layout["ChoosePathway"].start
        self._plan0 = self.layout["MakePlan"].start
        self._roll = self.layout["Roll"].start
        self._list0 = self.layout["ChooseFromList"].start

    def encode(self, action: Action, *, seat: int = HERO, legal: Sequence[Action] = ()) -> int:
        if isinstance(action, ChooseArchetype):
            if action.archetype not in self.archetypes:
                raise MalformedActionError(action, "no such archetype in this theme",
                                           allowed=list(self.archetypes))
            return self._arch0 + self.archetypes.index(action.archetype)
        if isinstance(action, ChoosePathway):
            if not 0 <= action.position < MAX_PATHWAYS:
                raise MalformedActionError(action, "pathway positions are 0..2")
            return self._path0 + action.position
        if isinstance(action, MakePlan):
            return self._encode_plan(action, legal)
        if isinstance(action, Roll):
            return self._roll
        if isinstance(action, _LIST_TYPES):
            choices = [a for a in legal if type(a) is type(action)]
            if action in choices and choices.index(action) < self.choice_cap:
                return self._list0 + choices.index(action)
            raise MalformedActionError(
                action, f"not among the first {self.choice_cap} entries of the rules' list "
                "of this choice", allowed=[repr(a) for a in choices[: self.choice_cap]],
            )
        raise MalformedActionError(
            action, "not a Hero decision of the RL space (the computer Teller makes the "
            "Teller's decisions)", allowed=[b.name for b in self.layout],
        )

    def _encode_plan(self, action: MakePlan, legal: Sequence[Action]) -> int:
        if action.channel not in CHANNELS or len(action.items) > MAX_ITEMS:
            raise MalformedActionError(action, "channel none, D, C, S or H and 0..14 items")
        index = self._plan0 + CHANNELS.index(action.channel) * (MAX_ITEMS + 1) + len(action.items)
        canonical = self._plan_at(index, legal) if legal else None
        if action.plan != "" or (legal and canonical != action):
            raise MalformedActionError(
                action, "the RL space holds the rules' canonical plans only: a channel, the "
                "first k usable items, and an empty plan text",
                allowed=[repr(a) for a in legal if isinstance(a, MakePlan)][:20],
            )
        return index

    def _plan_at(self, index: int, legal: Sequence[Action]) -> MakePlan | None:
        ch, k = divmod(index - self._plan0, MAX_ITEMS + 1)
        channel = CHANNELS[ch]
        for a in legal:
            if isinstance(a, MakePlan) and a.channel == channel and len(a.items) == k:
                return a
        return None

    def decode(self, index: int, *, seat: int = HERO, legal: Sequence[Action] = ()) -> Action:
        i = self.check_index(index)
        if i < self._path0:
            return ChooseArchetype(self.archetypes[i - self._arch0])
        if i < self._plan0:
            return ChoosePathway(i - self._path0)
        if i == self._roll:
            return Roll()
        if i < self._roll:
            found: Action | None = self._plan_at(i, legal)
        else:
            choices = [a for a in legal if isinstance(a, _LIST_TYPES)]
            pos = i - self._list0
            found = choices[pos] if pos < len(choices) else None
        if found is None:
            block = self.layout.block_of(i)
            raise IllegalActionError(
                f"action index {i} ({block.name})", seat, "masked_action", "rl/action_mask",
                "that index is not a legal action now (see the action mask)",
                allowed=[repr(a) for a in legal][:20],
            )
        return found

    def mask(self, *, seat: int, legal: Sequence[Action]) -> np.ndarray:
        out = np.zeros(self.size, dtype=MASK_DTYPE)
        listed = 0
        for action in legal:
            if isinstance(action, _LIST_TYPES):
                if listed < self.choice_cap:  # entries past the cap are unreachable
                    out[self._list0 + listed] = 1
                listed += 1
            elif isinstance(action, MakePlan):  # the rules' own list: canonical already
                out[self._plan0 + CHANNELS.index(action.channel) * (MAX_ITEMS + 1)
                    + len(action.items)] = 1
            else:
                out[self.encode(action, seat=seat, legal=legal)] = 1
        return out


class PerilsObservation:
    """The flat observation of the Hero's `PerilsView` (floats in 0..1).

    Pathways are encoded from the structured hint the view carries with the computer Teller's
    descriptions (what the text tells a person); "seen" marks every card whose identity the
    view shows out of the draw pile, which is what card counting needs.
    """

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.archetypes = theme.archetypes
        a = len(self.archetypes)
        self.layout = Layout([
            ("bias", 1, "always 1"),
            ("phase", len(PHASES), "one-hot phase: " + ", ".join(PHASES)),
            ("stage", len(STAGES), "one-hot stage: " + ", ".join(STAGES)),
            ("round", 1, "round number / 40 (clipped)"),
            ("sense", len(SENSES) + 1, "one-hot sense of the round: sight, sound, smell, free"),
            ("archetype_cards", a * 4,
             "archetype i's card rank per suit D, C, S, H, / 10: i*4 + suit"),
            ("archetype", a, "one-hot archetype chosen (all 0 before the choice)"),
            ("skill_level", 4, "skill level per suit D, C, S, H, / 20"),
            ("skill_gained", 4, "cards tucked behind each suit, / 12"),
            ("health", 1, "health / max health"),
            ("health_points", 1, "health / 10"),
            ("damage", 1, "damage cards under the heart card, / 10"),
            ("items", MAX_ITEMS, "1 if the inventory holds item i (J, Q, K of D C H S, jokers)"),
            ("item_count", 1, "items held / 14"),
            ("draw_count", 1, "cards left in the draw pile / 46 (clipped)"),
            ("pathways", MAX_PATHWAYS * 11,
             "per position p (p*11): present, kind peril/gift/item/unknown, "
             "suit D/C/S, band low/mid/high"),
            ("current", 10,
             "the flipped card: present, kind peril/gift/item/big_bad, suit D/C/S/H, "
             "difficulty / 11"),
            ("plan", 5, "plan made, channel approved, approved items / 14, advantage, bonus / 16"),
            ("big_bads", 3, "Big Bads remaining, defeated, failed; each / 3"),
            ("levels_to_lose", 1, "gained levels to lose now / 24"),
            ("seen", len(DECK_54), "card c (DECK_54 order) is known to be out of the draw pile"),
        ])
        self._b = {blk.name: blk.start for blk in self.layout}
        self._arch_index = {arch.id: i for i, arch in enumerate(self.archetypes)}
        ranks = np.zeros(a * 4, dtype=OBS_DTYPE)
        for i, arch in enumerate(self.archetypes):
            for code in arch.cards:
                c = card(code)
                if c.suit is not None and c.is_number:
                    ranks[i * 4 + SUITS.index(c.suit.value)] += c.rank / 10
        self._ranks = np.clip(ranks, 0.0, 1.0)

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: PerilsView) -> np.ndarray:
        """The vector for a Perils view (built for the Hero; any seat's view encodes)."""
        b = self._b
        out = np.zeros(self.size, dtype=OBS_DTYPE)
        out[b["bias"]] = 1.0
        out[b["phase"] + PHASES.index(view.phase)] = 1.0
        out[b["stage"] + STAGES.index(view.stage)] = 1.0
        out[b["round"]] = view.round / 40
        sense = view.sense
        out[b["sense"] + (SENSES.index(sense) if sense in SENSES else len(SENSES))] = 1.0
        start = b["archetype_cards"]
        out[start:start + self._ranks.size] = self._ranks
        if view.archetype is not None and view.archetype in self._arch_index:
            out[b["archetype"] + self._arch_index[view.archetype]] = 1.0
        seen: list[str] = []
        for skill in view.skills:
            s = SUITS.index(skill.suit)
            out[b["skill_level"] + s] = skill.level / 20
            out[b["skill_gained"] + s] = len(skill.tucked) / 12
            seen += skill.base
            seen += skill.tucked
        out[b["health"]] = view.health / max(view.max_health, 1)
        out[b["health_points"]] = view.health / 10
        out[b["damage"]] = len(view.damage) / 10
        seen += view.damage
        for item in view.items:
            out[b["items"] + _ITEM_INDEX[item.code]] = 1.0
            seen.append(item.code)
        out[b["item_count"]] = len(view.items) / MAX_ITEMS
        out[b["draw_count"]] = view.draw_count / 46
        for p in view.pathways[:MAX_PATHWAYS]:
            self._pathway(out, b["pathways"] + p.position * 11, p.hint or {})
        if view.current is not None:
            cur = b["current"]
            out[cur] = 1.0
            if view.current_kind in KINDS:
                out[cur + 1 + KINDS.index(view.current_kind)] = 1.0
            c = card(view.current)
            if c.suit is not None:
                out[cur + 5 + SUITS.index(c.suit.value)] = 1.0
            out[cur + 9] = (view.difficulty or 0) / 11
            seen.append(view.current)
        if view.plan is not None:
            pl = b["plan"]
            out[pl] = 1.0
            out[pl + 1] = float(view.plan.approve_channel)
            out[pl + 2] = len(view.plan.approve_items) / MAX_ITEMS
            out[pl + 3] = float(view.plan.advantage)
            out[pl + 4] = view.plan.bonus / 16
        out[b["big_bads"]] = view.big_bads_remaining / 3
        out[b["big_bads"] + 1] = len(view.big_bads_defeated) / 3
        out[b["big_bads"] + 2] = len(view.big_bads_failed) / 3
        out[b["levels_to_lose"]] = view.levels_to_lose / 24
        seen += view.spent
        seen += view.lost_pending
        if view.unchosen_faces is not None:
            seen += view.unchosen_faces
        first = b["seen"]
        for code in seen:
            out[first + _CARD_INDEX[code]] = 1.0
        np.clip(out, 0.0, 1.0, out=out)
        return out

    @staticmethod
    def _pathway(out: np.ndarray, at: int, hint: dict[str, str]) -> None:
        out[at] = 1.0
        kind = hint.get("kind")
        out[at + 1 + (("peril", "gift", "item").index(kind) if kind in ("peril", "gift", "item")
                      else 3)] = 1.0
        suit = hint.get("suit")
        if suit in ("D", "C", "S"):
            out[at + 5 + ("D", "C", "S").index(suit)] = 1.0
        band = hint.get("band")
        if band in BANDS:
            out[at + 8 + BANDS.index(band)] = 1.0

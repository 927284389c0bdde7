"""The computer Teller's words: pathway descriptions, revealed cards and consequences.

Pure functions. Randomness comes from the state's `narration_seed` (fixed at setup) mixed with
the round and position, never from the game's own rng, so a human Teller and the computer
Teller leave the game's dice and shuffles untouched and produce the same game.

A pathway description conveys what `hint_fidelity` allows (PP-H1) and nothing more:

| fidelity | perils | gifts, items |
|---|---|---|
| suit+band | suit imagery + intensity of the band | kind imagery |
| band_only | generic menace + intensity of the band | kind imagery |
| kind_only | generic menace | kind imagery |
| none | neutral text | neutral text |

It never names the suit (word or symbol), a skill name or keyword, or the value. Within one
game every description differs from all earlier ones (`state.history`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.core.game import Event
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.content import SENSES, Theme, band_of
from pocketgalaxy.games.perils.state import PerilsState

_MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def narration_seed_for(seed: int) -> int:
    """The narration seed a game with this seed stores at setup."""
    return ((seed ^ 0x5DEECE66D) * _MIX + 0x1234567) & _MASK


def _rng(state: PerilsState, *parts: int) -> Rng:
    value = state.narration_seed
    for p in parts:
        value = ((value ^ (p & _MASK)) * _MIX + 0x632BE5AB) & _MASK
    return Rng(value)


def card_kind(code: str) -> str:
    """peril, gift, item or big_bad."""
    return _KINDS[code]


def _kind(code: str) -> str:
    c = card(code)
    if c.is_ace:
        return "big_bad"
    if c.is_face or c.is_joker:
        return "item"
    if c.suit is not None and c.suit.value == "H":
        return "gift"
    return "peril"


_KINDS = {code: _kind(code) for code in DECK_54}


def hint_for(code: str, fidelity: str) -> dict[str, str]:
    """The structured hint a suggestion carries (the text carries the same to a person)."""
    kind = card_kind(code)
    c = card(code)
    if fidelity == "none":
        return {}
    if kind in ("gift", "item"):
        return {"kind": kind}
    if fidelity == "kind_only":
        return {"kind": "peril"}
    band = "high" if c.is_ace else band_of(c.rank)
    if fidelity == "band_only":
        return {"kind": "peril", "band": band}
    assert c.suit is not None
    return {"kind": "peril", "suit": c.suit.value, "band": band}


def description_sense(state: PerilsState, sense: str, position: int) -> str:
    """The sense fragments to use: the round's, or a seeded pick when the sense is free."""
    if sense in SENSES:
        return sense
    return SENSES[_rng(state, state.round, position, 7).below(len(SENSES))]


def _parts(theme: Theme, sense: str, hint: dict[str, str]) -> list[tuple[str, ...]]:
    frag = theme.pathways[sense]
    kind = hint.get("kind")
    if kind is None:
        return [frag["neutral"]]
    if kind in ("gift", "item"):
        return [frag[kind]]
    main = frag[f"peril_{hint['suit']}"] if "suit" in hint else frag["peril"]
    if "band" in hint:
        return [main, frag[hint["band"]]]
    return [main]


def suggest_descriptions(state: PerilsState, theme: Theme, sense: str) -> tuple[str, ...]:
    """One description per current pathway, all different from every earlier description."""
    used = set(state.history)
    out: list[str] = []
    for i, code in enumerate(state.pathways):
        hint = hint_for(code, state.options.hint_fidelity)
        s = description_sense(state, sense, i)
        text = _unique(_parts(theme, s, hint), theme.pathways[s]["ambient"], used,
                       _rng(state, state.round, i))
        used.add(text)
        out.append(text)
    return tuple(out)


def _unique(parts: list[tuple[str, ...]], ambient: tuple[str, ...], used: set[str], rng: Rng
            ) -> str:
    lists = [*parts, ambient]
    for _ in range(8):  # a few random draws first: cheap, and almost always enough
        text = " ".join(part[rng.below(len(part))] for part in lists)
        if text not in used:
            return text
    combos = list(itertools.product(*lists))
    rng.shuffle(combos)
    for combo in combos:
        text = " ".join(combo)
        if text not in used:
            return text
    # All single-ambient texts are taken: add a second ambient sentence.
    pairs = [(a, b) for a in ambient for b in ambient if a != b]
    rng.shuffle(pairs)
    for combo in combos:
        for a, b in pairs:
            text = " ".join((*combo[:-1], a, b))
            if text not in used:
                return text
    base = " ".join(combos[0])
    extra = " And still it goes on."
    while base in used:
        base += extra
    return base


def describe_card(code: str, theme: Theme, seed: int = 0) -> str:
    """A sentence for a flipped card (the Teller's inspiration; PP-R9, PP-R10)."""
    c = card(code)
    kind = card_kind(code)
    rng = Rng(seed ^ hash_code(code))
    if kind == "big_bad":
        bad = theme.big_bads[code]
        return f"{bad.name}: {bad.blurb}"
    if kind == "item":
        item = theme.items[code]
        return f"{item.name}: {item.blurb}"
    if kind == "gift":
        return rng.choice(theme.gifts)
    assert c.suit is not None
    return rng.choice(theme.perils[c.suit.value][band_of(c.rank)])


def hash_code(code: str) -> int:
    """A stable small integer for a card code (Python's str hash is salted per process)."""
    value = 0
    for ch in code:
        value = (value * 131 + ord(ch)) & _MASK
    return value


def prize_of(state: PerilsState, theme: Theme) -> str:
    """The prize the players agreed on (PP-R4): a seeded pick among the theme's ideas."""
    return theme.prizes[_rng(state, 0xA11CE).below(len(theme.prizes))]


def narrate_event(event: Event, theme: Theme, seed: int = 0) -> str | None:
    """One line of text for an event, for the shells; None for events that need no words."""
    skill = theme.skill_name
    match event:
        case ev.ArchetypeChosen(archetype=a):
            arch = theme.archetype(a)
            return f"The Hero sets out as the {arch.name if arch else a}."
        case ev.PathwaysLaid(count=n, sense=s, stage=stage):
            where = "The last guardians wait" if stage == "showdown" else "The way divides"
            how = "in any sense" if s == "free" else f"by {s}"
            return f"{where}: {n} path{'s' if n != 1 else ''} to describe {how}."
        case ev.CardRevealed(card=code):
            return describe_card(code, theme, seed)
        case ev.PerilPassed(card=code):
            return f"Your {skill(code[-1])} carries you straight past it."
        case ev.DieRolled(values=vals, total=total, difficulty=d):
            rolled = " and ".join(str(v) for v in vals)
            return f"Rolled {rolled}: total {total} against {d}."
        case ev.PerilSucceeded(suit=suit, level=level):
            return f"Success! {skill(suit)} rises to {level}."
        case ev.PerilFailed():
            return "It goes badly."
        case ev.HealthLost(health=h):
            return f"You are hurt: health {h}."
        case ev.HealthGained(health=h):
            return f"You feel better: health {h}."
        case ev.HealWasted():
            return "You are already at full health; the comfort is pleasant but changes nothing."
        case ev.ItemGained(card=code):
            return f"You pick up the {theme.items[code].name}."
        case ev.ItemsSpent(cards=cards):
            return f"Used up: {_names(theme, cards)}."
        case ev.ZeroHealth():
            return "You collapse, and wake up later with less than you had."
        case ev.ItemsLost(cards=cards) if cards:
            return f"Lost: {_names(theme, cards)}."
        case ev.CardsShuffledBack(cards=cards) if cards:
            return f"{len(cards)} lost card(s) drift back into the maze."
        case ev.ShowdownBegan():
            return "The maze ends. The Big Bads wait."
        case ev.GameWon(prize=prize):
            return f"You survive, and claim the prize: {prize}"
        case ev.GameLost(reason=reason):
            return f"The adventure ends here ({reason.replace('_', ' ')})."
    return None


def _names(theme: Theme, cards: Iterable[str]) -> str:
    return ", ".join(theme.items[c].name if c in theme.items else c for c in cards)

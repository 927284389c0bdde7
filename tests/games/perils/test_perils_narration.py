"""The computer Teller's descriptions: never the suit, skill words or value; unique within a
game; the same seed gives the same words; the game's own rng is untouched."""

from __future__ import annotations

import re

import pytest
from perils_testkit import R, describe, new

from pocketgalaxy.agents.perils import ComputerTeller, RuleBasedHero
from pocketgalaxy.core.cards import card
from pocketgalaxy.core.game import Event
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.content import Theme, load_theme
from pocketgalaxy.games.perils.narration import describe_card, narrate_event
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.session import Session

SUIT_WORDS = ("diamond", "club", "spade", "heart", "♦", "♣", "♥", "♠")
NUMBER_WORDS = {
    1: ("one", "ace", "eleven"), 2: ("two",), 3: ("three",), 4: ("four",), 5: ("five",),
    6: ("six",), 7: ("seven",), 8: ("eight",), 9: ("nine",), 10: ("ten",),
    11: ("jack",), 12: ("queen",), 13: ("king",), 0: ("joker",),
}


def _forbidden(code: str, theme: Theme) -> list[str]:
    c = card(code)
    words = list(NUMBER_WORDS[c.rank])
    if c.suit is not None:
        skill = theme.skills[c.suit.value]
        words += [skill.name.lower(), *skill.keywords]
    return words


def leaks(text: str, code: str, theme: Theme) -> list[str]:
    """What a description gives away about `code` (empty when nothing)."""
    low = text.lower()
    found = [w for w in SUIT_WORDS if w in low]
    found += re.findall(r"\d", low)
    for word in _forbidden(code, theme):
        if re.search(r"(?<![a-z])" + re.escape(word) + r"(?![a-z])", low) or (
            len(word) > 4 and re.search(r"(?<![a-z])" + re.escape(word), low)
        ):
            found.append(word)
    return list(dict.fromkeys(found))


def _described(options: PerilsOptions, seed: int) -> list[tuple[str, str]]:
    """(card, description) pairs of one bot game."""
    session = Session(R, options, seed=seed,
                      agents={0: RuleBasedHero(seed=seed), 1: ComputerTeller(seed=seed)})
    session.run_bots()
    pairs: list[tuple[str, str]] = []
    dealt: tuple[str, ...] = ()
    for event in session.events_for(1):
        if isinstance(event, ev.PathwaysDealt):
            dealt = event.cards
        elif isinstance(event, ev.PathwaysDescribed):
            pairs.extend(zip(dealt, event.descriptions, strict=True))
    return pairs


def test_leak_check_catches_leaks() -> None:
    theme = load_theme("cosmic")
    assert leaks("A hulking brute needs strength.", "8D", theme) == ["strength"]
    assert leaks("Eight doors.", "8D", theme) == ["eight"]
    assert leaks("A ♦ sign and 8 of them", "8D", theme) == ["♦", "8"]
    assert leaks("Stronghold walls.", "8D", theme) == ["strong"]
    assert leaks("The stone and bone lie still.", "AD", theme) == []


@pytest.mark.slow
@pytest.mark.parametrize("theme_id", ["cosmic", "dungeon"])
def test_descriptions_never_give_the_card_away(theme_id: str) -> None:
    theme = load_theme(theme_id)
    total = 0
    kinds: set[str] = set()
    for fidelity in ("suit+band", "band_only", "kind_only", "none"):
        seeds = range(25) if fidelity == "suit+band" else range(6)
        options = PerilsOptions(theme=theme_id, hint_fidelity=fidelity)
        for seed in seeds:
            pairs = _described(options, seed)
            texts = [t for _, t in pairs]
            assert len(set(texts)) == len(texts), "two descriptions of one game are equal"
            for code, text in pairs:
                assert not leaks(text, code, theme), (code, text, leaks(text, code, theme))
                kinds.add(code[-1] if card(code).is_number else "item")
            total += len(pairs)
    assert total >= 1500 and kinds == {"D", "C", "S", "H", "item"}


def test_every_fragment_is_clean() -> None:
    for theme_id in ("cosmic", "dungeon"):
        theme = load_theme(theme_id)
        banned = [w for s in theme.skills.values() for w in (s.name.lower(), *s.keywords)]
        banned += [w for n in NUMBER_WORDS.values() for w in n]
        for sense, table in theme.pathways.items():
            for key, sentences in table.items():
                for text in sentences:
                    low = text.lower()
                    bad = [w for w in banned if re.search(r"(?<![a-z])" + re.escape(w), low)
                           and not (w in ("one", "ten") and not re.search(rf"\b{w}\b", low))]
                    bad += [w for w in SUIT_WORDS if w in low] + re.findall(r"\d", low)
                    assert not bad, (theme_id, sense, key, text, bad)


def test_same_seed_same_narration_and_the_rng_is_untouched() -> None:
    assert _described(PerilsOptions(), 11) == _described(PerilsOptions(), 11)
    assert _described(PerilsOptions(), 11) != _described(PerilsOptions(), 12)
    state = new(draw=("9C", "JD"))
    before = state.rng.to_json()
    R.suggestions(state)
    R.view(state, 1)
    assert state.rng.to_json() == before
    custom, _ = R.apply(state, 1, _describe_with(("a", "b")))
    suggested, _ = describe(state)
    assert custom.rng.to_json() == suggested.rng.to_json()


def _describe_with(texts: tuple[str, str]) -> object:
    from pocketgalaxy.games.perils.actions import DescribePathways

    return DescribePathways(texts)


def test_uniqueness_survives_a_game_of_neutral_text() -> None:
    pairs = _described(PerilsOptions(hint_fidelity="none", pathways_per_round=3), 5)
    texts = [t for _, t in pairs]
    assert len(texts) == len(set(texts)) > 10


def test_revealed_cards_and_events_have_words() -> None:
    theme = load_theme("dungeon")
    assert describe_card("AS", theme).startswith("The Drowned Lich")
    assert describe_card("KS", theme).startswith("Skeleton Key")
    assert describe_card("9C", theme) in theme.perils["C"]["high"]
    assert describe_card("5H", theme) in theme.gifts
    events: list[Event] = [
        ev.PerilSucceeded(card="5D", suit="D", level=3),
        ev.DieRolled(values=(2, 5), advantage=True, bonus=1, total=6, difficulty=6),
        ev.ItemGained(card="QH"),
        ev.GameLost(reason="zero_health_in_showdown"),
    ]
    lines = [narrate_event(e, theme) for e in events]
    assert lines == ["Success! Brawn rises to 3.", "Rolled 2 and 5: total 6 against 6.",
                     "You pick up the Honey Cakes.",
                     "The adventure ends here (zero health in showdown)."]
    assert narrate_event(ev.PathwaysDealt(round=1, cards=("5D",)), theme) is None

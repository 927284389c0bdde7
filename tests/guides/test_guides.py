"""The How to play guides: package data, shape, card pictures that name real cards, and the
facts they state held against the engine's defaults."""

from __future__ import annotations

import pytest

from pocketgalaxy.core.cards import parse_card
from pocketgalaxy.core.errors import ContentError, PocketGalaxyError
from pocketgalaxy.games.adventure.identities import parse_identity
from pocketgalaxy.games.adventure.options import AdventureOptions
from pocketgalaxy.games.adventure.state import PRINTED_DEAL
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.guides import FACE_DOWN, GUIDE_GAMES, card_pictures, load_guide, parse_guide

KEY_SECTIONS = {
    "perils": [
        "What you need", "The goal", "Getting ready", "A round: choosing a pathway",
        "What the card means", "Facing a peril", "Down to zero health",
        "The showdown and the end", "Notable options",
    ],
    "adventure": [
        "What you need", "The goal", "Getting ready", "Your turn", "Completing a mission",
        "How it ends", "Notable options",
    ],
}


@pytest.mark.parametrize("game", GUIDE_GAMES)
def test_guide_has_its_key_sections_in_order(game: str) -> None:
    guide = load_guide(game)
    titles = [s.title for s in guide.sections]
    assert [t for t in titles if t in KEY_SECTIONS[game]] == KEY_SECTIONS[game]
    assert sum(t.startswith("Example") for t in titles) >= 2  # worked examples
    assert guide.title.endswith("how to play") and guide.intro
    assert len({s.id for s in guide.sections}) == len(guide.sections)
    assert all(s.text for s in guide.sections)


@pytest.mark.parametrize("game", GUIDE_GAMES)
def test_every_card_picture_is_a_real_card(game: str) -> None:
    text = load_guide(game).markdown
    pictures = card_pictures(text)
    assert len(pictures) >= 10
    for pic in pictures:
        if pic.kind == "playing":
            assert parse_card(pic.code).code == pic.code
        elif pic.kind == "adventure":
            assert parse_identity(pic.code) == pic.code
        else:
            assert pic.code == FACE_DOWN
    kinds = {p.kind for p in pictures}
    assert kinds >= ({"playing", "back"} if game == "perils" else {"adventure"})


def test_card_pictures_read_every_form() -> None:
    text = "[8♦] [10♣] [A♠] [K♥] [Joker 1] [▒▒▒] [P5] [M6] [8D] [Joker 3] [S7] [8♦"
    assert [(p.code, p.kind) for p in card_pictures(text)] == [
        ("8D", "playing"), ("10C", "playing"), ("AS", "playing"), ("KH", "playing"),
        ("JK1", "playing"), (FACE_DOWN, "back"), ("P5", "adventure"), ("M6", "adventure"),
    ]
    first = card_pictures(text)[0]
    assert text[first.start : first.end] == "[8♦]"


def test_unknown_guide_names_the_guides() -> None:
    with pytest.raises(PocketGalaxyError) as info:
        load_guide("chess")
    assert info.value.code == "guide/unknown"
    assert list(info.value.allowed) == list(GUIDE_GAMES)


@pytest.mark.parametrize(
    ("source", "problem"),
    [("no title\n## A\ntext", "line 1"), ("# Title\nonly an intro", "sections"), ("", "line 1")],
)
def test_a_broken_guide_says_what_is_wrong(source: str, problem: str) -> None:
    with pytest.raises(ContentError) as info:
        parse_guide("perils", source)
    assert info.value.key == problem and "perils.md" in str(info.value)


def test_headings_inside_code_fences_do_not_start_sections() -> None:
    guide = parse_guide("x", "# T\nintro\n## One\n```\n## not a heading\n```\n## One\nmore")
    assert [s.title for s in guide.sections] == ["One", "One"]
    assert [s.id for s in guide.sections] == ["one", "one-2"]
    assert "## not a heading" in guide.sections[0].text


def test_perils_guide_states_the_engine_defaults() -> None:
    text = load_guide("perils").markdown
    o = PerilsOptions()
    # The facts the guide teaches are the defaults it claims to describe.
    assert o.pathways_per_round == 2 and "top **two** cards" in text
    assert o.start_health == 3 and o.max_health == 3 and "starts with 3 health" in text
    assert o.success_comparison == ">=" and "total **reaches** the difficulty" in text
    assert o.autopass_comparison == ">" and "**higher** than the difficulty" in text
    assert o.skill_adds_to_roll is False and "level is **not** added" in text
    assert o.showdown_zero_health == "lose" and "loses the game at once" in text
    assert "difficulty of **11**" in text and "23 rounds" in text
    pilot = next(a for a in load_theme("cosmic").archetypes if a.id == "pilot")
    pictures = "[" + "] [".join(parse_card(c).label for c in pilot.cards) + "]"
    assert f"The Cosmic Pilot is {pictures}" in text


def test_adventure_guide_states_the_engine_defaults() -> None:
    text = load_guide("adventure").markdown
    for players, (each, table) in PRINTED_DEAL.items():
        assert f"{players} players: {each} each, {table} on the table" in text
    o = AdventureOptions()
    assert o.peek_after_failed_request and "you may first **peek**" in text
    assert o.next_after_failed_request == "left" and o.final_tie == "shared"
    assert "they share the win" in text


@pytest.mark.parametrize("game", GUIDE_GAMES)
def test_notable_options_exist_with_allowed_values(game: str) -> None:
    from pocketgalaxy.cli.common import build_options, option_pairs
    from pocketgalaxy.registry import get_game

    rules = get_game(game)
    section = next(s for s in load_guide(game).sections if s.title == "Notable options")
    pairs = [
        line.split("`")[1] for line in section.text.splitlines() if line.startswith("- `")
    ]
    assert len(pairs) >= 5
    # Every setting the guide suggests is accepted as typed (raises OptionsError otherwise).
    build_options(rules, option_pairs(rules, [p.replace('"', "") for p in pairs]))

"""The playsheets load, and broken theme files are refused with ContentError(file, key)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pocketgalaxy.core.errors import ContentError
from pocketgalaxy.games.perils.content import (
    ITEM_CODES,
    PLAYSHEETS,
    SENSES,
    load_theme,
    parse_theme,
)


@pytest.mark.parametrize("theme_id", ["cosmic", "dungeon"])
def test_bundled_themes_load_complete(theme_id: str) -> None:
    theme = load_theme(theme_id)
    assert theme.id == theme_id and theme.title and theme.intro
    assert set(theme.skills) == {"D", "C", "S", "H"}
    assert len(theme.archetypes) >= 4
    assert len({a.id for a in theme.archetypes}) == len(theme.archetypes)
    assert set(theme.items) == set(ITEM_CODES) and len(ITEM_CODES) == 14
    assert set(theme.big_bads) == {"AD", "AC", "AS"}
    assert theme.prizes
    assert set(theme.grammar) == set(SENSES)
    kinds = {t.kind for t in theme.things.values()}
    assert kinds == {"peril", "big_bad", "gift", "item"}
    # Enough things that a game rarely meets one twice: more than the cards of each kind.
    for suit in ("D", "C", "S", "H"):
        assert sum(1 for t in theme.things.values() if suit in t.suits and t.card is None) >= 10
    assert {t.card for t in theme.things.values() if t.kind == "item"} == set(ITEM_CODES)


def test_cosmic_names_strength_and_agility() -> None:
    theme = load_theme("cosmic")
    assert theme.skills["D"].name == "Strength" and theme.skills["C"].name == "Agility"
    assert theme.archetype("pilot") is not None
    assert "2D" in theme.archetype("pilot").cards  # type: ignore[union-attr]


def _broken(tmp_path: Path, edit: str, old: str, new: str) -> Path:
    text = (PLAYSHEETS / "cosmic.toml").read_text(encoding="utf-8")
    assert old in text, edit
    path = tmp_path / f"{edit}.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("edit", "old", "new", "key"),
    [
        ("unknown_key", 'id = "cosmic"', 'id = "cosmic"\ncolour = "blue"', "colour"),
        ("missing_key", 'title = "Cosmic: The Derelict Starliner"\n', "", "title"),
        ("bad_archetype", 'cards = ["2D", "4C", "6S", "3H"]', 'cards = ["2D", "4D", "6S", "3H"]',
         "archetypes[0].cards"),
        ("ace_archetype", 'cards = ["2D", "4C", "6S", "3H"]', 'cards = ["AD", "4C", "6S", "3H"]',
         "archetypes[0].cards"),
        ("bad_code", 'cards = ["2D", "4C", "6S", "3H"]', 'cards = ["2X", "4C", "6S", "3H"]',
         "archetypes[0].cards"),
        ("duplicate_id", 'id = "marine"', 'id = "pilot"', "archetypes[1].id"),
        ("missing_suit", '[skills.H]\nname = "Charm"', '[skills.X]\nname = "Charm"', "skills.X"),
        ("item_missing", "[items.JK2]", "[items.JK3]", "items.JK3"),
        ("empty_list", 'reveal = ["A pressure door blocks the way, jammed a hand\'s width open, '
         'its motor long dead.", "The way ends at a jammed pressure door, its wheel rusted in '
         'place."]', "reveal = []", "things[0].reveal"),
        ("thing_unknown_key", 'id = "pressure_door"', 'id = "pressure_door"\ncolour = "red"',
         "things[0].colour"),
        ("thing_bad_suit", 'suits = ["D"]', 'suits = ["H"]', "things[0].suits"),
        ("thing_bad_range", 'difficulty = [2, 5]', 'difficulty = [5, 2]', "things[0].difficulty"),
        ("thing_bad_kind", 'kind = "peril"', 'kind = "monster"', "things[0].kind"),
        ("item_thing_missing", 'card = "JK2"', 'card = "KS"', "things"),
        ("frame_without_cue", '"Far off, small in the gloom, you make out {cue}."',
         '"Far off, small in the gloom."', "grammar.sight.low"),
        ("wrong_type", 'name = "Hacking Device"', "name = 5", "items.JS.name"),
    ],
)
def test_broken_theme_files_are_refused(tmp_path: Path, edit: str, old: str, new: str, key: str
                                        ) -> None:
    path = _broken(tmp_path, edit, old, new)
    with pytest.raises(ContentError) as info:
        load_theme(str(path))
    assert info.value.file == path.name
    assert info.value.key.startswith(key) or key in info.value.key, info.value.message


def test_not_toml_and_missing_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("id = [", encoding="utf-8")
    with pytest.raises(ContentError, match="bad.toml: file: valid TOML"):
        load_theme(str(bad))
    with pytest.raises(ContentError, match="theme"):
        load_theme("space-opera")


def test_a_users_own_theme_file_plays(tmp_path: Path) -> None:
    from perils_testkit import R

    from pocketgalaxy.games.perils.options import PerilsOptions

    text = (PLAYSHEETS / "dungeon.toml").read_text(encoding="utf-8").replace(
        'id = "dungeon"', 'id = "mine"')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    state = R.new(PerilsOptions(theme=str(path), archetype="rogue"), 3)
    assert R.view(state, 0).theme == "mine"


def test_parse_theme_reports_the_file_name() -> None:
    data = tomllib.loads((PLAYSHEETS / "dungeon.toml").read_text(encoding="utf-8"))
    del data["grammar"]
    with pytest.raises(ContentError, match="^mine.toml: grammar: "):
        parse_theme(data, "mine.toml")


def test_an_old_format_playsheet_is_refused_with_how_to_convert() -> None:
    data = tomllib.loads((PLAYSHEETS / "dungeon.toml").read_text(encoding="utf-8"))
    data["perils"] = {"D": {"low": ["A door."], "mid": ["A bear."], "high": ["A wall."]}}
    with pytest.raises(ContentError) as info:
        parse_theme(data, "old.toml")
    assert info.value.key == "perils"
    assert "[[things]]" in info.value.message and "docs/themes.md" in info.value.message

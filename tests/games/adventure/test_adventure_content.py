"""The card file loads, covers all 24 identities, and a broken file names file and key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pocketgalaxy.core.errors import ContentError
from pocketgalaxy.games.adventure import CARDS
from pocketgalaxy.games.adventure.content import DEFAULT_FILE, load_cards, parse_cards


def test_packaged_cards_load_with_names_and_descriptions() -> None:
    cards = load_cards()
    assert list(cards.cards) == list(CARDS)
    assert {p.colour for p in cards.packs.values()} == {"blue", "black", "green", "yellow"}
    assert cards["S1"].pack == "S" and cards["S1"].number == 1 and cards["S1"].colour == "blue"
    assert len({c.name for c in cards.cards.values()}) == 24
    assert all(len(c.description) > 20 for c in cards.cards.values())


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = DEFAULT_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('[cards.P4]\nname = "', '[cards.P4]\nflavour = "x"\nname = "', "cards.P4.flavour"),
        ("[cards.M6]", "[cards.M7]", "cards.M7"),
        ('colour = "green"', 'colour = "teal"', "packs.A.colour"),
        ("format = 1", "format = 2", "format"),
        ('[cards.S2]\nname = "Paper Comet"', '[cards.S2]\nname = ""', "cards.S2.name"),
        ('name = "Jelly Moon"', 'name = "Kettle Rocket"', "name"),
        ('name = "Kettle Rocket"', "name = Kettle", "(syntax)"),
    ],
)
def test_broken_card_file_names_file_and_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(ContentError) as info:
        load_cards(path)
    assert str(path) in str(info.value) and key in info.value.key


def test_missing_description_and_missing_file(tmp_path: Path) -> None:
    data = tomllib.loads(DEFAULT_FILE.read_text(encoding="utf-8"))
    del data["cards"]["A3"]["description"]
    with pytest.raises(ContentError, match=r"cards\.A3\.description"):
        parse_cards(data, "mine.toml")
    with pytest.raises(ContentError, match=r"\(file\)"):
        load_cards(tmp_path / "nowhere.toml")

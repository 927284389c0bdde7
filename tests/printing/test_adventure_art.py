"""The shared card art file: the packaged one is complete and checked; a broken one is refused
with the key at fault; the SVG the printer makes from it fills every value."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from pocketgalaxy.core.errors import ContentError
from pocketgalaxy.games.adventure.identities import PACK_COLOURS
from pocketgalaxy.printing import adventure_art
from pocketgalaxy.printing.adventure_art import (
    IDENTITIES,
    card_values,
    load_art,
    parse_art,
    svg_document,
)

STATIC_ART = (Path(adventure_art.__file__).parents[1] / "web" / "static" / "art"
              / "adventure-cards.json")
SVG = "{http://www.w3.org/2000/svg}"


def _data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(STATIC_ART.read_text(encoding="utf-8"))
    return loaded


def test_the_packaged_art_has_every_card_and_pack() -> None:
    art = load_art()
    assert sorted(art.pictures) == sorted(IDENTITIES) and len(IDENTITIES) == 24
    assert list(art.packs) == ["S", "P", "A", "M"]
    assert [art.packs[p]["plural"] for p in "SPAM"] == ["Space ships", "Planets", "Aliens",
                                                       "Marvels"]
    assert set(PACK_COLOURS) == set(art.packs)
    # the printer reads the very file the web serves (cards.js fetches ../art/...)
    cards_js = (STATIC_ART.parents[1] / "js" / "cards.js").read_text(encoding="utf-8")
    assert '"../art/adventure-cards.json"' in cards_js


@pytest.mark.parametrize(("change", "key"), [
    (lambda d: d.update(format=2), "format"),
    (lambda d: d["packs"].pop("M"), "packs"),
    (lambda d: d["pictures"].pop("A3"), "pictures"),
    (lambda d: d["face"].append({"tag": "script", "text": "x"}), "face[6]"),
    (lambda d: d["face"][0].update(fill="$colour"), "face[0].fill"),
    (lambda d: d["test_back"][0].update(fill=["#fff"]), "test_back[0].fill"),
    (lambda d: d["pictures"]["S1"].clear(), "pictures.S1"),
])
def test_a_broken_art_file_is_refused_with_the_key(change: Any, key: str) -> None:
    data = _data()
    change(data)
    with pytest.raises(ContentError) as err:
        parse_art(data, "art.json")
    assert err.value.message.startswith(f"art.json: {key}: ")


def test_a_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "art.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ContentError, match=r"art.json: \(file\): valid UTF-8 JSON"):
        load_art(bad)


def test_the_printed_svg_fills_values_and_speaks_svglib() -> None:
    art = load_art()
    svg = svg_document(art.face + art.print_face, card_values(art, "P3", "Cinder Marble"),
                       lambda n: art.pictures["P3"])
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts == ["3", "3", "PLANET", "Cinder Marble"]
    assert root.get("font-family") == "Helvetica"
    weights = {t.get("font-weight") for t in root.iter(f"{SVG}text")}
    assert weights == {"bold", None}  # 700 became bold; plain texts keep no weight
    assert not any(v.startswith("$") for e in root.iter() for v in e.attrib.values())
    spots = [c for c in root.iter(f"{SVG}circle") if c.get("fill-opacity") == "0.5"]
    assert len(spots) == 2 and all(c.get("opacity") is None for c in spots)
    background = next(root.iter(f"{SVG}rect"))
    assert background.get("fill") == art.packs["P"]["color"]

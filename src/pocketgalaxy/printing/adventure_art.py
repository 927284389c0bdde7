"""The Adventure Cards art, read from the same data file the web draws it from.

`static/art/adventure-cards.json` holds the cards as SVG elements (faces, the 24 pictures, the
test-card back and the mission-card backs); `static/js/cards.js` turns them into the page's SVG
and this module turns them into SVG documents that svglib converts into ReportLab drawings.
Values written `$name` come from the card's pack (colours, names) or from the card itself.

Two small translations make svglib draw what a browser draws: a numeric `font-weight` becomes
`bold`/`normal` (svglib would look a font up by that name) and a shape's `opacity` becomes its
fill and stroke opacity (svglib reads only those). Every text is set in Helvetica.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from reportlab.graphics.shapes import Drawing
from svglib.svglib import svg2rlg

from pocketgalaxy.core.errors import ContentError

ART_FILE = "web/static/art/adventure-cards.json"
"""The art's path inside the pocketgalaxy package."""

FORMAT = 1
PACK_LETTERS = ("S", "P", "A", "M")
IDENTITIES: tuple[str, ...] = tuple(f"{p}{n}" for p in PACK_LETTERS for n in range(1, 7))
TAGS = frozenset({"rect", "circle", "ellipse", "path", "polygon", "line", "text", "picture"})
PACK_KEYS = ("name", "plural", "color", "ink", "pale")
CARD_VARS = ("number", "label", "card_name")
_LISTS = ("face", "print_face", "test_back", "mission_back")
_SVG = "http://www.w3.org/2000/svg"

Element = dict[str, Any]


@dataclass(frozen=True)
class CardArt:
    """The checked art: packs by letter, element lists, and each identity's picture."""

    size: tuple[int, int]
    packs: dict[str, dict[str, str]]
    face: tuple[Element, ...]
    print_face: tuple[Element, ...]
    pictures: dict[str, tuple[Element, ...]]
    test_back: tuple[Element, ...]
    mission_back: tuple[Element, ...]


def load_art(path: str | Path | None = None) -> CardArt:
    """Load and check the art (the packaged file when `path` is None); ContentError if broken."""
    if path is None:
        return _packaged()
    return _load(Path(path).read_bytes(), str(path))


@lru_cache(maxsize=1)
def _packaged() -> CardArt:
    source = resources.files("pocketgalaxy").joinpath(ART_FILE)
    return _load(source.read_bytes(), ART_FILE)


def _load(raw: bytes, file: str) -> CardArt:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ContentError(file, "(file)", f"valid UTF-8 JSON ({exc})") from exc
    return parse_art(data, file)


def parse_art(data: Any, file: str) -> CardArt:
    """Check parsed JSON against the art format; ContentError(file, key, expected) if not."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ContentError(file, "format", f"an object with format = {FORMAT}")
    size = data.get("size")
    if size != [100, 140]:
        raise ContentError(file, "size", "[100, 140], the drawing box of every card")
    packs_raw = data.get("packs")
    if not isinstance(packs_raw, dict) or sorted(packs_raw) != sorted(PACK_LETTERS):
        raise ContentError(file, "packs", f"one entry for each pack {', '.join(PACK_LETTERS)}")
    packs: dict[str, dict[str, str]] = {}
    for letter in PACK_LETTERS:
        pack = packs_raw[letter]
        if not isinstance(pack, dict) or not all(isinstance(pack.get(k), str) for k in PACK_KEYS):
            raise ContentError(file, f"packs.{letter}", f"texts {', '.join(PACK_KEYS)}")
        packs[letter] = {k: pack[k] for k in PACK_KEYS}
    known = set(PACK_KEYS) | set(CARD_VARS)
    lists = {key: _elements(data.get(key), file, key, known) for key in _LISTS}
    pictures_raw = data.get("pictures")
    if not isinstance(pictures_raw, dict) or sorted(pictures_raw) != sorted(IDENTITIES):
        raise ContentError(file, "pictures", "one list of elements for each of S1..M6")
    pictures = {i: _elements(pictures_raw[i], file, f"pictures.{i}", known) for i in IDENTITIES}
    return CardArt((100, 140), packs, lists["face"], lists["print_face"], pictures,
                   lists["test_back"], lists["mission_back"])


def _elements(raw: Any, file: str, key: str, known: set[str]) -> tuple[Element, ...]:
    if not isinstance(raw, list) or not raw:
        raise ContentError(file, key, "a non-empty list of elements")
    for i, element in enumerate(raw):
        where = f"{key}[{i}]"
        if not isinstance(element, dict) or element.get("tag") not in TAGS:
            raise ContentError(file, where, f"an element with tag one of {', '.join(sorted(TAGS))}")
        for name, value in element.items():
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                raise ContentError(file, f"{where}.{name}", "a text or a number")
            if isinstance(value, str) and value.startswith("$") and value[1:] not in known:
                raise ContentError(file, f"{where}.{name}",
                                   f"a known value ({', '.join(sorted(known))})")
    return tuple(raw)


def svg_document(elements: tuple[Element, ...], values: Mapping[str, str],
                 picture: Callable[[int | None], tuple[Element, ...]]) -> bytes:
    """An SVG document (100 x 140) of `elements` with `$name` values filled in; a picture
    element draws `picture(number)` (its `number` key, else the card's own)."""
    root = ET.Element("svg", {"xmlns": _SVG, "viewBox": "0 0 100 140", "width": "100",
                              "height": "140", "font-family": "Helvetica"})
    _draw(root, elements, values, picture)
    document: bytes = ET.tostring(root, encoding="utf-8")
    return document


def _draw(parent: ET.Element, elements: tuple[Element, ...], values: Mapping[str, str],
          picture: Callable[[int | None], tuple[Element, ...]]) -> None:
    for element in elements:
        attrs = {k: _fill(v, values) for k, v in element.items() if k not in ("tag", "text")}
        if element["tag"] == "picture":
            number = element.get("number")
            _draw(ET.SubElement(parent, "g"), picture(int(number) if number else None), values,
                  picture)
            continue
        if "font-weight" in attrs:
            attrs["font-weight"] = "bold" if attrs["font-weight"] in ("bold", "700", "800",
                                                                       "900") else "normal"
        if "opacity" in attrs:
            opacity = attrs.pop("opacity")
            attrs.setdefault("fill-opacity", opacity)
            attrs.setdefault("stroke-opacity", opacity)
        node = ET.SubElement(parent, element["tag"], attrs)
        if "text" in element:
            node.text = _fill(element["text"], values)


def _fill(value: str | int | float, values: Mapping[str, str]) -> str:
    if isinstance(value, str) and value.startswith("$"):
        return values[value[1:]]
    return str(value)


def card_values(art: CardArt, identity: str, card_name: str = "") -> dict[str, str]:
    """The `$name` values of one card: its pack's, its number, label and name."""
    pack = art.packs[identity[0]]
    return {**pack, "number": identity[1:], "label": pack["name"].upper(), "card_name": card_name}


def _to_drawing(svg: bytes) -> Drawing:
    drawing = svg2rlg(io.BytesIO(svg))
    if drawing is None:  # our own documents always parse; this guards a broken art file
        raise ContentError(ART_FILE, "(svg)", "elements svglib can draw")
    return drawing


@lru_cache(maxsize=64)
def face_drawing(identity: str, card_name: str) -> Drawing:
    """A card's face as printed: the web's face plus its name under the picture."""
    art = load_art()
    letter = identity[0]

    def picture(number: int | None) -> tuple[Element, ...]:
        return art.pictures[identity if number is None else f"{letter}{number}"]

    return _to_drawing(svg_document(art.face + art.print_face,
                                    card_values(art, identity, card_name), picture))


@lru_cache(maxsize=8)
def back_drawing(pack: str | None) -> Drawing:
    """The back of a test-card (`pack` None) or of a mission-card of `pack`, shaded in the
    pack's colour."""
    art = load_art()
    if pack is None:
        return _to_drawing(svg_document(art.test_back, {}, lambda n: ()))
    return _to_drawing(svg_document(art.mission_back, card_values(art, f"{pack}1"),
                                    lambda n: art.pictures[f"{pack}{n or 1}"]))

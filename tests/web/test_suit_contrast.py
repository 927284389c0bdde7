"""WCAG AA contrast of the suit symbols on the dark panels, computed from the CSS values.

base.css defines the panel backgrounds (--panel, --panel-2, --bg-2) and the suit colours
(--suit-D/H/C/S) as custom properties; tinycss2 reads them, and each suit must reach 4.5:1 (the AA
level for text) on every panel. The Perils open heart (a missing health point, perils.css) must
reach 3:1, the level for a meaningful graphic.
"""

from __future__ import annotations

from pathlib import Path

import tinycss2

STATIC = Path(__file__).resolve().parents[2] / "src" / "pocketgalaxy" / "web" / "static" / "css"
PANELS = ("--panel", "--panel-2", "--bg-2")
SUITS = ("--suit-D", "--suit-H", "--suit-C", "--suit-S")


def _root_variables(css: str) -> dict[str, str]:
    """Custom properties declared in :root rules (the later declaration wins, as in CSS)."""
    out: dict[str, str] = {}
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule" or tinycss2.serialize(rule.prelude).strip() != ":root":
            continue
        for decl in tinycss2.parse_blocks_contents(rule.content, skip_comments=True,
                                                   skip_whitespace=True):
            if decl.type == "declaration" and decl.name.startswith("--"):
                out[decl.name] = tinycss2.serialize(decl.value).strip()
    return out


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.lstrip("#")
    assert len(h) == 6, f"expected #rrggbb, got {hex_colour}"
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def luminance(hex_colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula_matches_known_pairs() -> None:
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48  # the classic just-fails grey


def test_every_suit_colour_is_aa_on_every_panel() -> None:
    variables = _root_variables((STATIC / "base.css").read_text(encoding="utf-8"))
    for panel in PANELS:
        for suit in SUITS:
            ratio = contrast(variables[suit], variables[panel])
            assert ratio >= 4.5, (suit, variables[suit], panel, variables[panel], ratio)


def test_suit_glyphs_use_the_variables() -> None:
    css = (STATIC / "base.css").read_text(encoding="utf-8")
    for suit in "DHCS":
        assert f'.suit-glyph[data-suit="{suit}"] {{ color: var(--suit-{suit}); }}' in css


def test_open_heart_is_visible_on_the_hero_panel() -> None:
    variables = _root_variables((STATIC / "base.css").read_text(encoding="utf-8"))
    rules = tinycss2.parse_stylesheet((STATIC / "perils.css").read_text(encoding="utf-8"),
                                      skip_comments=True, skip_whitespace=True)
    colour = None
    for rule in rules:
        if rule.type == "qualified-rule" and \
                tinycss2.serialize(rule.prelude).strip() == ".health .heart.empty":
            for decl in tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True):
                if decl.type == "declaration" and decl.name == "color":
                    colour = tinycss2.serialize(decl.value).strip()
    assert colour is not None
    assert contrast(colour, variables["--panel"]) >= 3.0

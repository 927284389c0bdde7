"""docs/rules/adventure.md names every rule and holds the option table against the code."""

from __future__ import annotations

from pathlib import Path

from pocketgalaxy.core.options import describe_options
from pocketgalaxy.games.adventure import AdventureOptions

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "adventure.md"


def _table_rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells
    return rows


def test_every_option_has_a_row_with_its_default_values_and_rule() -> None:
    rows = _table_rows()
    infos = describe_options(AdventureOptions)
    assert set(rows) == {i.name for i in infos}
    for info in infos:
        name, default, values, rule, reason = rows[info.name]
        assert default.strip("`") == repr(info.default).replace("'", '"'), info.name
        for choice in info.choices or ():
            assert f'"{choice}"' in values, (info.name, choice)
        assert info.rule in rule and reason


def test_every_numbered_rule_and_ruling_is_described() -> None:
    text = DOC.read_text(encoding="utf-8")
    for n in range(1, 15):
        assert f"AC-R{n}." in text
    for n in range(1, 17):
        assert f"AC-A{n}" in text

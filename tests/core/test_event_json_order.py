"""Event JSON never carries a set's hash order (it differs in every process)."""

from __future__ import annotations

from dataclasses import dataclass

from pocketgalaxy.core.game import Event


@dataclass(frozen=True, slots=True)
class _Marked(Event):
    cards: frozenset[str]
    seats: tuple[int, ...]
    audience: tuple[int, ...] | None = None


def test_a_frozenset_field_is_written_sorted_and_a_tuple_in_order() -> None:
    codes = ["M6", "A3", "S1", "P4", "M2", "A5", "S6", "P1"]
    data = _Marked(cards=frozenset(codes), seats=(2, 0, 1)).to_json()
    assert data == {
        "type": "_Marked",
        "cards": sorted(codes),
        "seats": [2, 0, 1],
        "audience": None,
    }

"""Card codes parse and print both ways; bad codes say what is expected."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pocketgalaxy.core.cards import DECK_54, Suit, card, parse_card
from pocketgalaxy.core.errors import CardCodeError


def test_deck_has_54_distinct_cards() -> None:
    assert len(DECK_54) == 54
    assert len(set(DECK_54)) == 54
    assert sum(1 for c in DECK_54 if parse_card(c).is_joker) == 2
    for suit in Suit:
        assert sum(1 for c in DECK_54 if parse_card(c).suit is suit) == 13


@pytest.mark.parametrize(
    ("text", "code", "rank", "suit"),
    [
        ("8D", "8D", 8, Suit.DIAMONDS),
        ("10c", "10C", 10, Suit.CLUBS),
        ("as", "AS", 1, Suit.SPADES),
        ("KH", "KH", 13, Suit.HEARTS),
        ("jk1", "JK1", 0, None),
        (" 7♠ ", "7S", 7, Suit.SPADES),
    ],
)
def test_parse_card(text: str, code: str, rank: int, suit: Suit | None) -> None:
    c = parse_card(text)
    assert (c.code, c.rank, c.suit) == (code, rank, suit)


@given(st.sampled_from(DECK_54))
def test_codes_round_trip(code: str) -> None:
    assert parse_card(code).code == code
    assert parse_card(code.lower()) is card(code)


@pytest.mark.parametrize("bad", ["", "1D", "11C", "ZZ", "10", "JK3", "AX"])
def test_bad_code_is_refused_with_what_is_expected(bad: str) -> None:
    with pytest.raises(CardCodeError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)
    assert "expected" in str(info.value)
    assert info.value.code == "card/bad_code"


def test_labels_and_kinds() -> None:
    assert parse_card("10C").label == "10♣"
    assert parse_card("JK2").label == "Joker 2"
    assert parse_card("QD").is_face and not parse_card("QD").is_number
    assert parse_card("AH").is_ace and parse_card("AH").suit.is_red  # type: ignore[union-attr]

"""Options refuse unknown keys and bad values; action JSON is parsed field by field."""

from dataclasses import dataclass
from typing import Literal

import pytest

from pocketgalaxy.core.errors import MalformedActionError, OptionsError
from pocketgalaxy.core.game import Action, parse_action
from pocketgalaxy.core.options import (
    describe_options,
    option,
    options_from_json,
    options_to_json,
    parse_option_value,
)


@dataclass(frozen=True, kw_only=True)
class _Opts:
    speed: int = option(2, "How many.", choices=(2, 3), rule="X-A1")
    mode: Literal["a", "b"] = option("a", "Which mode.")
    cap: int | None = option(None, "A cap or none.")
    strict: bool = option(False, "Be strict.")


@dataclass(frozen=True, slots=True)
class _Ask(Action):
    target: int
    card: str
    items: tuple[str, ...] = ()
    note: str | None = None


def test_describe_options_lists_every_field_with_doc_and_rule() -> None:
    infos = describe_options(_Opts)
    assert [i.name for i in infos] == ["speed", "mode", "cap", "strict"]
    assert infos[0].doc == "How many." and infos[0].rule == "X-A1" and infos[0].choices == (2, 3)


def test_options_round_trip_and_defaults() -> None:
    opts = options_from_json(_Opts, {"speed": 3, "cap": 5})
    assert options_to_json(opts) == {"speed": 3, "mode": "a", "cap": 5, "strict": False}
    assert options_from_json(_Opts, None) == _Opts()


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"nope": 1}, "unknown option"),
        ({"speed": 4}, "not allowed"),
        ({"mode": "c"}, "should be"),
        ({"strict": "yes"}, "should be"),
        ({"cap": "x"}, "should be"),
    ],
)
def test_bad_options_are_refused(data: dict[str, object], fragment: str) -> None:
    with pytest.raises(OptionsError, match=fragment):
        options_from_json(_Opts, data)


def test_parse_option_value_from_command_line_text() -> None:
    assert parse_option_value(_Opts, "strict", "true") is True
    assert parse_option_value(_Opts, "cap", "none") is None
    assert parse_option_value(_Opts, "speed", "3") == 3
    with pytest.raises(OptionsError, match="unknown option"):
        parse_option_value(_Opts, "bogus", "1")


def test_action_json_round_trip() -> None:
    act = _Ask(target=2, card="P4", items=("JD", "QS"))
    assert parse_action(act.to_json(), [_Ask]) == act
    assert act.to_json() == {
        "type": "_Ask",
        "target": 2,
        "card": "P4",
        "items": ["JD", "QS"],
        "note": None,
    }


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ("RequestCard", "JSON object"),
        ({"type": "Nope"}, "unknown action type"),
        ({"type": "_Ask", "card": "P4"}, "missing field 'target'"),
        ({"type": "_Ask", "target": True, "card": "P4"}, "whole number"),
        ({"type": "_Ask", "target": 1, "card": 4}, "should be text"),
        ({"type": "_Ask", "target": 1, "card": "P4", "extra": 1}, "unknown field"),
        ({"type": "_Ask", "target": 1, "card": "P4", "items": "JD"}, "should be a list"),
    ],
)
def test_malformed_actions_say_what_is_wrong(data: object, fragment: str) -> None:
    with pytest.raises(MalformedActionError, match=fragment) as info:
        parse_action(data, [_Ask])
    assert info.value.code == "action/malformed"

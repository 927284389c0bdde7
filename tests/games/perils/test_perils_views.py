"""Views: what each seat sees, as plain JSON, with no face-down card for the Hero or a watcher."""

from __future__ import annotations

import json

from perils_testkit import R, act, describe, new, take

from pocketgalaxy.games.perils.actions import DescribePathways


def test_teller_sees_faces_and_suggestions_the_hero_neither() -> None:
    state = new(draw=("9C", "JD", "5H"))
    teller, hero, watcher = (R.view(state, s) for s in (1, 0, None))
    assert [p.face for p in teller.pathways] == ["9C", "JD"]
    assert teller.suggestions == R.suggestions(state) and len(teller.suggestions) == 2
    assert teller.legal and teller.to_act == 1
    for view in (hero, watcher):
        assert view.suggestions is None and view.legal == ()
        assert [p.face for p in view.pathways] == [None, None]
        text = json.dumps(view.to_json())
        for code in ("9C", "JD", "5H", "AD", "AC", "AS", "AH"):
            assert f'"{code}"' not in text
        assert "rng" not in view.to_json() and view.draw_count == len(state.draw)
    assert (hero.role, watcher.role, teller.role) == ("hero", "watcher", "teller")


def test_hint_only_for_the_computers_own_words() -> None:
    state, _ = describe(new(draw=("9C", "JD"), clarity="plain", disguise="never"))
    assert [p.hint for p in R.view(state, 0).pathways] == [
        {"kind": "peril", "suit": "C", "band": "high"}, {"kind": "item"}]
    mine, _ = act(new(draw=("9C", "JD")), DescribePathways(("A dark stair.", "A glint.")))
    view = R.view(mine, 0)
    assert [p.hint for p in view.pathways] == [None, None]
    assert [p.description for p in view.pathways] == ["A dark stair.", "A glint."]


def test_view_json_round_trip_and_fields() -> None:
    state = new(draw=("JD", "4H", "9D", "5H"), rolls=(6,))
    state, _ = take(state, 0)
    state, _ = take(state, 0)
    view = R.view(state, 0)
    data = json.loads(json.dumps(view.to_json()))
    assert data["phase"] == "plan" and data["current"] == "9D" and data["difficulty"] == 9
    assert data["items"] == [{"code": "JD", "name": "Hydraulic Gauntlet",
                              "blurb": "A single armoured glove with a piston in every knuckle."}]
    assert [s["level"] for s in data["skills"]] == [2, 4, 6, 3]
    assert data["skills"][2]["name"] == "Piloting" and data["health"] == 3
    assert data["table"] == {"unchosen": 2, "spent": 0, "discarded": 0}
    assert data["big_bads_remaining"] == 3 and data["legal"][0]["type"] == "MakePlan"
    assert data["options"]["theme"] == "cosmic" and data["sense"] == "sound"


def test_actions_and_events_round_trip_as_json() -> None:
    from pocketgalaxy.core.errors import MalformedActionError, RecordError
    from pocketgalaxy.games.perils.actions import (
        ChooseArchetype,
        ChooseLostLevels,
        ChoosePathway,
        ChooseShuffleBack,
        JudgePlan,
        MakePlan,
        Roll,
    )

    actions = [ChooseArchetype("pilot"), DescribePathways(("a", "b")), ChoosePathway(1),
               MakePlan("S", ("JD",), "plan"), MakePlan(), JudgePlan(True, ("JD",), False),
               Roll(), ChooseLostLevels(("5C",)), ChooseShuffleBack(())]
    for action in actions:
        assert R.parse_action(json.loads(json.dumps(action.to_json()))) == action
    for bad in ({"type": "ChoosePathway", "position": True}, {"type": "Roll", "x": 1},
                {"type": "MakePlan", "channel": 3}, {"type": "Fly"}):
        try:
            R.parse_action(bad)
        except MalformedActionError:
            pass
        else:  # pragma: no cover
            raise AssertionError(bad)
    state, events = take(new(draw=("9C", "JD")), 0)
    for event in events:
        json.dumps(event.to_json())
    data = state.to_json()
    assert R.state_from_json(json.loads(json.dumps(data))).to_json() == data
    for key, value in (("health", "3"), ("phase", "dancing"), ("draw", data["draw"][1:])):
        broken = dict(data, **{key: value})
        try:
            R.state_from_json(broken)
        except RecordError:
            pass
        else:  # pragma: no cover
            raise AssertionError(key)

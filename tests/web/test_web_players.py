"""`GET /api/players?game=...` (web/players_api.py) and `bot` in the seats of a new game."""

from __future__ import annotations

from typing import Any

import pytest

from pocketgalaxy.agents import catalogue


def _error(res: Any, status: int, code: str) -> dict[str, Any]:
    assert res.status_code == status, res.text
    err: dict[str, Any] = res.json()["error"]
    assert err["code"] == code, err
    return err


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_players_is_the_catalogue_with_a_cache_lifetime(client: Any, game: str) -> None:
    res = client.get(f"/api/players?game={game}")
    assert res.status_code == 200, res.text
    assert res.headers["cache-control"] == "public, max-age=3600"
    assert res.headers["content-type"].startswith("application/json")
    body = res.json()
    assert body == catalogue.catalogue_json(game)
    specs = [p["spec"] for r in body["roles"] for p in r["players"]]
    assert specs == [e.spec for e in catalogue.entries(game)]
    for role in body["roles"]:
        for p in role["players"]:
            assert p["strength"]["text"] and p["label"] == f"{p['level']}: {p['description']}"


def test_perils_players_name_the_teller_styles_and_their_needs(client: Any) -> None:
    roles = {r["role"]: r for r in client.get("/api/players?game=perils").json()["roles"]}
    assert roles["hero"]["default"] == "planner"
    styles = {p["spec"]: p["options"] for p in roles["teller"]["players"]}
    assert styles == {"teller:style=fair": {}, "teller:style=generous": {"teller_policy": "human"},
                      "teller:style=harsh": {"teller_policy": "human"},
                      "teller:style=adaptive": {"teller_policy": "human"}}


def test_players_refuses_an_unknown_missing_or_oversized_game(client: Any) -> None:
    err = _error(client.get("/api/players?game=chess"), 404, "game/unknown")
    assert err["legal"] == ["adventure", "perils"]
    _error(client.get("/api/players"), 400, "request/malformed")
    _error(client.get("/api/players?game=" + "x" * 33), 400, "request/malformed")


def test_bot_in_a_seat_is_stored_as_the_default_it_means(client: Any, create: Any) -> None:
    made = create("adventure", [{"kind": "human"}, {"kind": "bot", "bot": "bot"},
                                {"kind": "bot", "bot": "forgetful:level=easy",
                                 "name": "Easy (computer)"}])
    seats = client.get(f"/api/games/{made['game_id']}").json()["seats"]
    assert [(s["kind"], s["bot"], s["name"]) for s in seats] == [
        ("human", None, "Player 1"), ("bot", "memory", "Memory (computer)"),
        ("bot", "forgetful:level=easy", "Easy (computer)")]


def test_a_perils_game_with_a_teller_style_and_a_bot_hero(client: Any, create: Any) -> None:
    made = create("perils", [{"kind": "bot", "bot": "bot"},
                             {"kind": "bot", "bot": "teller:style=harsh"}],
                  options={"teller_policy": "human"})
    summary = client.get(f"/api/games/{made['game_id']}").json()
    assert [s["bot"] for s in summary["seats"]] == ["planner", "teller:style=harsh"]
    assert summary["options"]["teller_policy"] == "human"


def test_an_unknown_seat_player_lists_bot_and_the_catalogue(client: Any) -> None:
    body = {"game": "perils", "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "wizard"}]}
    err = _error(client.post("/api/games", json=body), 400, "agent/unknown")
    assert "perils seat 2 (the Teller)" in err["message"]
    assert err["legal"][:5] == ["bot", "teller:style=fair", "teller:style=generous",
                                "teller:style=harsh", "teller:style=adaptive"]

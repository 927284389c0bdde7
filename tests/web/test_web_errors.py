"""Error replies carry a sentence for people (`explanation`) beside the code, rule and message."""

from __future__ import annotations

from typing import Any

from pocketgalaxy.games.adventure.explain import card_words

INTERNAL = ("RequestCard(", "ChooseArchetype(", "seat 0", "seat 1", "target=", "slot=",
            "card_in_own_hand", "not_your_turn", "illegal action")


def _game(create: Any) -> tuple[str, dict[int, str]]:
    made = create("adventure", [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
                  options={"first_player": "seat0"})
    return made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}


def test_a_refused_move_is_explained_in_the_players_words(client, create, bearer, hub):
    gid, tokens = _game(create)
    me = client.get(f"/api/games/{gid}/state?seat=0", headers=bearer(tokens[0])).json()
    held = me["view"]["hand"][0]
    url = f"/api/games/{gid}/actions"
    res = client.post(url, json={"seat": 0, "index": 0,
                                 "action": {"type": "RequestCard", "target": 1, "card": held}},
                      headers=bearer(tokens[0]))
    assert res.status_code == 409
    err = res.json()["error"]
    assert err["code"] == "action/card_in_own_hand" and err["rule"] == "AC-A2"
    assert err["explanation"] == (f"You already hold {card_words(held)}: ask for a card you "
                                  "don't have. (AC-A2)")
    assert "RequestCard(" in err["message"]  # the developer's text is kept as it was
    assert not [w for w in INTERNAL if w in err["explanation"]]
    assert hub.store.count_actions(gid) == 0

    # Bo, not to act, is told whose turn it is, by name and counted from 1.
    res = client.post(url, json={"seat": 1, "index": 0,
                                 "action": {"type": "RequestCard", "target": 0, "card": "S1"}},
                      headers=bearer(tokens[1]))
    err = res.json()["error"]
    assert err["explanation"] == "It is not your turn: wait for Ada (player 1) to play. (AC-R7)"
    assert err["legal"] == []


def test_the_servers_own_refusals_have_sentences_too(client, create, bearer):
    gid, tokens = _game(create)
    me = client.get(f"/api/games/{gid}/state?seat=0", headers=bearer(tokens[0])).json()
    res = client.post(f"/api/games/{gid}/actions",
                      json={"seat": 0, "index": 5, "action": me["legal"][0]},
                      headers=bearer(tokens[0]))
    err = res.json()["error"]
    assert err["code"] == "action/stale" and "rule" not in err
    assert err["explanation"] == ("Another move came first: look at the table again and choose "
                                  "again.")
    # A core error (bad options) explains itself with its own message.
    res = client.post("/api/games", json={"game": "adventure", "players": 2,
                                          "seats": [{"kind": "human"}, {"kind": "human"}],
                                          "options": {"no_such_option": 1}})
    err = res.json()["error"]
    assert err["code"] == "options/invalid" and err["explanation"] == err["message"]


def test_the_socket_sends_the_sentence_for_the_seats_own_view(client, create):
    made = create("perils", [{"kind": "human", "name": "Vera"}, {"kind": "bot"}])
    gid, token = made["game_id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": token, "since": 0})
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["view"]["phase"] == "archetype"
        ws.send_json({"type": "act", "index": snap["index"],
                      "action": {"type": "ChooseArchetype", "archetype": "wizard"}})
        msg = ws.receive_json()
        while msg["type"] != "error":
            msg = ws.receive_json()
    err = msg["error"]
    assert err["code"] == "action/no_such_archetype" and err["rule"] == "PP-R2"
    assert err["explanation"].startswith("'wizard' is not an archetype of this playsheet: "
                                         "choose ")
    assert err["explanation"].endswith("(PP-R2)") and "Pilot" in err["explanation"]
    assert not [w for w in INTERNAL if w in err["explanation"]]

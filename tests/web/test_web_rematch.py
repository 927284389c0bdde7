"""`POST /api/games/{id}/rematch`: one new game per finished game, seats handed over only to the
holders of the old seats' tokens, absent seats open or played by a computer as the creator chose."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.rematch import derive_token
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.tokens import new_token

Auth = Callable[[str], dict[str, str]]


def finished(client: TestClient, create: Any, receive_until: Any, *, game: str = "adventure",
             **extra: Any) -> dict[str, Any]:
    """Two people's seats, both handed to computer players by the creator, played to the end.

    The seats stay the people's (taken over), so their tokens still ask for the rematch."""
    options = {"teller_policy": "approve_all"} if game == "perils" else {}
    made: dict[str, Any] = create(
        game, [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Grace"}],
        options=options, **extra)
    gid = made["game_id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": None, "since": 0})
        receive_until(ws, lambda m: m.get("type") == "snapshot")
        for seat in (0, 1):
            bot = ("rulebased" if seat == 0 else "teller") if game == "perils" else "memory"
            res = client.post(f"/api/games/{gid}/seats/{seat}/takeover", json={"bot": bot},
                              headers={"Authorization": f"Bearer {made['creator_token']}"})
            assert res.status_code == 200, res.text
        receive_until(ws, lambda m: m.get("status") == "over")
    made["tokens"] = {s["seat"]: s["token"] for s in made["seats"]}
    return made


def ask(client: TestClient, gid: str, seat: int | None, token: str | None,
        **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(f"/api/games/{gid}/rematch", json={"seat": seat, **body}, headers=headers)



def games_in_store(hub: Hub) -> int:
    return hub.store.count_games()


@pytest.mark.parametrize("game", ["adventure", "perils"])
def test_a_rematch_has_the_same_seats_players_and_options_and_a_new_seed(
        client, create, receive_until, hub, bearer, game):
    old = finished(client, create, receive_until, game=game, turn_clock_s=600)
    gid = old["game_id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:  # seat 1 is here: it stays Grace's
        ws.send_json({"type": "hello", "seat": 1, "token": old["tokens"][1], "since": 0})
        receive_until(ws, lambda m: m.get("type") == "snapshot")
        res = ask(client, gid, 0, old["tokens"][0])
        assert res.status_code == 200, res.text
        moved = receive_until(ws, lambda m: m.get("type") == "rematch")
    reply = res.json()
    new_id = reply["game_id"]
    assert new_id != gid and reply["seat"] == 0
    assert reply["link"] == f"/play/{new_id}?seat=0#token={reply['token']}"
    assert reply["watch_link"] == f"/play/{new_id}"
    assert moved == {"type": "rematch", "game_id": gid,
                     "rematch": {"game_id": new_id, "watch_link": f"/play/{new_id}"}}

    before = client.get(f"/api/games/{gid}").json()
    after = client.get(f"/api/games/{new_id}").json()
    assert after["game"] == before["game"] == game and after["players"] == 2
    assert after["options"] == before["options"] and after["turn_clock_s"] == 600
    assert [(s["name"], s["kind"], s["open"]) for s in after["seats"]] == [
        ("Ada", "human", False), ("Grace", "human", False)]
    assert [s["taken_over"] for s in after["seats"]] == [False, False]  # people again
    assert after["index"] == 0 and after["status"] == "running"
    assert before["rematch"] == {"game_id": new_id, "watch_link": f"/play/{new_id}"}
    assert after["rematch"] is None
    old_seed = client.get(f"/api/games/{gid}/record").json()["seed"]
    new_seed = hub.get(new_id).session.record.seed
    assert isinstance(new_seed, int) and new_seed != old_seed
    # The new token plays seat 0 of the new game; the old one does not open it.
    state = client.get(f"/api/games/{new_id}/state?seat=0", headers=bearer(reply["token"]))
    assert state.status_code == 200 and state.json()["seat"] == 0
    stale = client.get(f"/api/games/{new_id}/state?seat=0", headers=bearer(old["tokens"][0]))
    assert stale.status_code == 401 and stale.json()["error"]["code"] == "auth/bad_token"


def test_repeated_and_simultaneous_asks_make_one_rematch(client, create, receive_until, hub):
    old = finished(client, create, receive_until)
    gid, tokens = old["game_id"], old["tokens"]
    count = games_in_store(hub)
    replies: list[Any] = []
    barrier = threading.Barrier(4)

    def press(seat: int) -> None:
        barrier.wait(timeout=30)
        replies.append((seat, ask(client, gid, seat, tokens[seat])))

    threads = [threading.Thread(target=press, args=(s,)) for s in (0, 0, 1, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(replies) == 4 and all(r.status_code == 200 for _s, r in replies)
    assert len({r.json()["game_id"] for _s, r in replies}) == 1
    assert games_in_store(hub) == count + 1
    by_seat: dict[int, set[str]] = {}
    for seat, res in replies:
        by_seat.setdefault(seat, set()).add(res.json()["token"])
    # Each seat is given one token, again and again, and the two seats' tokens differ.
    assert {s: len(t) for s, t in by_seat.items()} == {0: 1, 1: 1}
    assert by_seat[0] != by_seat[1]
    new_id = replies[0][1].json()["game_id"]
    # Asked again later: the same game, the same token, nothing new stored.
    again = ask(client, gid, 1, tokens[1]).json()
    assert again["game_id"] == new_id and {again["token"]} == by_seat[1]
    assert games_in_store(hub) == count + 1
    assert hub.store.load_game(gid).rematch_id == new_id  # durable: the row holds the link


def test_the_rematch_link_survives_a_restart(settings: Settings, create, receive_until):
    with TestClient(create_app(settings)) as client:
        made = client.post("/api/games", json={
            "game": "adventure", "players": 2, "seats": [{"kind": "bot"}, {"kind": "human"}]})
        old = made.json()
        gid, token = old["game_id"], old["seats"][1]["token"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello", "seat": None, "since": 0})
            receive_until(ws, lambda m: m.get("type") == "snapshot")
            client.post(f"/api/games/{gid}/seats/1/takeover", json={"bot": "memory"},
                        headers={"Authorization": f"Bearer {old['creator_token']}"})
            receive_until(ws, lambda m: m.get("status") == "over")
        first = ask(client, gid, 1, token).json()
    with TestClient(create_app(settings)) as client:
        again = ask(client, gid, 1, token)
        assert again.status_code == 200
        assert again.json() == first
        assert client.get(f"/api/games/{gid}").json()["rematch"]["game_id"] == first["game_id"]


def test_watchers_wrong_tokens_and_computer_seats_are_refused(client, create, receive_until,
                                                              hub):
    old = finished(client, create, receive_until)
    gid = old["game_id"]
    count = games_in_store(hub)
    watcher = ask(client, gid, None, None)
    assert watcher.status_code == 403
    error = watcher.json()["error"]
    assert error["code"] == "rematch/not_seated"
    assert "player seated at this game" in error["message"]
    no_body = client.post(f"/api/games/{gid}/rematch")
    assert no_body.status_code == 403
    wrong = ask(client, gid, 0, new_token())
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "auth/bad_token"
    crossed = ask(client, gid, 1, old["tokens"][0])  # seat 0's token does not ask for seat 1
    assert crossed.status_code == 401
    assert ask(client, gid, 5, old["tokens"][0]).json()["error"]["code"] == "seat/unknown"
    assert ask(client, "nosuchgame", 0, old["tokens"][0]).status_code == 404
    assert games_in_store(hub) == count and hub.store.load_game(gid).rematch_id is None


def test_an_unfinished_game_is_refused_409_and_changes_nothing(client, create, hub, bearer):
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    gid = made["game_id"]
    count = games_in_store(hub)
    res = ask(client, gid, 0, made["seats"][0]["token"])
    assert res.status_code == 409
    error = res.json()["error"]
    assert error["code"] == "rematch/not_finished" and "once it is over" in error["message"]
    assert games_in_store(hub) == count and hub.get(gid).rematch_id is None


def test_the_move_message_holds_no_token_and_each_seat_gets_only_its_own(
        client, create, receive_until):
    old = finished(client, create, receive_until)
    gid, tokens = old["game_id"], old["tokens"]
    with client.websocket_connect(f"/ws/{gid}") as watch, \
            client.websocket_connect(f"/ws/{gid}") as grace:
        watch.send_json({"type": "hello", "seat": None, "since": 0})
        receive_until(watch, lambda m: m.get("type") == "snapshot")
        grace.send_json({"type": "hello", "seat": 1, "token": tokens[1], "since": 0})
        receive_until(grace, lambda m: m.get("type") == "snapshot")
        reply = ask(client, gid, 0, tokens[0]).json()
        to_watcher = receive_until(watch, lambda m: m.get("type") == "rematch")
        to_grace = receive_until(grace, lambda m: m.get("type") == "rematch")
    new_id = reply["game_id"]
    grace_token = derive_token(tokens[1], new_id)
    assert to_watcher == to_grace  # the same public message for everyone
    assert set(reply) == {"game_id", "seat", "token", "link", "watch_link"}
    for text in (json.dumps(to_watcher), json.dumps(reply)):
        assert grace_token not in text
    assert reply["token"] == derive_token(tokens[0], new_id) != grace_token
    # Grace collects hers with her own old token; Ada's token cannot collect it.
    assert ask(client, gid, 1, tokens[0]).status_code == 401
    assert ask(client, gid, 1, tokens[1]).json()["token"] == grace_token
    # A reconnecting page of the old game learns of the rematch from its snapshot.
    with client.websocket_connect(f"/ws/{gid}") as late:
        late.send_json({"type": "hello", "seat": None, "since": 0})
        snap = receive_until(late, lambda m: m.get("type") == "snapshot")
    assert snap["rematch"] == {"game_id": new_id, "watch_link": f"/play/{new_id}"}


def test_an_absent_seat_becomes_open_by_default(client, create, receive_until, hub, bearer):
    old = finished(client, create, receive_until)
    gid, tokens = old["game_id"], old["tokens"]
    new_id = ask(client, gid, 0, tokens[0]).json()["game_id"]  # nobody is connected to seat 1
    seats = client.get(f"/api/games/{new_id}").json()["seats"]
    assert [(s["name"], s["open"], s["taken_over"]) for s in seats] == [
        ("Ada", False, False), ("Player 2", True, False)]
    listed = {g["game_id"]: g["open_seats"] for g in client.get("/api/games?open=true").json()}
    assert listed[new_id] == [1]
    # Its old holder may still take it while nobody else has: it is theirs then, not listed.
    mine = ask(client, gid, 1, tokens[1])
    assert mine.status_code == 200
    seats = client.get(f"/api/games/{new_id}").json()["seats"]
    assert seats[1]["open"] is False
    state = client.get(f"/api/games/{new_id}/state?seat=1", headers=bearer(mine.json()["token"]))
    assert state.status_code == 200


def test_an_open_seat_claimed_from_the_lobby_is_no_longer_its_old_holders(
        client, create, receive_until):
    old = finished(client, create, receive_until)
    gid, tokens = old["game_id"], old["tokens"]
    new_id = ask(client, gid, 0, tokens[0]).json()["game_id"]
    claimed = client.post(f"/api/games/{new_id}/seats/1/claim", json={"name": "Lin"})
    assert claimed.status_code == 200
    late = ask(client, gid, 1, tokens[1])
    assert late.status_code == 409
    error = late.json()["error"]
    assert error["code"] == "seat/not_open" and f"/play/{new_id}" in error["message"]
    assert client.get(f"/api/games/{new_id}").json()["seats"][1]["name"] == "Lin"


def test_an_absent_seat_is_played_by_a_computer_when_the_creator_chose_so(
        client, create, receive_until, bearer):
    old = finished(client, create, receive_until, rematch_absent="computer")
    gid, tokens = old["game_id"], old["tokens"]
    assert client.get(f"/api/games/{gid}").json()["rematch_absent"] == "computer"
    new_id = ask(client, gid, 0, tokens[0]).json()["game_id"]
    after = client.get(f"/api/games/{new_id}").json()
    assert after["rematch_absent"] == "computer"
    seats = after["seats"]
    assert [(s["name"], s["kind"], s["taken_over"], s["open"]) for s in seats] == [
        ("Ada", "human", False, False), ("Grace", "human", True, False)]
    assert seats[1]["bot"] == "memory" and seats[1]["takeover_reason"] == "rematch"
    # Grace comes back: she collects her seat and takes it back from the computer player.
    grace = ask(client, gid, 1, tokens[1]).json()["token"]
    back = client.post(f"/api/games/{new_id}/seats/1/return", headers=bearer(grace))
    assert back.status_code == 200, back.text
    assert back.json()["seats"][1]["taken_over"] is False


def test_rematch_absent_is_checked_at_creation(client, hub):
    count = games_in_store(hub)
    res = client.post("/api/games", json={
        "game": "adventure", "players": 2, "rematch_absent": "kick",
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert res.status_code == 400 and res.json()["error"]["code"] == "request/malformed"
    assert "rematch_absent" in res.text and games_in_store(hub) == count


def test_the_creator_token_is_handed_over_to_its_holder_only(client, create, receive_until,
                                                             bearer):
    old = finished(client, create, receive_until)
    gid, tokens = old["game_id"], old["tokens"]
    plain = ask(client, gid, 1, tokens[1], creator_token=new_token()).json()  # not the creator's
    assert "creator_token" not in plain
    mine = ask(client, gid, 0, tokens[0], creator_token=old["creator_token"]).json()
    assert mine["creator_token"] == derive_token(old["creator_token"], mine["game_id"])
    again = ask(client, gid, 0, tokens[0], creator_token=old["creator_token"]).json()
    assert again["creator_token"] == mine["creator_token"]
    res = client.post(f"/api/games/{mine['game_id']}/seats/1/takeover", json={"bot": "memory"},
                      headers=bearer(mine["creator_token"]))
    assert res.status_code == 200 and res.json()["seats"][1]["taken_over"] is True


@pytest.fixture
def one_game_an_hour(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0, rate_burst=10_000,
                        client_games_per_hour=1)
    with TestClient(create_app(settings)) as c:
        yield c


def test_creating_a_rematch_counts_against_the_clients_game_limit(one_game_an_hour,
                                                                  receive_until):
    client = one_game_an_hour

    def create(game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        res = client.post("/api/games", json={"game": game, "players": len(seats),
                                              "seats": seats, **extra})
        assert res.status_code == 201, res.text
        made: dict[str, Any] = res.json()
        return made

    old = finished(client, create, receive_until)  # the hour's one game
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    count = games_in_store(hub)
    res = ask(client, old["game_id"], 0, old["tokens"][0])
    assert res.status_code == 429 and res.json()["error"]["code"] == "limit/games_per_hour"
    assert games_in_store(hub) == count and hub.store.load_game(old["game_id"]).rematch_id is None

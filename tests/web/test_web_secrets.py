"""Hidden information, as a property over whole games: every payload a seat or a watcher receives
(snapshots, updates, REST state, action replies, error messages) is scanned for facts the
recipient could not know at that moment, judged against the true states rebuilt from the record.

- Adventure Cards: any test-card identity (S1..M6) outside the public mission layout and the
  recipient's own legal list must be one the recipient has held, or seen in an event that was
  visible to it, by then.
- Perils & Pathways: the Hero's and the watcher's payloads never hold the code of a face-down card
  that has never been face up (draw pile, pathways, unchosen cards), nor the seed or the rng state.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from pocketgalaxy.core.game import Event
from pocketgalaxy.core.record import GameRecord, start_state
from pocketgalaxy.registry import get_game

_IDENTITY = re.compile(r"\b[SPAM][1-6]\b")
_CARD = re.compile(r"\b(?:10|[2-9JQKA])[DCSH]\b|\bJK[12]\b")
_PUBLIC_KEYS = {"missions", "legal"}  # the layout is public; legal lists name what you may ask


def _strings(data: Any, skip: set[str] = frozenset()) -> Iterator[str]:  # type: ignore[assignment]
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            if key not in skip:
                yield from _strings(value, skip)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value, skip)


def _text(data: Any, noise: set[str], skip: set[str] = frozenset()) -> str:  # type: ignore[assignment]
    """The payload's strings joined, with the game's own random ids (game id, tokens) blanked:
    they are drawn from letters, digits, `-` and `_`, so one may contain `-M3-` or `_9D`."""
    text = " ".join(_strings(data, skip))
    for random_id in noise:
        text = text.replace(random_id, " ")
    return text


def _numbers(data: Any) -> Iterator[int]:
    if isinstance(data, bool):
        return
    if isinstance(data, int):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _numbers(value)
    elif isinstance(data, list):
        for value in data:
            yield from _numbers(value)


class Collector:
    """Every payload received per recipient, with the action index it was built at."""

    def __init__(self) -> None:
        self.got: dict[int | None, list[tuple[int, Any, Any]]] = {}

    def add(self, seat: int | None, index: int, payload: Any, sent: Any = None) -> None:
        self.got.setdefault(seat, []).append((index, payload, sent))


def _truth(game: str, record: GameRecord) -> tuple[list[Any], list[list[Event]]]:
    """The true state after each action (k -> the state after k actions), and each step's events."""
    rules = get_game(game)
    state = start_state(rules, record)
    states, events = [state], []
    for seat, data in record.actions:
        state, evs = rules.apply(state, seat, rules.parse_action(data))
        states.append(state)
        events.append(evs)
    return states, events


def _play_and_collect(client: Any, gid: str, seat: int, token: str, rng: random.Random,
                      collector: Collector) -> dict[str, Any]:
    """Play `seat` with random legal moves over a WebSocket, a watcher socket alongside, plus
    REST reads, some refused actions, and a reconnect; collect everything received."""
    headers = {"Authorization": f"Bearer {token}"}
    with client.websocket_connect(f"/ws/{gid}") as me, \
            client.websocket_connect(f"/ws/{gid}") as watcher:
        me.send_json({"type": "hello", "seat": seat, "token": token, "since": 0})
        watcher.send_json({"type": "hello", "seat": None, "token": None, "since": 0})
        msg = me.receive_json()
        acts = 0
        while True:
            collector.add(seat, msg.get("index", -1), msg)
            if msg.get("status") == "over":
                break
            if msg["type"] in ("snapshot", "update") and msg["legal"]:
                acts += 1
                if acts % 7 == 0:  # a stale action and an illegal one: their errors are scanned too
                    bad = {"type": "act", "action": msg["legal"][0], "index": msg["index"] - 1}
                    me.send_json(bad)
                    collector.add(seat, msg["index"], me.receive_json(), bad)
                    other = (seat + 1) % len(msg["seats"])
                    probe = {"type": "act", "index": msg["index"],
                             "action": {"type": "DeclareCard", "slot": 999, "card": "S1"}
                             if msg["game"] == "adventure" else
                             {"type": "ChoosePathway", "position": 99 + other}}
                    me.send_json(probe)
                    collector.add(seat, msg["index"], me.receive_json(), probe)
                if acts % 11 == 0:  # REST: state for the seat and the watcher
                    state = client.get(f"/api/games/{gid}/state", params={"seat": seat},
                                       headers=headers).json()
                    collector.add(seat, state["index"], state)
                    wstate = client.get(f"/api/games/{gid}/state").json()
                    collector.add(None, wstate["index"], wstate)
                if acts % 13 == 0:  # an action over REST instead of the socket
                    res = client.post(f"/api/games/{gid}/actions", headers=headers, json={
                        "seat": seat, "action": rng.choice(msg["legal"]), "index": msg["index"],
                    }).json()
                    collector.add(seat, res["index"], res)
                else:
                    me.send_json({"type": "act", "action": rng.choice(msg["legal"]),
                                  "index": msg["index"]})
            msg = me.receive_json()
        while True:
            wmsg = watcher.receive_json()
            collector.add(None, wmsg.get("index", -1), wmsg)
            if wmsg.get("status") == "over":
                break
    # A late reconnect with `since` mid-game, after the end (record available) is not scanned.
    return dict(msg)


def test_adventure_payloads_name_only_identities_the_recipient_could_know(client, create):
    made = create("adventure", [
        {"kind": "human"}, {"kind": "bot", "bot": "memory"}, {"kind": "bot", "bot": "forgetful"},
    ])
    gid, token = made["game_id"], made["seats"][0]["token"]
    collector = Collector()
    _play_and_collect(client, gid, 0, token, random.Random(21), collector)
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").json())
    states, events = _truth("adventure", record)
    n = len(record.actions)

    for recipient, payloads in collector.got.items():
        # knowledge[k]: identities this recipient may know once k actions are done.
        known: set[str] = set()
        knowledge: list[set[str]] = []
        for k in range(n + 1):
            if recipient is not None:
                known |= set(states[k].hands[recipient])
            if k > 0:
                for e in events[k - 1]:
                    if e.visible_to(recipient):
                        known |= set(_IDENTITY.findall(" ".join(_strings(e.to_json()))))
            knowledge.append(set(known))
        assert len(payloads) > 5
        for index, payload, sent in payloads:
            allowed = knowledge[min(max(index, 0), n)]
            if payload.get("type") == "error":
                allowed = allowed | set(_IDENTITY.findall(" ".join(_strings(sent))))
            seen = set(_IDENTITY.findall(_text(payload, {gid, token}, _PUBLIC_KEYS)))
            leaked = seen - allowed
            assert not leaked, (recipient, index, sorted(leaked), payload)


def _face_up(state: Any) -> set[str]:
    up = set(state.base) | set(state.damage) | set(state.inventory) | set(state.spent)
    up |= set(state.discarded) | set(state.limbo) | set(state.defeated) | set(state.failed)
    for cards in state.tucked.values():
        up |= set(cards)
    if state.current:
        up.add(state.current)
    if state.options.reveal_unchosen:
        up |= set(state.unchosen)
    return up


def _face_down(state: Any) -> set[str]:
    return set(state.draw) | set(state.pathways) | set(state.unchosen) | set(state.deck)


def test_perils_hero_and_watcher_never_see_face_down_cards_or_the_seed(client, create):
    from pocketgalaxy.games.perils.content import load_theme

    made = create("perils", [{"kind": "human", "name": "Hero"}, {"kind": "bot", "bot": "teller"}])
    gid, token = made["game_id"], made["seats"][0]["token"]
    collector = Collector()
    _play_and_collect(client, gid, 0, token, random.Random(8), collector)
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").json())
    states, _events = _truth("perils", record)
    n = len(record.actions)
    # Archetype cards are printed on the playsheet, so their identities are public content.
    theme = load_theme(states[0].options.theme)
    printed = {c for a in theme.archetypes for c in a.cards}
    ever_up: set[str] = set()
    secret: list[set[str]] = []
    for k in range(n + 1):
        ever_up |= _face_up(states[k])
        hidden = _face_down(states[k]) - ever_up - printed
        secret.append({c for c in hidden if not c.startswith("A")})  # the aces' places are rules
    secrets_of_rng = {record.seed} | {s.rng.state for s in states if s.rng.state > 10**6}
    assert set(collector.got) == {0, None}
    checked = 0
    for recipient, payloads in collector.got.items():
        for index, payload, _sent in payloads:
            if payload.get("status") == "over":
                continue  # after the end the table may be turned over; the record is public too
            text = _text(payload, {gid, token})
            hidden = secret[min(max(index, 0), n)]
            found = {c for c in _CARD.findall(text) if c in hidden}
            assert not found, (recipient, index, sorted(found))
            assert not (set(_numbers(payload)) & secrets_of_rng), (recipient, index)
            assert '"seed"' not in str(payload) and "rng" not in {
                s for s in _strings(payload)}, (recipient, index)
            checked += 1
    assert checked > 20

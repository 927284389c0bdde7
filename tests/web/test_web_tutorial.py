"""The lessons on the web: started by `POST /api/lessons/{game}`, coached for the learner's seat
only, played to the end through the API exactly like the terminal's lesson, and refusing
strangers, other games and unknown lessons."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session
from pocketgalaxy.tutorial import lesson_for
from pocketgalaxy.tutorial.coach import Coach
from pocketgalaxy.web.settings import Settings


@pytest.fixture
def settings(tmp_path: Any) -> Settings:
    # One client playing a whole lesson and polling the coach as fast as it can: the per-client
    # request rate (20/s, tested in test_web_limits.py) is lifted, or a fast machine gets a 429.
    return Settings(data_dir=tmp_path / "data", bot_delay_ms=0, rate_burst=10_000,
                    client_requests_per_s=0)


def _start(client: Any, game: str) -> tuple[str, str]:
    res = client.post(f"/api/lessons/{game}")
    assert res.status_code == 201, res.text
    made = res.json()
    assert made["lesson"] == game and made["learner"] == 0
    seat = made["seats"][0]
    assert seat["kind"] == "human" and seat["link"].startswith(f"/play/{made['game_id']}?seat=0")
    return made["game_id"], seat["token"]


def _coach(client: Any, gid: str, token: str) -> dict[str, Any]:
    """The coach's answer once it is the learner's turn or the game is over (bots are async)."""
    deadline = time.monotonic() + 30
    while True:
        res = client.get(f"/api/games/{gid}/lesson?seat=0",
                         headers={"Authorization": f"Bearer {token}"})
        assert res.status_code == 200, res.text
        body: dict[str, Any] = res.json()
        if body["over"] or body["advice"]["expected"] is not None:
            return body
        assert time.monotonic() < deadline, "the computer seat never moved"
        time.sleep(0.02)


def _terminal_record(game: str) -> list[Any]:
    """The lesson played as taught through a plain Session (as the terminal plays it)."""
    lesson = lesson_for(game)
    rules = get_game(game)
    coach = Coach(lesson, rules)
    agents = {s: make_agent(game, spec, s, lesson.players, seed=seed)
              for s, (spec, seed) in lesson.opponents.items()}
    session = Session(rules, coach.options, seed=lesson.seed, players=lesson.players,
                      pinned=lesson.pinned, agents=agents)
    while not session.is_over:
        if session.bot_to_act():
            session.step_bot()
            continue
        moves = [rules.parse_action(a) for s, a in session.record.actions if s == 0]
        advice = coach.advice(session.view(0), session.events_for(0), moves,
                              session.legal_actions(0))
        assert advice.expected is not None
        session.act(0, advice.expected)
    return [list(a) for a in session.record.actions]


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_a_lesson_plays_to_the_end_through_the_api(client: Any, game: str) -> None:
    gid, token = _start(client, game)
    first = _coach(client, gid, token)
    assert first["advice"]["step"] == 0 and first["advice"]["on_script"] is True
    assert first["lines"][0] == lesson_for(game).intro[0]
    assert [g["done"] for g in first["goals"]] == [False] * 7
    body = first
    for _ in range(400):
        if body["over"]:
            break
        res = client.post(f"/api/games/{gid}/actions",
                          headers={"Authorization": f"Bearer {token}"},
                          json={"seat": 0, "action": body["advice"]["expected"],
                                "index": body["index"]})
        assert res.status_code == 200, res.text
        body = _coach(client, gid, token)
    assert body["over"] is True
    assert all(g["done"] for g in body["goals"]), body["goals"]
    assert body["advice"]["line"].startswith("The lesson is over: this game showed 7 of 7")
    answer = client.get(f"/api/games/{gid}/record")
    assert answer.status_code == 200, answer.text
    record = answer.json()
    played = [[a["seat"], a["action"]] for a in record["actions"]]
    assert played == _terminal_record(game)  # the same game as in the terminal


def test_the_coach_reports_the_last_move(client: Any) -> None:
    gid, token = _start(client, "perils")
    body = _coach(client, gid, token)
    assert body["last_move"] == ""
    other = {"type": "ChoosePathway", "position": 2}
    res = client.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
                      json={"seat": 0, "action": other, "index": body["index"]})
    assert res.status_code == 200, res.text
    after = _coach(client, gid, token)
    assert after["last_move"].startswith("That is not the move of this step (take pathway 2)")
    assert after["advice"]["on_script"] is False
    assert after["advice"]["line"].startswith("Off the lesson's script")


def test_the_coach_tells_nothing_hidden(client: Any) -> None:
    gid, token = _start(client, "perils")
    body = _coach(client, gid, token)
    text = json.dumps(body)
    for hidden in ("9D", "5S", "8C", "7S", "QC", "AD", "draw", "pinned"):
        assert hidden not in text, hidden


def test_the_coach_answers_only_the_learner_of_a_lesson(client: Any, create: Any) -> None:
    gid, token = _start(client, "adventure")
    res = client.get(f"/api/games/{gid}/lesson?seat=0")
    assert res.status_code == 401 and res.json()["error"]["code"] == "auth/bad_token"
    res = client.get(f"/api/games/{gid}/lesson?seat=0",
                     headers={"Authorization": "Bearer not-the-token"})
    assert res.status_code == 401
    made = create("adventure", [{"kind": "human"}, {"kind": "bot", "bot": "memory"}])
    other = made["seats"][0]["token"]
    res = client.get(f"/api/games/{made['game_id']}/lesson?seat=0",
                     headers={"Authorization": f"Bearer {other}"})
    assert res.status_code == 404 and res.json()["error"]["code"] == "lesson/not_a_lesson"


def test_an_unknown_lesson_is_refused_and_creates_nothing(client: Any, hub: Any) -> None:
    before = len(hub.live)
    res = client.post("/api/lessons/chess")
    assert res.status_code == 404
    error = res.json()["error"]
    assert error["code"] == "lesson/unknown" and error["legal"] == ["perils", "adventure"]
    assert len(hub.live) == before


def test_the_coach_lines_follow_the_game_in_order(client: Any) -> None:
    gid, token = _start(client, "perils")
    body = _coach(client, gid, token)
    res = client.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
                      json={"seat": 0, "action": body["advice"]["expected"],
                            "index": body["index"]})
    assert res.status_code == 200, res.text
    lines = _coach(client, gid, token)["lines"]
    start = len(lesson_for("perils").intro)
    assert lines[start:start + 4] == [
        "Well done: that is the move this step teaches.",
        "Lesson: a pathway choice. Each round you pick one face-down pathway from the Teller's "
        "words alone; the others are set aside unseen.",
        "Revealed: the 5 of Spades (5S), a peril of difficulty 5.",
        "Passed without a roll: your level 6 is above the peril's 5 (rule PP-R12).",
    ]

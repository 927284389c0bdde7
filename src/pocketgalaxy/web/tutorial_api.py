"""The lessons on the web table: `POST /api/lessons/{game}` starts a guided first game, and
`GET /api/games/{id}/lesson?seat=S` gives the coach's words for the learner's seat.

A lesson is a normal game: created through the hub with the lesson's options, seed, pinned
deal and fixed computer-player seeds, so it is stored, resumed and replayed like any other. A
game is a lesson when its game, seed and pinned deal are the lesson's (that is its marker; the
pinned deal is never sent to a page). The coach route answers only the learner's seat with its
token, and the coach reads only that seat's view and events, so it tells nothing hidden. The
coach's work runs in a worker thread, not on the event loop.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from starlette.concurrency import run_in_threadpool

from pocketgalaxy.core.game import Action, Event, visible_events
from pocketgalaxy.registry import get_game
from pocketgalaxy.tutorial import GAMES, Lesson, lesson_for
from pocketgalaxy.tutorial.coach import Coach
from pocketgalaxy.web.api import CheckedRoute, bearer
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.limits import Limits, client_address
from pocketgalaxy.web.live import LiveGame

router = APIRouter(prefix="/api", route_class=CheckedRoute)

MAX_LINES = 60
"""The coach's most recent lines sent with each answer (older ones scroll away)."""

_COACHES: dict[str, Coach] = {}


def _coach(lesson: Lesson) -> Coach:
    coach = _COACHES.get(lesson.game)
    if coach is None:
        coach = _COACHES[lesson.game] = Coach(lesson, get_game(lesson.game))
    return coach


def _lesson(game: str) -> Lesson:
    if game not in GAMES:
        raise WebError("lesson/unknown", f"there is no lesson for {game!r}", allowed=list(GAMES))
    return lesson_for(game)


def is_lesson(live: LiveGame, lesson: Lesson) -> bool:
    """True when the game is this lesson's: same game, seed and pinned deal."""
    record = live.session.record
    return (record.game == lesson.game and record.seed == lesson.seed
            and record.pinned == lesson.pinned)


@router.post("/lessons/{game}", status_code=201)
async def start_lesson(game: str, request: Request) -> dict[str, Any]:
    """Start a lesson; the reply is the hub's (the learner's seat link and token, shown once)
    with `lesson` (the game) and `learner` (the seat)."""
    lesson = _lesson(game)
    hub: Hub = request.app.state.hub
    limits: Limits = request.app.state.limits
    address = client_address(request.scope)
    limits.check_new_game(address, sum(1 for g in hub.live.values() if not g.session.is_over))
    names = lesson.seat_names or tuple(f"Seat {s + 1}" for s in range(lesson.players))
    seats = [
        {"kind": "bot", "bot": lesson.opponents[s][0], "name": names[s]}
        if s in lesson.opponents else {"kind": "human", "name": names[s]}
        for s in range(lesson.players)
    ]
    made = await hub.create(lesson.game, lesson.players, dict(lesson.options), seats,
                            seed=lesson.seed, pinned=lesson.pinned,
                            bot_seeds={s: seed for s, (_, seed) in lesson.opponents.items()})
    limits.game_created(address)
    return made | {"lesson": lesson.game, "learner": lesson.hero}


AuthHeader = Annotated[str | None, Header(alias="Authorization")]


@router.get("/games/{game_id}/lesson")
async def lesson_words(game_id: str, request: Request, seat: int,
                       authorization: AuthHeader = None) -> dict[str, Any]:
    """The coach for the learner's seat (Bearer token): the advice for the move to make (with
    the suggested action), what it said of the last move, its recent lines and the goals."""
    hub: Hub = request.app.state.hub
    live = await hub.fetch(game_id)
    who = await hub.authenticate(live, seat, bearer(authorization))
    await hub.settle(live)  # no action shown that is not stored yet
    game = live.rules.name
    lesson = lesson_for(game) if game in GAMES else None
    if lesson is None or not is_lesson(live, lesson):
        raise WebError("lesson/not_a_lesson", "this game is not a lesson")
    if who != lesson.hero:
        raise WebError("lesson/not_the_learner",
                       f"the coach speaks to the learner's seat {lesson.hero + 1}",
                       allowed=[str(lesson.hero)])
    session = live.session
    # Read what the seat may know on the loop (the hub changes the session there) ...
    hero = lesson.hero
    view = session.view(hero)
    legal = session.legal_actions(hero)
    actions = list(session.record.actions)
    by_step: dict[int, list[Event]] = {}
    for step, event in session.log:
        by_step.setdefault(step, []).append(event)
    groups = [(None if step < 0 or actions[step][0] != hero else actions[step][1],
               visible_events(found, hero)) for step, found in sorted(by_step.items())]
    # ... and let the coach think in a worker thread.
    return await run_in_threadpool(_words, lesson, view, groups, legal, len(actions))


def _words(lesson: Lesson, view: Any, groups: list[tuple[dict[str, Any] | None, list[Event]]],
           legal: list[Action], index: int) -> dict[str, Any]:
    coach = _coach(lesson)
    rules = coach.rules
    parsed = [(rules.parse_action(a) if a is not None else None, found) for a, found in groups]
    actions = [a for a, _ in parsed if a is not None]
    events = [e for _, found in parsed for e in found]
    advice = coach.advice(view, events, actions, legal)
    lines = coach.transcript(parsed)
    return {
        "lesson": lesson.game,
        "title": lesson.title,
        "learner": lesson.hero,
        "index": index,
        "advice": advice.to_json(),
        "last_move": coach.react_to_last(actions),
        "lines": lines[-MAX_LINES:],
        "goals": coach.progress_json(events),
        "over": getattr(view, "outcome", None) is not None,
    }

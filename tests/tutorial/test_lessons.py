"""The lessons played with the real rules: the taught moves reach every rule the lesson
promises (read from the game's own events), other legal moves are accepted and explained, and
a lesson never gets stuck whatever the learner does."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.adventure import events as aev
from pocketgalaxy.games.perils import events as pev
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session
from pocketgalaxy.tutorial import lesson_for
from pocketgalaxy.tutorial.coach import Advice, Coach


def _start(game: str) -> tuple[Session, Coach]:
    lesson = lesson_for(game)
    rules = get_game(game)
    coach = Coach(lesson, rules)
    agents = {s: make_agent(game, spec, s, lesson.players, seed=seed)
              for s, (spec, seed) in lesson.opponents.items()}
    session = Session(rules, coach.options, seed=lesson.seed, players=lesson.players,
                      pinned=lesson.pinned, agents=agents)
    return session, coach


def _moves(session: Session, hero: int) -> list[Action]:
    return [session.rules.parse_action(a) for s, a in session.record.actions if s == hero]


def _advice(session: Session, coach: Coach) -> Advice:
    hero = coach.lesson.hero
    return coach.advice(session.view(hero), session.events_for(hero), _moves(session, hero),
                        session.legal_actions(hero))


def play_lesson(game: str, pick: Any = None, limit: int = 400) -> tuple[Session, Coach,
                                                                        list[str]]:
    """Play the lesson: the learner makes the coach's move, or `pick(advice, legal)`'s."""
    session, coach = _start(game)
    hero = coach.lesson.hero
    said: list[str] = []
    for _ in range(limit):
        if session.is_over:
            break
        if session.bot_to_act():
            earlier = session.events_for(hero)
            before = len(session.log)
            session.step_bot()
            said.extend(coach.narrate(session.events_for(hero, before), earlier))
            continue
        advice = _advice(session, coach)
        legal = session.legal_actions(hero)
        assert advice.expected is not None
        assert advice.expected.to_json() in [a.to_json() for a in legal] or (
            advice.expected.to_json()["type"] == "MakePlan")
        action = advice.expected if pick is None else pick(advice, legal)
        earlier = session.events_for(hero)
        before = len(session.log)
        session.act(hero, action)
        said.append(coach.react(advice, action))
        said.extend(coach.narrate(session.events_for(hero, before), earlier))
    assert session.is_over, "the lesson did not end"
    return session, coach, said


def _kinds(events: list[Event]) -> Counter[str]:
    return Counter(type(e).__name__ for e in events)


def test_perils_lesson_as_taught_shows_every_rule() -> None:
    session, coach, said = play_lesson("perils")
    events = session.events_for(0)
    kinds = _kinds(events)
    assert coach.on_script(_moves(session, 0))
    assert len(_moves(session, 0)) > len(coach.lesson.steps)
    assert any(isinstance(e, pev.PathwayChosen) and not e.automatic for e in events)
    assert kinds["PerilPassed"] >= 1
    assert any(isinstance(e, pev.PlanMade) and e.channel and e.items for e in events)
    assert kinds["PerilFailed"] >= 1 and kinds["HealthLost"] >= 1
    assert kinds["HealthGained"] >= 1
    assert any(isinstance(e, pev.ZeroHealth) and e.stage == "main" for e in events)
    assert kinds["ShowdownBegan"] == 1 and kinds["BigBadFaced"] == 3
    assert [g.id for g in coach.reached(events)] == [g.id for g in coach.lesson.goals]
    assert session.outcome is not None and session.outcome.reason == "prize_won"
    for goal in coach.lesson.goals:  # each goal's lesson line is said exactly once
        assert sum(line.startswith(f"Lesson: {goal.title}.") for line in said) == 1
    assert "showed 7 of 7 lessons" in coach.closing(events)


def test_perils_lesson_order_follows_the_taught_rounds() -> None:
    session, coach, _ = play_lesson("perils")
    events = session.events_for(0)
    first = {g.id: g.first(events, 0) for g in coach.lesson.goals}
    order = sorted(first, key=lambda k: first[k] or 0)
    assert order == ["choice", "autopass", "plan", "wound", "heal", "zero", "showdown"]


def test_adventure_lesson_as_taught_shows_every_rule() -> None:
    session, coach, said = play_lesson("adventure")
    events = session.events_for(0)
    assert coach.on_script(_moves(session, 0))
    mine = [e for e in events if getattr(e, "seat", getattr(e, "requester", None)) == 0]
    kinds = _kinds(mine)
    assert kinds["RequestGranted"] >= 1 and kinds["RequestRefused"] >= 1
    assert kinds["PeekSeen"] >= 1
    declared = [e for e in mine if isinstance(e, aev.CardDeclared)]
    assert any(e.correct for e in declared) and any(not e.correct for e in declared)
    claims = Counter(e.seat for e in events if isinstance(e, aev.MissionClaimed))
    assert claims[0] >= 1 and claims[0] == claims[1]
    outcome = session.outcome
    assert outcome is not None and outcome.reason == "all_missions_claimed"
    assert outcome.scores[0] == outcome.scores[1] and len(outcome.winners) == 1
    assert [g.id for g in coach.reached(events)] == [g.id for g in coach.lesson.goals]
    assert any("the card numbers decide" in line for line in said)


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_another_legal_move_is_accepted_and_explained(game: str) -> None:
    session, coach = _start(game)
    hero = coach.lesson.hero
    session.run_bots()  # the Teller describes the first pathways
    advice = _advice(session, coach)
    assert advice.on_script and advice.step == 0
    other = next(a for a in session.legal_actions(hero)
                 if not coach.lesson.same_move(coach.lesson.steps[0], a))
    session.act(hero, other)
    line = coach.react(advice, other, session.events_for(hero))
    left = [g.title for g in coach.lesson.goals if g not in coach.reached(
        session.events_for(hero))]
    assert line.endswith("Not shown yet: " + "; ".join(left) + ".")
    assert line.startswith("That is not the move of this step")
    assert coach.lesson.words.action_words(other) in line
    assert "allowed" in line
    session.run_bots()
    after = _advice(session, coach)
    assert not after.on_script and after.step is None
    assert after.line.startswith("Off the lesson's script")
    # Off the script the coach still suggests a move, and one the rules allow now (a plan's
    # text is free, so a MakePlan is compared by its type).
    assert after.expected is not None
    legal = [a.to_json() for a in session.legal_actions(hero)]
    assert after.expected.to_json() in legal or after.expected.to_json()["type"] == "MakePlan"


def _contrary(advice: Advice, legal: list[Action]) -> Action:
    """A learner who never makes the suggested move when another exists."""
    assert advice.expected is not None
    others = [a for a in legal if a.to_json() != advice.expected.to_json()]
    return others[-1] if others else legal[0]


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_a_contrary_learner_still_finishes_and_is_told_what_was_missed(game: str) -> None:
    session, coach, said = play_lesson(game, pick=_contrary, limit=3000)
    closing = coach.closing(session.events_for(coach.lesson.hero))
    done = len(coach.reached(session.events_for(coach.lesson.hero)))
    total = len(coach.lesson.goals)
    assert f"showed {done} of {total} lessons" in closing
    if done < total:
        assert "Not shown this time" in closing
    assert any(line.startswith("That is not the move of this step") for line in said)


def test_the_taught_moves_are_legal_when_their_turn_comes() -> None:
    for game in ("perils", "adventure"):
        session, coach = _start(game)
        hero = coach.lesson.hero
        for step in coach.lesson.steps:
            session.run_bots()
            legal = session.legal_actions(hero)
            assert any(coach.lesson.same_move(step, a) for a in legal), step.action
            session.act(hero, session.rules.parse_action(step.action))


def test_the_coach_cannot_tell_hidden_cards_apart() -> None:
    """Two deals that differ only in what Ada cannot see (a card of Bo's swapped with a table
    card) give Ada equal views, and the coach says and suggests the same in both."""
    from pocketgalaxy.games.adventure.actions import RequestCard

    lesson = lesson_for("adventure")
    rules = get_game("adventure")
    coach = Coach(lesson, rules)
    other = json.loads(json.dumps(lesson.pinned))
    hand, table = other["hands"][1], other["table"]
    i, j = hand.index("A3"), table.index("A1")
    hand[i], table[j] = table[j], hand[i]
    answers = []
    for pinned in (lesson.pinned, other):
        state = rules.new(coach.options, lesson.seed, players=2, pinned=pinned)
        session = Session(rules, coach.options, seed=lesson.seed, players=2, pinned=pinned)
        assert state.to_json()["table"] == pinned["table"]  # the deals really differ
        view = session.view(0)
        events = session.events_for(0)
        legal = session.legal_actions(0)
        off = [RequestCard(1, "S3")]  # any move other than the taught one: off the script
        answers.append((view.to_json(), coach.advice(view, events, off, legal).to_json(),
                        coach.narrate(events, [])))
    assert answers[0] == answers[1]
    assert answers[0][1]["on_script"] is False and answers[0][1]["expected"] is not None

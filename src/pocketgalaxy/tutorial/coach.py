"""The coach: a pure reader of the learner's view and events that says what happened, why, and
what to do next, for any lesson (lesson.py).

It sees only what the learner's seat may see (the view and the visible events) plus the
learner's own moves, so it can never tell a hidden card. Each shell (cli/tutorial_cmd.py, the
web's tutorial endpoint) calls `advice` before the learner moves, `react` after a move, and
`narrate` on the new events. Words are counted from 1 for people; rule codes stay in brackets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.game import Action, Event, GameRules
from pocketgalaxy.tutorial.lesson import Goal, Lesson, Step


@dataclass(frozen=True)
class Advice:
    """What the coach says before the learner moves: the line, the move it suggests (always a
    legal one, or None when it is not the learner's turn), and whether it is the lesson's own
    taught move (`step`, counted from 0) or the guide's suggestion off the script."""

    line: str
    expected: Action | None
    step: int | None
    on_script: bool
    keys: str = ""
    """What to type for the suggested move in the terminal (the web shows buttons instead)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "expected": self.expected.to_json() if self.expected is not None else None,
            "step": self.step,
            "on_script": self.on_script,
            "keys": self.keys,
        }


class Coach:
    """The coach of one lesson, over the rules of its game."""

    def __init__(self, lesson: Lesson, rules: GameRules[Any, Any]) -> None:
        self.lesson = lesson
        self.rules = rules
        self.options = rules.options_type(**lesson.options)

    # -- where the learner is -----------------------------------------------------------
    def on_script(self, moves: list[Action]) -> bool:
        """True while every taught move so far was made as taught (moves after the last step
        do not count)."""
        steps = self.lesson.steps
        return all(self.lesson.same_move(s, m) for s, m in zip(steps, moves, strict=False))

    def reached(self, events: list[Event]) -> list[Goal]:
        """The lesson's goals shown so far (in the lesson's order)."""
        hero = self.lesson.hero
        return [g for g in self.lesson.goals if g.first(events, hero) is not None]

    # -- before a move ------------------------------------------------------------------
    def advice(self, view: Any, events: list[Event], moves: list[Action],
               legal: list[Action]) -> Advice:
        """The line and the suggested move for the learner's turn (`legal`: their legal moves;
        empty when it is not their turn)."""
        if not legal:
            if getattr(view, "outcome", None) is not None:
                return Advice(self.closing(events), None, None, self.on_script(moves))
            return Advice("", None, None, self.on_script(moves))
        index = len(moves)
        step = self.lesson.taught(index) if self.on_script(moves) else None
        if step is not None:
            taught = self._legal_match(step, legal)
            if taught is not None:
                return Advice(step.say, taught, index, True,
                              self.lesson.words.keys(taught, view))
        guess = self.guide_move(view, events, legal)
        line = self.lesson.words.instruction(guess, view)
        if index == len(self.lesson.steps) and self.on_script(moves):
            line = "The taught part is done; play on as you like. Suggestion: " + line
        elif index > len(self.lesson.steps) and self.on_script(moves):
            line = "Suggestion: " + line
        elif not self.on_script(moves):
            line = "Off the lesson's script, a coach would say: " + line
        return Advice(line, guess, None, False, self.lesson.words.keys(guess, view))

    def _legal_match(self, step: Step, legal: list[Action]) -> Action | None:
        """The taught action, if a legal move matches it (legal lists may hold a canonical form,
        for example a plan with empty text)."""
        taught = self.rules.parse_action(step.action)
        for action in legal:
            if self.lesson.same_move(step, action):
                return taught
        return None

    def guide_move(self, view: Any, events: list[Event], legal: list[Action]) -> Action:
        """The guide's move: a fresh deterministic computer player told the learner's events,
        so the suggestion depends only on what the learner's seat may know."""
        spec, seed = self.lesson.guide
        hero = self.lesson.hero
        agent = make_agent(self.lesson.game, spec, hero, self.lesson.players, seed=seed)
        agent.reset(hero, self.lesson.players, self.options)
        agent.observe(events)
        return agent.act(view, legal)

    # -- after a move -------------------------------------------------------------------
    def react(self, before: Advice, action: Action, events: list[Event] | None = None) -> str:
        """What the coach says of the learner's move: praise for the taught move; for any
        other legal move, what it does and what it means for the lesson (with `events`, the
        learner's events so far, this move's included: which lessons are still to come)."""
        words = self.lesson.words
        if before.expected is None:
            return ""
        if before.on_script and before.step is not None:
            step = self.lesson.steps[before.step]
            if self.lesson.same_move(step, action):
                return "Well done: that is the move this step teaches."
            text = (f"That is not the move of this step ({words.action_words(before.expected)}),"
                    f" but it is allowed: {words.action_words(action)}. The deal was laid for the"
                    " taught moves, so some lessons may now come later or not at all; I will say"
                    " which at the end, and keep suggesting good moves.")
            if events is not None:
                done = {g.id for g in self.reached(events)}
                left = [g.title for g in self.lesson.goals if g.id not in done]
                if left:
                    text += " Not shown yet: " + "; ".join(left) + "."
            return text
        if action.to_json() == before.expected.to_json():
            return "Good: that is the move I suggested."
        return f"Your choice: {words.action_words(action)}. That is a legal move."

    def react_to_last(self, moves: list[Action], events: list[Event] | None = None) -> str:
        """What the coach says of the learner's last move judged by the script alone (for a
        shell that keeps no advice between requests): praise, an explanation, or nothing."""
        if not moves:
            return ""
        *before, last = moves
        if not self.on_script(before) or len(before) >= len(self.lesson.steps):
            return ""
        step = self.lesson.steps[len(before)]
        taught = self.rules.parse_action(step.action)
        index = len(before)
        return self.react(Advice(step.say, taught, index, True), last, events)

    def narrate(self, events: list[Event], earlier: list[Event]) -> list[str]:
        """Lines for the new `events` (what happened and why), and the lesson line of each goal
        reached for the first time."""
        hero = self.lesson.hero
        lines: list[str] = []
        seen = list(earlier)
        done = {g.id for g in self.reached(seen)}
        for event in events:
            text = self.lesson.words.event_line(event, hero, seen)
            if text:
                lines.append(text)
            for goal in self.lesson.goals:
                if goal.id not in done and goal.reached(event, hero, seen):
                    done.add(goal.id)
                    lines.append(f"Lesson: {goal.title}. {goal.line}")
            seen.append(event)
        return lines

    def transcript(self, groups: list[tuple[Action | None, list[Event]]]) -> list[str]:
        """Every line of the game so far, in order: the intro, then for each action (the setup
        first) what the coach said of the learner's move (`Action`, None for another seat's)
        and the lines for the events the learner saw from it."""
        lines = list(self.lesson.intro)
        seen: list[Event] = []
        moves: list[Action] = []
        for mine, events in groups:
            if mine is not None:
                moves.append(mine)
                said = self.react_to_last(moves, seen + events)
                if said:
                    lines.append(said)
            lines.extend(self.narrate(events, seen))
            seen.extend(events)
        return lines

    def closing(self, events: list[Event]) -> str:
        """The last word: which lessons this game showed, and honestly which it did not."""
        done = {g.id for g in self.reached(events)}
        missing = [g.title for g in self.lesson.goals if g.id not in done]
        total = len(self.lesson.goals)
        text = f"The lesson is over: this game showed {total - len(missing)} of {total} lessons."
        if missing:
            text += " Not shown this time: " + "; ".join(missing) + "."
            text += " Start the lesson again to see them with the taught moves."
        return text + " Ready for a real game? Start one with a new deal."

    def progress_json(self, events: list[Event]) -> list[dict[str, Any]]:
        done = {g.id for g in self.reached(events)}
        return [{"id": g.id, "title": g.title, "done": g.id in done} for g in self.lesson.goals]

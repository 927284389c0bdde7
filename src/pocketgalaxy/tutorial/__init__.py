"""Guided first games: one lesson per game (a pinned deal, the taught moves and the coach's
words, as data) and a small pure coach that both the terminal and the web use.

`lesson_for("perils")` / `lesson_for("adventure")` give the lesson; `coach.Coach` reads only the
learner's view and the events that seat may see, and says what happened, why, and what to try
next. docs/cli.md and docs/web-pages.md show how the shells use it.
"""

from __future__ import annotations

from pocketgalaxy.tutorial.lesson import GAMES, Lesson, lesson_for

__all__ = ["GAMES", "Lesson", "lesson_for"]

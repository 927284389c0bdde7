"""The documented rubric that judges a plan when teller_policy="rubric" (PP-A7, PP-R13).

A pure, deterministic function of the plan text, the declared sources and the theme's names:

- a channelled skill earns its bonus only when the plan text names the skill or one of its
  keywords; a committed item only when the text names the item or one of its keywords.
  Matching is case-insensitive and anchored at the start of a word ("piloting" matches the
  keyword "pilot"; "autopilot" does not);
- advantage is granted when the plan is detailed (at least `DETAILED_WORDS` words) and the
  approved sources reach `advantage_threshold` (None: never).

Refused items are not consumed (the rules keep them in the inventory).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pocketgalaxy.games.perils.content import Theme

DETAILED_WORDS = 20
_WORD = re.compile(r"[a-z0-9'-]+")


@dataclass(frozen=True)
class Judgement:
    approve_channel: bool
    approve_items: tuple[str, ...]
    advantage: bool


def word_count(text: str) -> int:
    return len(_WORD.findall(text.lower()))


def mentions(text: str, phrases: tuple[str, ...]) -> bool:
    """True when any phrase starts a word of `text` (case-insensitive)."""
    low = text.lower()
    for phrase in phrases:
        p = phrase.strip().lower()
        if p and re.search(r"(?<![a-z0-9])" + re.escape(p), low):
            return True
    return False


def skill_phrases(theme: Theme, suit: str) -> tuple[str, ...]:
    skill = theme.skills[suit]
    return (skill.name, *skill.keywords)


def item_phrases(theme: Theme, code: str) -> tuple[str, ...]:
    item = theme.items[code]
    return (item.name, *item.keywords)


def judge(
    plan: str,
    channel: str | None,
    items: tuple[str, ...],
    theme: Theme,
    advantage_threshold: int | None,
) -> Judgement:
    """Judge a plan by the rubric; see the module docstring."""
    approve_channel = channel is not None and mentions(plan, skill_phrases(theme, channel))
    approved = tuple(c for c in items if mentions(plan, item_phrases(theme, c)))
    sources = int(approve_channel) + len(approved)
    advantage = (
        advantage_threshold is not None
        and word_count(plan) >= DETAILED_WORDS
        and sources >= advantage_threshold
    )
    return Judgement(approve_channel, approved, advantage)


def approve_all(
    channel: str | None, items: tuple[str, ...], advantage_threshold: int | None
) -> Judgement:
    """teller_policy="approve_all": every declared source approved; advantage by count alone."""
    sources = int(channel is not None) + len(items)
    advantage = advantage_threshold is not None and sources >= advantage_threshold
    return Judgement(channel is not None, tuple(items), advantage)

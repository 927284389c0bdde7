"""What a plan's judgement says (PP-R13, PP-A7): the verdict, its reasons source by source and
what the roll-twice needed, as the rubric (games/perils/rubric.py) finds them, as
teller_policy="approve_all" grants them, or as a Teller overrules them; and the reasons as plain
JSON for the shells (docs/plans.md, "In the data").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pocketgalaxy.games.perils.content import Theme


# The verdict's classes write their own `__init__` (the dataclass keeps the fields, repr,
# equality and frozen guard): compiled, it stores the fields in C, where the dataclass-made one
# stays interpreted code (about 10,000 instructions for a `Judgement`). Parameters are the
# fields, in order, with the same defaults.
@dataclass(frozen=True)
class SourceCredit:
    """The judgement of one declared source. `reason`: used (it earned +1), named_only (named,
    never used), not_used (never used or named), approve_all, or teller (the Teller decided
    otherwise than the rubric found). `words`: the plan's words that used or named it;
    `hints`: words that would count."""

    kind: str
    code: str
    name: str
    credited: bool
    reason: str
    words: tuple[str, ...]
    hints: tuple[str, ...]

    def __init__(self, kind: str, code: str, name: str, credited: bool, reason: str,
                 words: tuple[str, ...], hints: tuple[str, ...]) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "credited", credited)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "words", words)
        object.__setattr__(self, "hints", hints)

    def to_json(self, value: int | None = None) -> dict[str, Any]:
        """The plain JSON; with `value`, the bonus the source brings as one more key (one
        dict built presized, not grown by a key afterwards)."""
        if value is None:
            return {"kind": self.kind, "code": self.code, "name": self.name,
                    "credited": self.credited, "reason": self.reason,
                    "words": list(self.words), "hints": list(self.hints)}
        return {"kind": self.kind, "code": self.code, "name": self.name,
                "credited": self.credited, "reason": self.reason, "words": list(self.words),
                "hints": list(self.hints), "value": value}


@dataclass(frozen=True)
class AdvantageCheck:
    """What the roll-twice needs and what the plan met: `threshold` approved sources (None:
    never), the thing's words (`thing_words` found in the plan), `steps_needed` steps."""

    threshold: int | None
    sources: int
    thing: str | None
    thing_words: tuple[str, ...]
    thing_hints: tuple[str, ...]
    steps: int
    steps_needed: int
    granted: bool

    def __init__(self, threshold: int | None, sources: int, thing: str | None,
                 thing_words: tuple[str, ...], thing_hints: tuple[str, ...], steps: int,
                 steps_needed: int, granted: bool) -> None:
        object.__setattr__(self, "threshold", threshold)
        object.__setattr__(self, "sources", sources)
        object.__setattr__(self, "thing", thing)
        object.__setattr__(self, "thing_words", thing_words)
        object.__setattr__(self, "thing_hints", thing_hints)
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "steps_needed", steps_needed)
        object.__setattr__(self, "granted", granted)

    def to_json(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "sources": self.sources, "thing": self.thing,
                "thing_words": list(self.thing_words), "thing_hints": list(self.thing_hints),
                "steps": self.steps, "steps_needed": self.steps_needed,
                "granted": self.granted}


@dataclass(frozen=True)
class Judgement:
    approve_channel: bool
    approve_items: tuple[str, ...]
    advantage: bool
    credits: tuple[SourceCredit, ...] = ()
    needs: AdvantageCheck | None = None

    def __init__(self, approve_channel: bool, approve_items: tuple[str, ...], advantage: bool,
                 credits: tuple[SourceCredit, ...] = (), needs: AdvantageCheck | None = None
                 ) -> None:
        object.__setattr__(self, "approve_channel", approve_channel)
        object.__setattr__(self, "approve_items", approve_items)
        object.__setattr__(self, "advantage", advantage)
        object.__setattr__(self, "credits", credits)
        object.__setattr__(self, "needs", needs)


def explanation_json(verdict: Judgement, skill_value: int | None = None) -> dict[str, Any]:
    """The reasons of a verdict as plain JSON (what the shells render). With `skill_value`,
    each source also says the bonus it brings (`value`): a credited skill `skill_value`, a
    credited item 1, anything else 0."""
    if skill_value is None:
        sources = [c.to_json() for c in verdict.credits]
    else:
        sources = [c.to_json((skill_value if c.kind == "skill" else 1) if c.credited else 0)
                   for c in verdict.credits]
    return {"sources": sources,
            "advantage": verdict.needs.to_json() if verdict.needs else None}


def approve_all(channel: str | None, items: tuple[str, ...], advantage_threshold: int | None,
                theme: Theme | None = None) -> Judgement:
    """teller_policy="approve_all": every declared source approved; advantage by count alone."""
    sources = int(channel is not None) + len(items)
    advantage = advantage_threshold is not None and sources >= advantage_threshold
    credits: list[SourceCredit] = []
    if channel is not None:
        name = theme.skills[channel].name if theme else channel
        credits.append(SourceCredit("skill", channel, name, True, "approve_all", (), ()))
    for code in items:
        name = theme.items[code].name if theme else code
        credits.append(SourceCredit("item", code, name, True, "approve_all", (), ()))
    needs = AdvantageCheck(advantage_threshold, sources, None, (), (), 0, 0, advantage)
    return Judgement(channel is not None, tuple(items), advantage, tuple(credits), needs)


def overruled(advice: Judgement, approve_channel: bool, approve_items: tuple[str, ...],
              advantage: bool) -> Judgement:
    """A Teller's own verdict with the rubric's reasons beside it: a source the Teller judged
    otherwise than the rubric gets the reason "teller"."""
    credits = []
    for c in advice.credits:
        mine = approve_channel if c.kind == "skill" else c.code in approve_items
        credits.append(c if mine == c.credited else
                       SourceCredit(c.kind, c.code, c.name, mine, "teller", c.words, c.hints))
    needs = advice.needs
    if needs is not None:
        sources = int(approve_channel) + len(approve_items)
        needs = AdvantageCheck(needs.threshold, sources, needs.thing, needs.thing_words,
                               needs.thing_hints, needs.steps, needs.steps_needed, advantage)
    return Judgement(approve_channel, approve_items, advantage, tuple(credits), needs)

"""A plan's judgement in words: what the rubric credits and why, source by source, and what the
roll-twice needs. The web page says the same words (web/static/js/perils_judgement.js; a test
holds the two together).

The input is the plain JSON of the reasons (`PlanJudged.reasons`, `PlanView.reasons`).
"""

from __future__ import annotations

from typing import Any

RUBRIC_SUMMARY = (
    "A skill counts when the plan says what you do with it; an item when the plan says how you "
    "use it, in the same sentence as its name. Names alone earn nothing."
)


def rubric_summary(threshold: int | None) -> str:
    """What the judge credits, and what the roll-twice needs, said before the plan is written."""
    if threshold is None:
        return RUBRIC_SUMMARY + " There is no roll-twice in this game."
    return (RUBRIC_SUMMARY + f" The roll-twice needs {threshold} approved sources, the thing "
            "itself dealt with, and 2 steps (sentences, or then / next / once ...).")


def _quoted(words: list[str]) -> str:
    return ", ".join(f"'{w}'" for w in words)


def _examples(hints: list[str]) -> str:
    return f" (words that count: {', '.join(hints)})" if hints else ""


def source_line(source: dict[str, Any]) -> str:
    """One source: "Agility: 'duck', 'roll' +1"."""
    plus = f"+{source.get('value', 1)}"
    name = source["name"]
    reason = source["reason"]
    words = list(source.get("words") or [])
    hints = list(source.get("hints") or [])
    skill = source["kind"] == "skill"
    if reason == "used":
        return f"{name}: {_quoted(words)} {plus}"
    if reason == "approve_all":
        return f"{name}: approved (every source is approved in this game) {plus}"
    if reason == "teller":
        return f"{name}: the Teller's decision {plus if source['credited'] else '+0'}"
    if reason == "named_only":
        if skill:
            return f"{name}: only named; say what you do with it{_examples(hints)} +0"
        return (f"{name}: named ({_quoted(words)}), but the plan never says how it is used"
                f"{_examples(hints)} +0")
    if skill:
        return f"{name}: the plan never says what you do with it{_examples(hints)} +0"
    return f"{name}: the plan never uses it{_examples(hints)} +0"


def _the(thing: str) -> str:
    """`"cargo loader"` -> `"the cargo loader"`; a name with its own article keeps it."""
    first = thing.split(" ", 1)[0].lower()
    return thing if first in ("a", "an", "the") else f"the {thing}"


def advantage_line(needs: dict[str, Any] | None) -> str | None:
    """What the roll-twice needs and what the plan met."""
    if needs is None:
        return None
    if needs.get("threshold") is None:
        return "Roll twice: never in this game."
    verdict = "granted" if needs["granted"] else "not granted"
    parts = [f"{needs['threshold']} approved sources (this plan has {needs['sources']})"]
    thing = needs.get("thing")
    if needs.get("steps_needed"):
        if thing:
            found = list(needs.get("thing_words") or [])
            hints = list(needs.get("thing_hints") or [])
            met = f"yes: {_quoted(found)}" if found else (
                f"no; words that count: {', '.join(hints)}" if hints else "no")
            parts.append(f"a step that deals with {_the(thing)} ({met})")
        else:
            parts.append("a step that deals with the thing faced (not known here)")
        parts.append(f"{needs['steps_needed']} steps that each do something "
                     f"(this plan has {needs['steps']})")
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"Roll twice {verdict}: it needs {joined}."


def judgement_lines(reasons: dict[str, Any] | None) -> list[str]:
    """Every line of the explanation (empty when there are no reasons)."""
    if not reasons:
        return []
    lines = [source_line(s) for s in reasons.get("sources") or []]
    adv = advantage_line(reasons.get("advantage"))
    if adv:
        lines.append(adv)
    return lines

"""The Perils & Pathways terminal screen: drawn from `PerilsView`s and filtered events only.

The Hero sees their skills, health and items, the pathways as face-down cards with the Teller's
words, the card being resolved and what just happened. The Teller additionally sees what their
own view holds: the faces of the pathways and the computer's suggested descriptions.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, TypeVar

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from pocketgalaxy.cli.cards import face_down, playing_card, suit_symbol
from pocketgalaxy.cli.common import help_table
from pocketgalaxy.cli.host import GameHost
from pocketgalaxy.cli.perils_judgement import judgement_lines, rubric_summary
from pocketgalaxy.cli.perils_words import (
    SENSE_WORDS,
    event_text,
    item_name,
    position_name,
)
from pocketgalaxy.core.cards import card as lookup
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.perils import actions as A
from pocketgalaxy.games.perils.content import Theme, load_theme

T = TypeVar("T")

OUTCOME_WORDS = {
    "prize_won": "the prize is won",
    "zero_health_in_showdown": "health ran out in the showdown",
    "big_bad_not_defeated": "a Big Bad was not defeated",
}
"""How each game end reads (the outcome's reason codes, PP-R22)."""

HELP = help_table(
    "Perils & Pathways: how to answer",
    [
        ("archetype", "type its number (or id)"),
        ("pathways", "type the pathway's number (1, 2, 3) or left / straight / right"),
        ("plan", "a skill to channel (D, C, S, its name, or Enter for none), then the items to use"
                 " (their numbers, like 1 3, or Enter for none), then one line saying how you use"
                 " them: the Teller approves a skill or item your words really use"),
        ("roll", "press Enter"),
        ("Teller", "Enter keeps the suggested description; judge plans with y / n"),
        ("anytime", "? help · save [NAME] · quit (offers to save) · Ctrl-C (offers to save)"),
        ("the rules", "[bold]pocketgalaxy rules perils[/] prints how to play; on the web table:"
                      " /rules/perils"),
    ],
)


def _theme(view: Any) -> Theme | None:
    try:
        return load_theme(view.theme)
    except PocketGalaxyError:
        return None


def _health_bar(health: int, max_health: int) -> Text:
    t = Text()
    t.append("♥" * max(0, health), style="bold red")
    t.append("♡" * max(0, max_health - health), style="dim red")
    t.append(f"  {health}/{max_health}")
    return t


def _heart_words(view: Any, heart: Any) -> str:
    """What the heart card is under these options (PP-A4): an anchor, a fourth skill, or the
    source of starting health."""
    label = " ".join(lookup(c).label for c in heart.base)
    you, your = ("you", "your") if view.role == "hero" else ("the Hero", "the Hero's")
    if view.options.get("heart_is_skill"):
        return f"Heart card {label}: {heart.name}, a skill {you} may channel; wounds tuck under it."
    if view.options.get("start_health") == "heart_card_value":
        return f"Heart card {label}: set {your} starting health; wounds tuck under it."
    return f"Heart card {label}: wounds tuck under it; its value is not {your} health."


def _archetype_cards(codes: Any, theme: Theme, options: dict[str, Any]) -> Text:
    """`Strength 2♦ · Agility 4♣ · Piloting 6♠ · heart card 3♥`: a skill per card, and the heart
    card named as what it is, so its number never reads like health."""
    parts = []
    for code in codes:
        c = lookup(code)
        suit = c.suit.value if c.suit is not None else ""
        if suit == "H" and not options.get("heart_is_skill"):
            name = "heart card"
        else:
            skill = theme.skills.get(suit)
            name = skill.name if skill else "item"
        parts.append(Text.assemble(f"{name} ", playing_card(code)))
    return Text(" · ").join(parts)


class PerilsScreen:
    """Screens and prompts for Perils & Pathways (either seat)."""

    help_text: RenderableType = HELP

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        """The game's seed: picks the playsheet's flavour lines (cosmetic only)."""
        self.cursor: dict[int, int] = {}
        self._count = 2

    # -- drawing ---------------------------------------------------------------------------
    def render(self, view: Any, events: list[Event]) -> RenderableType:
        """Everything the seat sees now, as one Rich renderable (tests render it to a string)."""
        theme = _theme(view)
        parts: list[RenderableType] = [self._header(view)]
        if view.archetype is not None:
            parts.append(self._hero_panel(view, theme))
        # The pathways panel already shows the Teller's words for the current pathways.
        skip = ("PathwaysDescribed",) if view.pathways else ()
        words = self.words([e for e in events if type(e).__name__ not in skip], theme)
        if words:
            parts.append(Panel(Text("\n".join(words)), title="What happened", border_style="dim"))
        if view.current is not None:
            parts.append(self._current(view, theme))
        if view.pathways:
            parts.append(self._pathways(view))
        if view.outcome:
            parts.append(self._outcome(view))
        return Group(*parts)

    def words(self, events: list[Event], theme: Theme | None) -> list[str]:
        out = []
        for e in events:
            if type(e).__name__ == "PathwaysLaid":
                self._count = getattr(e, "count", 2)
            text = event_text(e, theme, count=self._count, seed=self.seed)
            if text:
                out.append(text)
        return out

    def _header(self, view: Any) -> Text:
        t = Text(f"{view.theme_title}", style="bold magenta")
        if view.phase == "archetype":
            return t
        if view.round:
            t.append(f"  ·  round {view.round}")
        if view.sense:
            t.append(f"  ·  {SENSE_WORDS.get(view.sense, view.sense)}", style="cyan")
        t.append(f"  ·  {view.draw_count} cards left in the maze")
        t.append(f"  ·  Big Bads waiting: {view.big_bads_remaining}")
        t.append(f"  ·  you are the {view.role.title()}", style="bold")
        return t

    def _hero_panel(self, view: Any, theme: Theme | None) -> Panel:
        heart_skill = bool(view.options.get("heart_is_skill"))
        skills = Table(box=None, show_header=True, pad_edge=False)
        skills.add_column("skill")
        skills.add_column("card")
        skills.add_column("gained")
        skills.add_column("level", justify="right")
        for s in view.skills:
            if s.suit == "H" and not heart_skill:
                continue
            name = Text.assemble(suit_symbol(s.suit), f" {s.name}")
            base = Text(" ").join([playing_card(c) for c in s.base]) if s.base else Text("-")
            tucked = Text(" ").join([playing_card(c) for c in s.tucked]) if s.tucked else Text("")
            skills.add_row(name, base, tucked, Text(str(s.level), style="bold"))
        items = Table(box=None, show_header=False, pad_edge=False)
        for i, item in enumerate(view.items, 1):
            items.add_row(
                f"{i}.",
                playing_card(item.code),
                Text(item.name, style="bold"),
                Text(item.blurb, style="dim"),
            )
        health = Text.assemble(("Health ", "bold"), _health_bar(view.health, view.max_health))
        # Only the wounds still carried; every earlier one is in the log (healing closes one).
        wounds = list(getattr(view, "wounds", ()))
        if wounds:
            health.append(f"  wound{'s' if len(wounds) != 1 else ''}: ")
            health.append(Text(" ").join([playing_card(c) for c in wounds]))
        heart = view.skill("H")
        body: list[RenderableType] = [skills, health]
        if heart is not None and heart.base:
            body.append(Text(_heart_words(view, heart), style="dim"))
        body.append(
            Text("Items:", style="bold") if view.items else Text("Items: none", style="dim")
        )
        if view.items:
            body.append(items)
        title = f"The Hero: {view.archetype_name or view.archetype}"
        return Panel(Group(*body), title=title, border_style="green")

    def _pathways(self, view: Any) -> Panel:
        table = Table(box=None, show_header=False, pad_edge=False)
        n = len(view.pathways)
        for p in view.pathways:
            card = playing_card(p.face) if p.face else face_down()
            text = Text(
                p.description or "(not described yet)", style="italic" if p.description else "dim"
            )
            table.add_row(Text(position_name(p.position, n), style="bold"), card, text)
        if view.suggestions and view.phase == "describe":
            for i, s in enumerate(view.suggestions):
                table.add_row(
                    Text(f"suggested {i + 1}", style="dim"), Text(""), Text(s, style="dim italic")
                )
        sense = SENSE_WORDS.get(view.sense, view.sense)
        return Panel(table, title=f"Pathways ({sense})", border_style="cyan")

    def _current(self, view: Any, theme: Theme | None) -> Panel:
        code = view.current
        c = lookup(code)
        line = Text.assemble(playing_card(code), " ")
        if view.current_kind in ("peril", "big_bad") and c.suit is not None:
            skill = view.skill(c.suit.value)
            level = skill.level if skill else 0
            whose = "your" if view.role == "hero" else "the Hero's"
            line.append(
                f"tests {skill.name if skill else c.suit.value} ({whose} level {level}) "
                f"at difficulty {view.difficulty}"
            )
        elif view.current_kind:
            line.append(view.current_kind)
        body: list[RenderableType] = [line]
        odds = getattr(view, "odds", None)
        if odds is not None:
            # The same line as the web table (games/perils/odds.py).
            impossible = (odds.best or odds.now).impossible
            body.append(Text(odds.words, style="bold red" if impossible else "bold"))
        plan = view.plan
        if plan is not None:
            used = [item_name(theme, x) for x in plan.items]
            ch = (
                view.skill(plan.channel).name if plan.channel and view.skill(plan.channel) else None
            )
            body.append(
                Text(
                    f"Plan: channel {ch or 'nothing'}; items {', '.join(used) or 'none'}"
                    + (f"; “{plan.text}”" if plan.text else "")
                )
            )
            if plan.judged:
                body.append(
                    Text(f"Bonus +{plan.bonus}" + ("  with advantage" if plan.advantage else ""))
                )
                # The judgement, source by source (cli/perils_judgement.py); a long line
                # wraps under its own first word, not at the panel's edge.
                body.extend(Padding(Text(line, style="dim"), (0, 0, 0, 2)) for line in
                            judgement_lines(plan.reasons))
            if plan.rolls:
                body.append(Text(f"Rolled {', '.join(map(str, plan.rolls))}"))
        thing = getattr(theme, "things", {}).get(view.current_thing or "")
        title = f"Now: {thing.name}" if thing is not None else "Now"
        return Panel(Group(*body), title=title, border_style="yellow")

    def _outcome(self, view: Any) -> Panel:
        won = 0 in view.outcome.get("winners", [])
        text = Text(
            "The Hero wins!" if won else "The Hero is lost.",
            style="bold green" if won else "bold red",
        )
        code = str(view.outcome.get("reason", ""))
        reason = OUTCOME_WORDS.get(code, code.replace("_", " "))
        text.append(f"  ({reason})", style="dim")
        if view.prize:
            text.append(f"\nThe prize: {view.prize}")
        return Panel(text, title="The end", border_style="magenta")

    # -- the host's hooks --------------------------------------------------------------------
    def new_events(self, host: GameHost, seat: int) -> list[Event]:
        since = self.cursor.get(seat, 0)
        self.cursor[seat] = len(host.session.log)
        return host.session.events_for(seat, since)

    def show(self, host: GameHost, seat: int) -> None:
        view = host.session.view(seat)
        host.out.print(self.render(view, self.new_events(host, seat)))

    def after_action(self, host: GameHost, seat: int, events: list[Event]) -> None:
        """Nothing extra: the next screen narrates what the action caused."""

    def finish(self, host: GameHost) -> None:
        seat = host.humans[0] if host.humans else 0
        view = host.session.view(seat)
        host.out.print(self.render(view, self.new_events(host, seat)))

    def ask_action(self, host: GameHost, seat: int) -> Action:
        view = host.session.view(seat)
        ask = {
            "archetype": self._ask_archetype,
            "choose": self._ask_pathway,
            "plan": self._ask_plan,
            "roll": self._ask_roll,
            "describe": self._ask_describe,
            "judge": self._ask_judge,
            "lose_levels": self._ask_lost_levels,
            "shuffle_back": self._ask_shuffle_back,
        }.get(view.phase)
        if ask is None:
            raise PocketGalaxyError(
                f"the terminal cannot play phase {view.phase!r}", code="cli/unknown_phase"
            )
        while True:
            try:
                return ask(host, view)
            except _BadInput as exc:
                host.say_error(str(exc))

    # -- prompts -----------------------------------------------------------------------------
    def _ask_archetype(self, host: GameHost, view: Any) -> Action:
        theme = _theme(view)
        ids = [a["archetype"] for a in view.legal if a.get("type") == "ChooseArchetype"]
        table = Table(title="Choose your archetype", box=None)
        for i, aid in enumerate(ids, 1):
            arch = theme.archetype(aid) if theme else None
            cards = (_archetype_cards(arch.cards, theme, view.options) if arch and theme
                     else Text(""))
            table.add_row(
                f"{i}.",
                Text(arch.name if arch else aid, style="bold"),
                cards,
                Text(arch.blurb if arch else "", style="dim"),
            )
        host.out.print(table)
        chosen = _ask_until(host, f"Archetype (1-{len(ids)}): ",
                            lambda answer: _pick(answer, ids, "archetype"))
        return A.ChooseArchetype(archetype=chosen)

    def _ask_pathway(self, host: GameHost, view: Any) -> Action:
        n = len(view.pathways)
        names = list(_directions(n))
        also = f" or {' / '.join(names)}" if names else ""

        def parse(answer: str) -> int:
            low = answer.strip().lower()
            if not low:
                raise _BadInput(f"type a pathway's number, 1-{n}{also}")
            if low in names:
                return names.index(low)
            try:
                number = int(low)
            except ValueError:
                raise _BadInput(f"{answer!r} is not a pathway: type 1-{n}{also}") from None
            if not 1 <= number <= n:
                raise _BadInput(f"there is no pathway {number}: type 1-{n}{also}")
            return number - 1

        listed = f", {' / '.join(names)}" if names else ""
        position = _ask_until(host, f"Which pathway? (1-{n}{listed}): ", parse)
        return A.ChoosePathway(position=position)

    def _ask_plan(self, host: GameHost, view: Any) -> Action:
        plans = [a for a in view.legal if a.get("type") == "MakePlan"]
        channels = sorted({a["channel"] for a in plans if a.get("channel")})
        choices = ", ".join(
            f"{s} ({view.skill(s).name})" for s in channels if view.skill(s) is not None
        )
        channel = None
        # Each question is asked again on its own after a bad answer (never the whole plan).
        if channels:
            channel = _ask_until(host, f"Channel a skill for +1? [{choices}, Enter for none]: ",
                                 lambda answer: _pick_skill(answer, channels, view))
        items: tuple[str, ...] = ()
        if view.items:
            listing = ", ".join(f"{i}. {it.name}" for i, it in enumerate(view.items, 1))
            codes = [it.code for it in view.items]
            prompt = f"Use items, +1 each? [{listing}; numbers, Enter for none]: "
            if len(prompt) > 78:  # a long list is printed (wrapped at words), the prompt short
                host.out.print(f"Items: {escape(listing)}")
                prompt = "Use items, +1 each? (their numbers, Enter for none): "
            items = _ask_until(host, prompt, lambda answer: _pick_items(answer, codes))
        text = ""
        if channel or items:
            threshold = (view.options or {}).get("advantage_threshold")
            host.out.print(Text(rubric_summary(threshold), style="dim"))
            text = host.ask("How do you do it? Say what you do and how you use each item: ")
        return A.MakePlan(channel=channel, items=items, plan=text)

    def _ask_roll(self, host: GameHost, view: Any) -> Action:
        answer = host.ask("Press Enter to roll the die: ")
        if answer.strip().lower() not in ("", "r", "roll"):
            raise _BadInput("press Enter (or type roll) to roll")
        return A.Roll()

    def _ask_describe(self, host: GameHost, view: Any) -> Action:
        texts = []
        suggestions = list(view.suggestions or ())
        for p in view.pathways:
            hint = suggestions[p.position] if p.position < len(suggestions) else ""

            def parse(answer: str, hint: str = hint) -> str:
                text = answer.strip() or hint
                if not text:
                    raise _BadInput("a pathway needs a description: say what the Hero senses")
                if len(text) > A.MAX_DESCRIPTION:
                    raise _BadInput(f"a description is at most {A.MAX_DESCRIPTION} characters "
                                    f"(this one has {len(text)})")
                return text

            texts.append(_ask_until(
                host,
                f"Describe {position_name(p.position, len(view.pathways))} "
                f"({SENSE_WORDS.get(view.sense, view.sense)}; Enter keeps the suggestion): ",
                parse,
            ))
        return A.DescribePathways(descriptions=tuple(texts))

    def _ask_judge(self, host: GameHost, view: Any) -> Action:
        plan = view.plan
        # The rubric's advice is shown and is each question's default (Enter accepts it).
        advice = plan.reasons or {}
        said = {s["code"]: s["reason"] == "used" for s in advice.get("sources") or []}
        lines = judgement_lines(advice)
        if lines:
            host.out.print(Text("The rubric suggests:\n  " + "\n  ".join(lines), style="dim"))
        approve_channel = False
        if plan.channel:
            name = view.skill(plan.channel).name if view.skill(plan.channel) else plan.channel
            approve_channel = host.confirm(f"Does the plan really use {name}?",
                                           default=said.get(plan.channel, True))
        theme = _theme(view)
        approved = tuple(
            code
            for code in plan.items
            if host.confirm(f"Does it really use {item_name(theme, code)}?",
                            default=said.get(code, True))
        )
        granted = bool((advice.get("advantage") or {}).get("granted"))
        advantage = host.confirm("Is the plan especially impressive (advantage)?",
                                 default=granted)
        return A.JudgePlan(
            approve_channel=approve_channel, approve_items=approved, advantage=advantage
        )

    def _ask_lost_levels(self, host: GameHost, view: Any) -> Action:
        gained = [c for s in view.skills for c in s.tucked if s.suit != "H"]
        host.out.print(
            Text.assemble(
                f"Lose {view.levels_to_lose} gained level(s). Gained: ",
                *[Text.assemble(f"{i}.", playing_card(c), " ") for i, c in enumerate(gained, 1)],
            )
        )
        answer = host.ask(f"Which {view.levels_to_lose}? (numbers or card codes): ")
        cards = _pick_items(answer, gained)
        if len(cards) != view.levels_to_lose:
            raise _BadInput(f"choose exactly {view.levels_to_lose} card(s), got {len(cards)}")
        return A.ChooseLostLevels(cards=cards)

    def _ask_shuffle_back(self, host: GameHost, view: Any) -> Action:
        lost = list(view.lost_pending)
        host.out.print(
            Text.assemble(
                "Lost cards: ",
                *[Text.assemble(f"{i}.", playing_card(c), " ") for i, c in enumerate(lost, 1)],
            )
        )
        answer = host.ask("Which go back into the maze? (numbers or codes, Enter for none): ")
        return A.ChooseShuffleBack(cards=_pick_items(answer, lost))


class _BadInput(Exception):
    """A typed line that does not make an action; the prompt is asked again."""


def _ask_until(host: GameHost, prompt: str, parse: Callable[[str], T]) -> T:
    """Ask one question until `parse` accepts the answer (a bad answer says what is allowed
    and asks the same question again)."""
    while True:
        answer = host.ask(prompt)
        try:
            return parse(answer)
        except _BadInput as exc:
            host.say_error(str(exc))


def _directions(n: int) -> tuple[str, ...]:
    return {2: ("left", "right"), 3: ("left", "straight", "right")}.get(n, ())


def _pick(answer: str, ids: list[str], what: str) -> str:
    text = answer.strip()
    if text.isdigit() and 1 <= int(text) <= len(ids):
        return ids[int(text) - 1]
    for i in ids:
        if i.lower() == text.lower():
            return i
    if not text:
        raise _BadInput(f"type the {what}'s number, 1-{len(ids)}, or its name")
    raise _BadInput(f"{answer!r} is not an {what}: type 1-{len(ids)} or its name")


def _pick_skill(answer: str, channels: list[str], view: Any) -> str | None:
    """A suit letter (the one shown beside the skill), its symbol, or the skill's name (or
    the start of one name, three letters or more). A single letter is always a suit letter,
    never the start of a name: "S" is the skill shown as S."""
    text = answer.strip().lower()
    if text in ("", "none", "no", "-"):
        return None
    symbols = {"♦": "D", "♣": "C", "♠": "S", "♥": "H"}
    text = symbols.get(text, text).lower()
    for s in channels:
        if text == s.lower():
            return s
    names = {s: view.skill(s).name.lower() for s in channels if view.skill(s) is not None}
    for s, name in names.items():
        if text == name:
            return s
    starts = [s for s, name in names.items() if len(text) >= 3 and name.startswith(text)]
    if len(starts) == 1:
        return starts[0]
    shown = ", ".join(f"{s} ({view.skill(s).name})" if s in names else s for s in channels)
    raise _BadInput(
        f"{answer!r} is not a skill you can channel here: type {shown}, or Enter for none"
    )


def _pick_items(answer: str, codes: list[str]) -> tuple[str, ...]:
    text = answer.replace(",", " ").split()
    if not text or text == ["none"]:
        return ()
    picked: list[str] = []
    for word in text:
        code = None
        if word.isdigit() and 1 <= int(word) <= len(codes):
            code = codes[int(word) - 1]
        else:
            try:
                wanted = lookup(word.upper()).code
            except PocketGalaxyError:
                wanted = None
            if wanted in codes:
                code = wanted
        if code is None:
            raise _BadInput(f"{word!r} is not one of the numbers 1-{len(codes)}")
        if code in picked:
            raise _BadInput(f"{word!r} is listed twice")
        picked.append(code)
    return tuple(picked)


def render_text(view: Any, events: list[Event], width: int = 100) -> str:
    """The screen as plain text (for tests and docs)."""
    out = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    out.print(PerilsScreen().render(view, events))
    return out.export_text()

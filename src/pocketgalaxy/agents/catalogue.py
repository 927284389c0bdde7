"""The catalogue of computer players: one list, by game and role, for every shell.

Each entry is a player a person may choose: its spec (the stable name the API and the command
line take, built by `agents.registry.make_agent`), a level name and a one-line description in
player words, and its measured strength, read from `strength.json` beside this module (written
by `bench/measure_opponents.py`; docs/agents.md, *The catalogue*).

Roles: Adventure Cards has one role, `player` (any seat); Perils & Pathways has `hero` (seat 0)
and `teller` (seat 1). `bot` stands for the role's default entry wherever a computer player is
asked for (`resolve_spec`). Registry names that are not offered to people are listed in
`HIDDEN` with the reason; a test holds the catalogue, `HIDDEN` and the registry together.

Entry order is the order shown: weakest first. Nothing here depends on hash order.
"""

from __future__ import annotations

import json
import math
import textwrap
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError

BOT = "bot"
"""The alias for a role's default computer player."""

ROLES: dict[str, tuple[str, ...]] = {"adventure": ("player",), "perils": ("hero", "teller")}
"""game -> its roles, in seat order (Perils: seat 0 the Hero, seat 1 the Teller)."""

ROLE_WORDS = {"player": "player", "hero": "Hero", "teller": "Teller"}

STRENGTH_FILE = "strength.json"


@dataclass(frozen=True)
class Strength:
    """A measured win rate against a reference, with its 95% Wilson interval."""

    rate: float
    low: float
    high: float
    games: int
    lead: str
    """Who wins, in player words ("wins", "the Steady computer Hero wins")."""
    against: str
    """What the figure is measured against ("of mazes under the Fair Teller")."""
    reference: bool = False
    """True for the yardstick itself (its figure is the even share by construction)."""

    @property
    def margin(self) -> float:
        """Half the interval's width, for "62% (±3)"."""
        return (self.high - self.low) / 2

    def describe(self) -> str:
        """For example "wins 31% of 4-player games against three Normal players (±5, 300 games)"."""
        if self.reference:
            return "the yardstick: the others are measured in games against it"
        if self.rate == 0.0:  # an interval from 0 reads better as its upper end
            spread = f"at most {max(1, math.ceil(100 * self.high))}%"
        else:
            spread = f"±{max(1, round(100 * self.margin))}"
        return (f"{self.lead} {round(100 * self.rate)}% {self.against} "
                f"({spread}, {self.games} games)")

    def to_json(self) -> dict[str, Any]:
        return {"rate": self.rate, "low": self.low, "high": self.high, "games": self.games,
                "lead": self.lead, "against": self.against, "reference": self.reference,
                "text": self.describe()}


@dataclass(frozen=True)
class Entry:
    """One computer player a person can choose."""

    game: str
    role: str
    spec: str
    """The stable name for the API and the command line (`forgetful:level=easy`)."""
    level: str
    """The level in player words ("Easy", "Expert search")."""
    description: str
    """One line in player words ("forgets most of what it sees")."""
    default: bool = False
    """The role's default: what `bot` (or no name) means."""
    options: dict[str, Any] = field(default_factory=dict)
    """Rule options this player needs to take effect, applied unless the person set them
    (a Teller style judges plans only when the Teller seat judges: `teller_policy=human`)."""

    @property
    def name(self) -> str:
        """The registry name (`forgetful` in `forgetful:level=easy`)."""
        return self.spec.partition(":")[0]

    @property
    def strength(self) -> Strength:
        """The measured strength (every entry has one; a test holds the data file to it)."""
        return strength_of(self.game, self.spec)

    def label(self) -> str:
        """"Easy: forgets most of what it sees"."""
        return f"{self.level}: {self.description}"

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "role": self.role, "spec": self.spec, "name": self.name,
                "level": self.level, "description": self.description, "label": self.label(),
                "default": self.default, "options": dict(self.options),
                "strength": self.strength.to_json()}


_STYLE = {"teller_policy": "human"}

ENTRIES: tuple[Entry, ...] = (
    Entry("adventure", "player", "random", "Beginner",
          "picks any allowed move at random and remembers nothing"),
    Entry("adventure", "player", "forgetful:level=easy", "Easy",
          "forgets most of what it sees and often settles for a so-so move"),
    Entry("adventure", "player", "forgetful:level=normal", "Normal",
          "remembers some of what it sees, like a casual player"),
    Entry("adventure", "player", "forgetful:level=hard", "Hard",
          "forgets little and nearly always makes its best move"),
    Entry("adventure", "player", "memory", "Expert memory",
          "remembers every card it has seen and works out where the rest must be",
          default=True),
    Entry("adventure", "player", "ismcts:iterations=300", "Expert search",
          "imagines hundreds of possible hands before every move and plays the best on average"),
    Entry("perils", "hero", "random", "Beginner", "picks any allowed move at random"),
    Entry("perils", "hero", "rulebased", "Steady",
          "follows sensible habits, heals when hurt and keeps items for the Big Bads"),
    Entry("perils", "hero", "planner", "Expert",
          "weighs every pathway by playing the rest of the maze out in its head", default=True),
    Entry("perils", "teller", "teller:style=fair", "Fair",
          "judges every plan by the rubric, the same way every time", default=True),
    Entry("perils", "teller", "teller:style=generous", "Generous",
          "approves every skill and item you name, and grants a second die sooner",
          options=_STYLE),
    Entry("perils", "teller", "teller:style=harsh", "Harsh",
          "grants a second die only when your plan has a source to spare", options=_STYLE),
    Entry("perils", "teller", "teller:style=adaptive", "Adaptive",
          "kinder when you are losing, tougher when you are winning, to keep it tense",
          options=_STYLE),
)

HIDDEN: dict[tuple[str, str, str], str] = {
    ("perils", "teller", "random"): "describes and judges at random: no game for a person, "
    "kept for tests and simulations",
}
"""(game, role, registry name) -> why it is not offered to people (still accepted by name)."""


def roles(game: str) -> tuple[str, ...]:
    """The roles of `game` in seat order; refuses an unknown game with the list."""
    if game not in ROLES:
        raise PocketGalaxyError(f"unknown game {game!r}", code="game/unknown",
                                allowed=sorted(ROLES))
    return ROLES[game]


def role_of(game: str, seat: int) -> str:
    """The role at `seat`: Adventure's every seat is a `player`; Perils 0 `hero`, 1 `teller`."""
    names = roles(game)
    if game == "adventure":
        return names[0]
    if not 0 <= seat < len(names):
        raise PocketGalaxyError(f"{game} has no seat {seat + 1}", code="agent/unknown",
                                allowed=[str(s) for s in range(len(names))])
    return names[seat]


def entries(game: str, role: str | None = None) -> list[Entry]:
    """The entries of `game` (and `role`), weakest first."""
    if role is not None and role not in roles(game):
        raise PocketGalaxyError(f"{game} has no role {role!r}", code="agent/unknown",
                                allowed=list(roles(game)))
    roles(game)
    return [e for e in ENTRIES if e.game == game and (role is None or e.role == role)]


def default_entry(game: str, role: str) -> Entry:
    """The role's default (what `bot` means)."""
    return next(e for e in entries(game, role) if e.default)


def resolve_spec(game: str, spec: str, seat: int) -> str:
    """`bot` (alone, any case) -> the default spec for the seat's role; any other spec as given.

    >>> resolve_spec("perils", "bot", 0), resolve_spec("adventure", "Bot", 2)
    ('planner', 'memory')
    """
    if spec.strip().lower() == BOT:
        return default_entry(game, role_of(game, seat)).spec
    return spec


def find(game: str, spec: str) -> Entry | None:
    """The entry with this exact spec, or None."""
    return next((e for e in ENTRIES if e.game == game and e.spec == spec.strip()), None)


def options_for(game: str, spec: str) -> dict[str, Any]:
    """The rule options a player needs (a Teller style: `teller_policy=human`). A spec outside
    the catalogue with a `style=` setting needs the same as the catalogued styles."""
    entry = find(game, spec)
    if entry is not None:
        return dict(entry.options)
    name, _, rest = spec.partition(":")
    if game == "perils" and name.strip() == "teller" and "style=" in rest:
        return dict(_STYLE)
    return {}


def help_line(game: str, role: str) -> str:
    """One line for a command's `--help`: every spec with its level, and what `bot` means.

    >>> help_line("perils", "hero").startswith("bot (= planner), random (Beginner)")
    True
    """
    items = [f"{BOT} (= {default_entry(game, role).spec})"]
    items += [f"{e.spec} ({e.level})" for e in entries(game, role)]
    return ", ".join(items)


def unknown_message(game: str, role: str, spec: str) -> str:
    """The refusal for a player name the registry does not know, listing the catalogue."""
    where = "" if game == "adventure" else f" for the {ROLE_WORDS[role]}"
    lines = [f"unknown computer player {spec!r}{where}. Choose one of:",
             f"  {BOT}: the default, {default_entry(game, role).spec}"]
    for e in entries(game, role):
        # Wrapped at word boundaries to fit 80 columns (after the terminal's "error: ").
        lines += textwrap.wrap(f"{e.spec}: {e.label()}", width=72, initial_indent="  ",
                               subsequent_indent="      ", break_long_words=False)
    return "\n".join(lines)


def catalogue_json(game: str) -> dict[str, Any]:
    """The catalogue of `game` for the API and `pocketgalaxy players --json`."""
    meta = _data()
    return {
        "game": game,
        "bot_alias": BOT,
        "roles": [
            {"role": r, "seat": None if game == "adventure" else i, "words": ROLE_WORDS[r],
             "default": default_entry(game, r).spec,
             "players": [e.to_json() for e in entries(game, r)]}
            for i, r in enumerate(roles(game))
        ],
        "measured": {"command": meta.get("command"), "seed": meta.get("seed"),
                     "date": meta.get("date")},
    }


# -- the measured figures -----------------------------------------------------------------
@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    text = resources.files("pocketgalaxy.agents").joinpath(STRENGTH_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def strength_data() -> dict[str, Any]:
    """The whole measurement file (a copy)."""
    copy: dict[str, Any] = json.loads(json.dumps(_data()))
    return copy


def strength_of(game: str, spec: str) -> Strength:
    """The measured figure of one entry; a clear error when the data file lacks it."""
    row = _data().get("players", {}).get(game, {}).get(spec)
    if row is None:
        raise PocketGalaxyError(
            f"no measured strength for {game} {spec!r} in agents/{STRENGTH_FILE}: run "
            "bench/measure_opponents.py", code="agent/unmeasured")
    return Strength(rate=float(row["rate"]), low=float(row["low"]), high=float(row["high"]),
                    games=int(row["games"]), lead=str(row["lead"]),
                    against=str(row["against"]),
                    reference=bool(row.get("reference", False)))

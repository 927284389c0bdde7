"""What the die must show, and the chance of it (PP-R13, PP-R14, PP-R16, PP-A1, PP-A2, PP-A7).

`roll_odds` is the one pure function every shell uses: from the difficulty, the flat bonus,
advantage and the success comparison it gives the lowest die face that succeeds and the exact
chance (`fractions.Fraction`). `odds_for_state` says which bonus counts at each moment of a peril:
while planning, none yet and the most a plan could earn; while the Teller judges, the declared
sources if all are approved; before the roll, the approved bonus (and advantage if granted).
It reads only what the Hero already sees then (the face-up card, the skills, the items, the
plan and its verdict), so it is safe in every seat's view. `odds_words` is the line people read.

Compiled with mypyc (scripts/compile_core.py): a view is built at every decision, and while a
peril waits its odds with it. `RollOdds` and `PerilOdds` sit in views, which are pickled and
deep-copied, so each writes its own `__init__` (the dataclass-made one stays interpreted code)
and a `__reduce__` (a compiled class has no bare `__new__` for pickle and copy to use).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from functools import lru_cache
from typing import Any, Final

from pocketgalaxy.games.perils.options import PerilsOptions

DIE_FACES: Final = 6
_SKILL_SUITS: Final = ("D", "C", "S")


def _fields_of(obj: object) -> tuple[Any, ...]:
    """The constructor's arguments, in field order (for `__reduce__`)."""
    return tuple(getattr(obj, f.name) for f in fields(obj))  # type: ignore[arg-type]


@dataclass(frozen=True)
class RollOdds:
    """One roll's arithmetic. `needed` is the lowest face that succeeds (1 when any face does);
    None when no face can. `ways` counts the faces of one die that succeed (0..6)."""

    difficulty: int
    bonus: int
    advantage: bool
    strict: bool
    needed: int | None
    ways: int
    chance: Fraction

    def __init__(self, difficulty: int, bonus: int, advantage: bool, strict: bool,
                 needed: int | None, ways: int, chance: Fraction) -> None:
        object.__setattr__(self, "difficulty", difficulty)
        object.__setattr__(self, "bonus", bonus)
        object.__setattr__(self, "advantage", advantage)
        object.__setattr__(self, "strict", strict)
        object.__setattr__(self, "needed", needed)
        object.__setattr__(self, "ways", ways)
        object.__setattr__(self, "chance", chance)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), _fields_of(self))

    @property
    def impossible(self) -> bool:
        return self.ways == 0

    @property
    def certain(self) -> bool:
        return self.ways == DIE_FACES

    def to_json(self) -> dict[str, Any]:
        return {"difficulty": self.difficulty, "bonus": self.bonus, "advantage": self.advantage,
                "strict": self.strict, "needed": self.needed, "ways": self.ways,
                "chance": [self.chance.numerator, self.chance.denominator],
                "percent": percent(self.chance), "impossible": self.impossible,
                "certain": self.certain}


def roll_odds(difficulty: int, bonus: int, *, advantage: bool = False, strict: bool = False
              ) -> RollOdds:
    """The face a d6 must show so that face + bonus meets the difficulty (beats it if `strict`),
    and the chance: k/6 with one die, 1 - (1 - k/6)^2 with two dice keeping the higher."""
    return _roll_odds(difficulty, bonus, advantage, strict)


@lru_cache(maxsize=1024)
def _roll_odds(difficulty: int, bonus: int, advantage: bool, strict: bool) -> RollOdds:
    # Memoised: a pure function of four small values, and the result is immutable.
    lowest = difficulty - bonus + (1 if strict else 0)
    needed = max(lowest, 1)
    ways = max(0, DIE_FACES - needed + 1) if needed <= DIE_FACES else 0
    one = Fraction(ways, DIE_FACES)
    chance = 1 - (1 - one) ** 2 if advantage else one
    return RollOdds(difficulty, bonus, advantage, strict, needed if ways else None, ways, chance)


@lru_cache(maxsize=1024)
def percent(chance: Fraction) -> int:
    """Whole percent, rounded half up (never 0 or 100 unless exactly so; memoised)."""
    value = int(chance * 100 + Fraction(1, 2))
    if chance > 0 and value == 0:
        return 1
    if chance < 1 and value == 100:
        return 99
    return value


def _suit(code: str) -> str:
    return "*" if code.startswith("JK") else code[-1]


def best_bonus(peril: str, levels: dict[str, int], inventory: list[str],
               options: PerilsOptions) -> tuple[int, int]:
    """The most a plan could earn against `peril` and its number of sources: one channelled
    skill (+1, or its level) and every usable item (+1 each), all approved (PP-R13, PP-A6,
    PP-A8)."""
    peril_suit = _suit(peril)
    by_level = options.channel_bonus == "level"
    restricted = options.item_suit_restriction
    channels: list[str | None] = [None]
    for suit in _SKILL_SUITS + (("H",) if options.heart_is_skill else ()):
        if suit != peril_suit:
            channels.append(suit)
    # The largest (bonus, sources) pair, compared as tuples are.
    best_gain = best_sources = 0
    for channel in channels:
        gain = sources = 0
        if channel is not None:
            gain = levels[channel] if by_level else 1
            sources = 1
        items = len(inventory)
        if restricted:  # jokers (suit "*") fit every peril and channel
            items = 0
            for code in inventory:
                suit = _suit(code)
                if suit == "*" or suit == peril_suit or suit == channel:
                    items += 1
        gain += items
        sources += items
        if gain > best_gain or (gain == best_gain and sources > best_sources):
            best_gain, best_sources = gain, sources
    return best_gain, best_sources


@dataclass(frozen=True)
class PerilOdds:
    """The odds shown while a peril waits for its roll. `now`: with what counts at this moment;
    `best`: if every source that could still count is approved (None before the roll, when the
    bonus is settled). `moment`: plan, judge or roll."""

    moment: str
    now: RollOdds
    best: RollOdds | None
    words: str
    best_twice: RollOdds | None = None
    """`best` rolled with two dice, when the rules let the Teller grant the roll-twice."""

    def __init__(self, moment: str, now: RollOdds, best: RollOdds | None, words: str,
                 best_twice: RollOdds | None = None) -> None:
        object.__setattr__(self, "moment", moment)
        object.__setattr__(self, "now", now)
        object.__setattr__(self, "best", best)
        object.__setattr__(self, "words", words)
        object.__setattr__(self, "best_twice", best_twice)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), _fields_of(self))

    def to_json(self) -> dict[str, Any]:
        return {"moment": self.moment, "now": self.now.to_json(),
                "best": self.best.to_json() if self.best else None,
                "best_twice": self.best_twice.to_json() if self.best_twice else None,
                "words": self.words}


def odds_for_state(*, phase: str, current: str | None, difficulty: int | None,
                   levels: dict[str, int], inventory: list[str], options: PerilsOptions,
                   plan_channel: str | None, plan_items: list[str], judged_bonus: int,
                   advantage: bool, stage: str, hero: bool = True) -> PerilOdds | None:
    """The odds for the peril in play, or None when no roll is ahead. `hero`: the words speak
    to the Hero ("you need"); otherwise about the Hero ("the Hero needs")."""
    if current is None or difficulty is None or phase not in ("plan", "judge", "roll"):
        return None
    # The bonuses first (a few sums); the odds and their words then depend on a handful of
    # small numbers, remembered (views are built at every decision of a simulation).
    strict = options.success_comparison == ">"
    extra = levels[_suit(current)] if options.skill_adds_to_roll else 0
    sources = 0
    best: int | None = None
    if phase == "roll":
        now = judged_bonus + extra
    elif phase == "judge":
        declared = len(plan_items)
        if plan_channel is not None:
            declared += levels[plan_channel] if options.channel_bonus == "level" else 1
        sources = len(plan_items) + (plan_channel is not None)
        now, best = extra, declared + extra
    else:
        most, sources = best_bonus(current, levels, inventory, options)
        now, best = extra, most + extra
    # A person Teller may grant the roll-twice to any plan; the computer's policies need
    # `advantage_threshold` approved sources (PP-A7).
    threshold = options.advantage_threshold
    twice = best is not None and threshold is not None and (
        options.teller_policy == "human" or sources >= threshold)
    key = (phase, difficulty, now, advantage and phase == "roll", best, twice, strict,
           stage == "showdown", hero)
    odds = _ODDS.get(key)
    if odds is None:
        if len(_ODDS) > 4096:
            _ODDS.clear()
        odds = _ODDS[key] = _odds(phase, difficulty, now, advantage and phase == "roll", best,
                                  twice, strict, stage == "showdown", hero)
    return odds


_ODDS: dict[tuple[Any, ...], PerilOdds] = {}


def _odds(moment: str, difficulty: int, now_bonus: int, advantage: bool, best_total: int | None,
          twice: bool, strict: bool, showdown: bool, hero: bool) -> PerilOdds:
    now = roll_odds(difficulty, now_bonus, advantage=advantage, strict=strict)
    best = None if best_total is None else roll_odds(difficulty, best_total, strict=strict)
    best_twice = None
    if best_total is not None and twice:
        best_twice = roll_odds(difficulty, best_total, advantage=True, strict=strict)
    words = odds_words(moment, now, best, best_twice, showdown=showdown)
    if not hero:
        words = about_the_hero(words)
    return PerilOdds(moment, now, best, words, best_twice)


_ABOUT = (("you need", "the Hero needs"), ("you could earn", "the Hero could earn"),
          ("you can use", "the Hero can use"))


def about_the_hero(words: str) -> str:
    """The Teller's and watchers' wording of the Hero's line."""
    for mine, theirs in _ABOUT:
        words = words.replace(mine, theirs)
    return words


def _chance_words(odds: RollOdds) -> str:
    if odds.advantage:
        # Unreduced over 36 so the two dice stay visible in the numbers.
        ways = DIE_FACES * DIE_FACES - (DIE_FACES - odds.ways) ** 2
        return f"{ways} chances in 36 with two dice ({percent(odds.chance)}%)"
    return f"{odds.ways} chance{'s' if odds.ways != 1 else ''} in 6 ({percent(odds.chance)}%)"


def _need_words(odds: RollOdds) -> str:
    """"you need 5 or more on the die: 2 chances in 6 (33%)" (lower case, no full stop)."""
    if odds.impossible:
        return "even a 6 cannot reach it"
    if odds.certain:
        return f"any face will do: {_chance_words(odds)}"
    face = "a 6" if odds.needed == DIE_FACES else f"{odds.needed} or more"
    return f"you need {face} on the die: {_chance_words(odds)}"


def _bonus_words(bonus: int) -> str:
    return f"With +{bonus}" if bonus else "With no bonus"


def odds_words(moment: str, now: RollOdds, best: RollOdds | None,
               twice: RollOdds | None = None, *, showdown: bool) -> str:
    """The line both shells show, e.g. "The total must be 7 or more. With +2 you need 5 or more
    on the die: 2 chances in 6 (33%).". Says plainly when even a 6 cannot succeed."""
    target = f"more than {now.difficulty}" if now.strict else f"{now.difficulty} or more"
    head = f"The total must be {target}."
    lost = (" A failed Big Bad costs a wound, and at zero health in the showdown the Hero loses."
            if showdown else " A failure costs a wound.")
    if moment == "roll":
        if now.impossible:
            return (f"{head} Even a 6 {_bonus_words(now.bonus).lower()} cannot reach it: "
                    f"this roll will fail.{lost}")
        return f"{head} {_bonus_words(now.bonus)} {_need_words(now)}."
    assert best is not None
    if best.impossible:
        what = "every bonus you could earn" if moment == "plan" else "every bonus in this plan"
        return (f"{head} Even a 6 with {what} (+{best.bonus}) cannot reach it: the attempt "
                f"will fail.{lost} There is no way round it: make the plan and roll.")
    line = f"{head} {_bonus_words(now.bonus)} {_need_words(now)}."
    if best.bonus != now.bonus:
        who = ("if the Teller approves every source you can use" if moment == "plan"
               else "if the Teller approves every source in the plan")
        line += f" With +{best.bonus - now.bonus} ({who}) {_need_words(best)}."
    if twice is not None and not best.certain:
        line += f" Granted the roll-twice as well: {_chance_words(twice)}."
    return line

"""Tuning beyond the grid: Optuna's TPE sampler searches option ranges toward the target.

`--tune start_health=2..6 --tune pathways_per_round=2|3 --search optuna --trials 30` asks
Optuna (a seeded `TPESampler`: the study's seed gives the same trials in any process) for one
setting per trial. Each trial plays the study's games on the same deals as every other trial
(common random numbers) and scores them with the grid's distance from the target (tune.py),
which Optuna minimises. A setting asked for twice is scored from its first games, not replayed.

Ranges: `KEY=LOW..HIGH` is every whole number from LOW to HIGH (at most `MAX_RANGE_VALUES`
values, each checked against the option's allowed values before a game is played);
`KEY=V1|V2|V3` is a choice among values, as for the grid. At most `MAX_TRIALS` trials.

The report then holds the baseline and the best distinct settings (up to the study's variant
limit), named `trial-N` after the trial that first asked for them, ranked like the grid's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pocketgalaxy.core.errors import OptionsError
from pocketgalaxy.core.options import options_from_json, parse_option_value
from pocketgalaxy.registry import get_game
from pocketgalaxy.sim.balance.run import StudyRun
from pocketgalaxy.sim.balance.study import MAX_VARIANTS, Study, StudyError, Variant, build_study
from pocketgalaxy.sim.runner import GameResult

if TYPE_CHECKING:
    from pocketgalaxy.sim.balance.tune import Target

SEARCHES = ("grid", "optuna")
MAX_TRIALS = 500
MAX_RANGE_VALUES = 1000


@dataclass(frozen=True)
class Axis:
    """One searched option: whole numbers `low..high`, or a list of `choices`."""

    key: str
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] = ()

    def values(self) -> list[Any]:
        if self.choices:
            return list(self.choices)
        assert self.low is not None and self.high is not None
        return list(range(self.low, self.high + 1))


def parse_axes(game: str, flags: Sequence[str]) -> list[Axis]:
    """`["start_health=2..6", "pathways_per_round=2|3"]` -> axes, every value checked."""
    options_type = get_game(game).options_type
    axes: list[Axis] = []
    for flag in flags:
        key, eq, text = (part.strip() for part in flag.partition("="))
        if not eq or not key or not text:
            raise StudyError(f"bad --tune {flag!r}: expected KEY=LOW..HIGH or KEY=V1|V2|V3")
        if any(a.key == key for a in axes):
            raise StudyError(f"--tune names {key!r} twice: give each option once")
        low, dots, high = text.partition("..")
        try:
            if dots:
                try:
                    lo, hi = int(low), int(high)
                except ValueError:
                    raise StudyError(f"bad --tune {flag!r}: a range LOW..HIGH takes whole "
                                     "numbers, e.g. start_health=2..6") from None
                if not lo <= hi or hi - lo + 1 > MAX_RANGE_VALUES:
                    raise StudyError(f"bad --tune {flag!r}: LOW..HIGH needs LOW <= HIGH and at "
                                     f"most {MAX_RANGE_VALUES} values")
                axis = Axis(key, lo, hi)
                parse_option_value(options_type, key, low)  # an unknown option fails here
            else:
                parts = [v.strip() for v in text.split("|") if v.strip()]
                axis = Axis(key, choices=tuple(parse_option_value(options_type, key, v)
                                               for v in parts))
            for value in axis.values():
                options_from_json(options_type, {key: value})
        except OptionsError as exc:
            raise StudyError(f"--tune {flag!r}: {exc.message}", allowed=exc.allowed) from exc
        axes.append(axis)
    if not axes:
        raise StudyError("--tune needs at least one KEY=LOW..HIGH or KEY=V1|V2")
    return axes


@dataclass(frozen=True)
class Trial:
    number: int
    settings: dict[str, Any]
    distance: float
    repeat_of: int | None
    """The trial that first asked for these settings (its games were reused), or None."""

    def to_json(self) -> dict[str, Any]:
        return {"trial": self.number + 1, "settings": self.settings,
                "distance": round(self.distance, 6),
                "repeat_of": None if self.repeat_of is None else self.repeat_of + 1}


def optuna_search(axes: Sequence[Axis], evaluate: Callable[[dict[str, Any]], float],
                  trials: int, seed: int, out: list[Trial] | None = None) -> list[Trial]:
    """Ask a seeded TPE sampler for `trials` settings; `evaluate(settings)` is the distance to
    minimise. Returns every trial in order (the same list for the same seed and scores), and
    appends each to `out` as it is scored (kept if Ctrl-C stops the search)."""
    import optuna

    if not 1 <= trials <= MAX_TRIALS:
        raise StudyError(f"--trials must be 1..{MAX_TRIALS}, got {trials}")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed % 2**32,
                                         n_startup_trials=min(10, max(3, trials // 3)))
    search = optuna.create_study(direction="minimize", sampler=sampler)
    seen: dict[tuple[tuple[str, Any], ...], tuple[int, float]] = {}
    out = [] if out is None else out
    for number in range(trials):
        trial = search.ask()
        settings: dict[str, Any] = {}
        for axis in axes:
            if axis.choices:
                # Optuna keys categorical choices by position; the value is ours again.
                index = trial.suggest_categorical(axis.key, list(range(len(axis.choices))))
                settings[axis.key] = axis.choices[int(index)]
            else:
                assert axis.low is not None and axis.high is not None
                settings[axis.key] = trial.suggest_int(axis.key, axis.low, axis.high)
        key = tuple((k, settings[k]) for k in sorted(settings))
        if key in seen:
            first, value = seen[key]
            out.append(Trial(number, settings, value, first))
        else:
            value = float(evaluate(settings))
            seen[key] = (number, value)
            out.append(Trial(number, settings, value, None))
        search.tell(trial, value)
    return out


def best_distinct(trials: Sequence[Trial], limit: int) -> list[Trial]:
    """The first trial of each distinct setting, best distance first (ties: earlier trial)."""
    firsts = [t for t in trials if t.repeat_of is None]
    return sorted(firsts, key=lambda t: (t.distance, t.number))[:limit]


def tune_with_optuna(
    study: Study, axes: Sequence[Axis], target: Target, trials: int, *,
    workers: int = 1, backend: str = "processes", address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[StudyRun, list[Trial]]:
    """Play the baseline, then `trials` Optuna trials on the same deals; the run holds the
    baseline and the best distinct settings as variants `trial-N` (games reused, not replayed).
    Ctrl-C ends the search with the trials already scored."""
    from pocketgalaxy.sim.balance.measures import measure
    from pocketgalaxy.sim.balance.run import run_study
    from pocketgalaxy.sim.balance.tune import distance

    baseline = study.baseline
    total = (trials + 1) * study.games
    done = 0

    def play(variant_flags: dict[str, Any], name: str) -> tuple[Study, list[GameResult]]:
        nonlocal done
        single = _study_with(study, [(name, variant_flags)])
        start = done

        def step(played: int, _total: int) -> None:
            if progress:
                progress(start + played, total)

        run = run_study(single, workers=workers, progress=step, backend=backend,
                        address=address)
        if run.stopped == "interrupted":
            raise KeyboardInterrupt
        done += study.games
        return single, run.games[name]

    base_flags = {**baseline.overrides, **_player_keys(study, baseline)}
    _, base_games = play(base_flags, baseline.name)
    played: dict[int, list[GameResult]] = {}

    def evaluate(settings: dict[str, Any]) -> float:
        name = f"trial-{len(played) + 1}"
        single, games = play({**base_flags, **settings}, name)
        run = StudyRun(single, {name: games})
        played[len(played)] = games
        return distance(measure(run)["variants"][name], target)

    scored: list[Trial] = []
    stopped = "games"
    try:
        optuna_search(axes, evaluate, trials, study.seed, out=scored)
    except KeyboardInterrupt:
        stopped = "interrupted"
    chosen = best_distinct(scored, MAX_VARIANTS - 1)
    final = _study_with(study, [(baseline.name, base_flags)] + [
        (f"trial-{t.number + 1}", {**base_flags, **t.settings}) for t in chosen])
    count = len(final.variants)
    games: dict[str, list[GameResult]] = {baseline.name: _reindex(base_games, 0, count)}
    order = [t.number for t in scored if t.repeat_of is None]
    for v, t in enumerate(chosen, start=1):
        games[f"trial-{t.number + 1}"] = _reindex(played[order.index(t.number)], v, count)
    return StudyRun(final, games, stopped), scored


def _player_keys(study: Study, variant: Variant) -> dict[str, Any]:
    if not variant.players or variant.players == study.players:
        return {}
    if study.game == "perils":
        return {"hero": variant.players[0], "teller": variant.players[1]}
    return {"players": list(variant.players)}


def _study_with(study: Study, variants: list[tuple[str, dict[str, Any]]]) -> Study:
    return build_study(study.game, variants, players=study.players, games=study.games,
                       seed=study.seed, length_band=study.length_band, detect=study.detect,
                       rotate=study.rotate, base_options=study.base_options)


def _reindex(results: list[GameResult], v: int, count: int) -> list[GameResult]:
    """A one-variant run's games as variant `v` of `count` (index = game * count + v)."""
    return [dataclasses.replace(r, index=r.index * count + v) for r in results]

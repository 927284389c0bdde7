"""How much the computer Teller's words give away, per clarity level (docs/teller.md).

    python bench/bench_teller_reader.py [--train 150] [--test 60] [--games 300]
        [--hero rulebased|planner] [--levels plain,fair,subtle,cryptic] [--theme cosmic] [--json]
    python bench/bench_teller_reader.py --variety [--games 1000] [--theme cosmic]

For each clarity level:

1. a text reader (scikit-learn: TF-IDF over word 1-2-grams + logistic regression) is trained on
   the pathway descriptions of `--train` bot games and tested on those of `--test` games with
   other seeds: accuracy at the kind (peril, gift, item), the suit and the band (perils only);
2. a form reader (logistic regression over sentence count, length in characters and words, and
   the count of each punctuation mark) tells a peril from a gift or item; printed against
   chance (the larger class's share of the test set);
3. the same `--games` deals are played by a Hero that sees the cards (it is given every
   pathway's true kind, suit and band), by one that reads only the text (given the reader's
   prediction as its hint) and by one that picks blind (given no hint): win rates and the
   reader's share of the informed Hero's edge, (reader - blind) / (informed - blind).

`--variety` plays `--games` games and counts the distinct pathway descriptions.
Every run is reproducible: the seeds are fixed by the arguments.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from dataclasses import replace
from typing import Any

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.perils import ComputerTeller, RuleBasedHero
from pocketgalaxy.agents.perils.planner import PlannerHero
from pocketgalaxy.core.cards import card
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.content import band_of
from pocketgalaxy.games.perils.narration import card_kind, split_sentences
from pocketgalaxy.games.perils.options import CLARITIES, PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.games.perils.views import PerilsView
from pocketgalaxy.registry import perils_rules
from pocketgalaxy.session import Session

R = perils_rules()
TEST_SEEDS = 100_000
PLAY_SEEDS = 200_000


def labels(code: str) -> tuple[str, str, str]:
    """(kind, suit, band) of a card; suit and band empty for gifts and items."""
    kind = card_kind(code)
    if kind in ("gift", "item"):
        return kind, "", ""
    c = card(code)
    assert c.suit is not None
    return "peril", c.suit.value, "high" if c.is_ace else band_of(c.rank)


def described(options: PerilsOptions, seed: int) -> list[tuple[str, str]]:
    """(card, description) pairs of one bot game."""
    session = Session(R, options, seed=seed,
                      agents={0: RuleBasedHero(seed=seed), 1: ComputerTeller(seed=seed)})
    session.run_bots()
    pairs: list[tuple[str, str]] = []
    dealt: tuple[str, ...] = ()
    for event in session.events_for(1):
        if isinstance(event, ev.PathwaysDealt):
            dealt = event.cards
        elif isinstance(event, ev.PathwaysDescribed):
            pairs.extend(zip(dealt, event.descriptions, strict=True))
    return pairs


class Reader:
    """TF-IDF + logistic regression for kind, suit and band."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        texts = [t for _, t in pairs]
        labs = [labels(c) for c, _ in pairs]
        self.kind = self._fit(texts, [k for k, _, _ in labs])
        perils = [(t, s, b) for t, (k, s, b) in zip(texts, labs, strict=True) if k == "peril"]
        self.suit = self._fit([t for t, _, _ in perils], [s for _, s, _ in perils])
        self.band = self._fit([t for t, _, _ in perils], [b for _, _, b in perils])

    @staticmethod
    def _fit(texts: list[str], ys: list[str]) -> Any:
        model = make_pipeline(TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True),
                              LogisticRegression(max_iter=2000, C=10.0))
        model.fit(texts, ys)
        return model

    def hints(self, texts: list[str]) -> list[dict[str, str]]:
        if not texts:
            return []
        kinds = self.kind.predict(texts)
        suits = self.suit.predict(texts)
        bands = self.band.predict(texts)
        out = []
        for k, s, b in zip(kinds, suits, bands, strict=True):
            out.append({"kind": "peril", "suit": str(s), "band": str(b)} if k == "peril"
                       else {"kind": str(k)})
        return out

    def accuracy(self, pairs: list[tuple[str, str]]) -> dict[str, float]:
        texts = [t for _, t in pairs]
        labs = [labels(c) for c, _ in pairs]
        kind = float(np.mean(self.kind.predict(texts) == np.array([k for k, _, _ in labs])))
        perils = [(t, s, b) for t, (k, s, b) in zip(texts, labs, strict=True) if k == "peril"]
        pt = [t for t, _, _ in perils]
        suit = float(np.mean(self.suit.predict(pt) == np.array([s for _, s, _ in perils])))
        band = float(np.mean(self.band.predict(pt) == np.array([b for _, _, b in perils])))
        return {"kind": kind, "suit": suit, "band": band}


_PUNCT = ".,;:!?'\""


def form_features(text: str) -> list[float]:
    """Only the form: sentence count, length in characters and words, punctuation counts."""
    return [len(split_sentences(text)), len(text), len(re.findall(r"\S+", text)),
            *(text.count(ch) for ch in _PUNCT)]


def form_reader(train: list[tuple[str, str]], test: list[tuple[str, str]]) -> dict[str, float]:
    xs = np.array([form_features(t) for _, t in train])
    ys = np.array([card_kind(c) in ("peril", "big_bad") for c, _ in train])
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    model.fit(xs, ys)
    tx = np.array([form_features(t) for _, t in test])
    ty = np.array([card_kind(c) in ("peril", "big_bad") for c, _ in test])
    accuracy = float(np.mean(model.predict(tx) == ty))
    chance = float(max(ty.mean(), 1 - ty.mean()))
    return {"accuracy": accuracy, "chance": chance, "above_chance": accuracy - chance}


class HintedHero(Agent):
    """A Hero whose view's pathway hints are replaced: the true card ("informed"), the text
    reader's prediction ("reader") or nothing ("blind")."""

    def __init__(self, inner: Agent, mode: str, reader: Reader | None,
                 session: list[Session]) -> None:
        self.inner, self.mode, self.reader, self.session = inner, mode, reader, session
        self.name = f"{inner.name}-{mode}"

    def reset(self, seat: int, players: int, options: Any) -> None:
        self.inner.reset(seat, players, options)

    def observe(self, events: list[Event]) -> None:
        self.inner.observe(events)

    def act(self, view: Any, legal: list[Action]) -> Action:
        assert isinstance(view, PerilsView)
        if not view.pathways:
            return self.inner.act(view, legal)
        state: PerilsState = self.session[0].state
        if self.mode == "informed":
            hints = [_true_hint(c) for c in state.pathways]
        elif self.mode == "reader":
            assert self.reader is not None
            hints = self.reader.hints([p.description or "" for p in view.pathways])
        else:
            hints = [{} for _ in view.pathways]
        paths = tuple(replace(p, hint=h) for p, h in zip(view.pathways, hints, strict=True))
        return self.inner.act(replace(view, pathways=paths), legal)


def _true_hint(code: str) -> dict[str, str]:
    kind, suit, band = labels(code)
    return {"kind": kind, "suit": suit, "band": band} if kind == "peril" else {"kind": kind}


def win_rate(options: PerilsOptions, mode: str, reader: Reader | None, games: int,
             hero: str) -> float:
    wins = 0
    for i in range(games):
        seed = PLAY_SEEDS + i
        inner: Agent = PlannerHero(seed=seed) if hero == "planner" else RuleBasedHero(seed=seed)
        holder: list[Session] = []
        agent = HintedHero(inner, mode, reader, holder)
        session = Session(R, options, seed=seed, agents={0: agent, 1: ComputerTeller(seed=seed)})
        holder.append(session)
        session.run_bots()
        outcome = session.outcome
        wins += bool(outcome and outcome.winners)
    return wins / games


def level(clarity: str, args: argparse.Namespace) -> dict[str, Any]:
    options = PerilsOptions(theme=args.theme, clarity=clarity)
    train = [p for s in range(args.train) for p in described(options, s)]
    test = [p for s in range(args.test) for p in described(options, TEST_SEEDS + s)]
    reader = Reader(train)
    out: dict[str, Any] = {"clarity": clarity, "train_texts": len(train),
                           "test_texts": len(test), "reader": reader.accuracy(test),
                           "form": form_reader(train, test)}
    rates = {m: win_rate(options, m, reader, args.games, args.hero)
             for m in ("informed", "reader", "blind")}
    edge = rates["informed"] - rates["blind"]
    out["win"] = rates
    out["reader_share"] = (rates["reader"] - rates["blind"]) / edge if edge > 0 else float("nan")
    return out


def variety(args: argparse.Namespace) -> dict[str, Any]:
    options = PerilsOptions(theme=args.theme)
    texts: list[str] = []
    for s in range(args.games):
        texts.extend(t for _, t in described(options, s))
    return {"theme": args.theme, "games": args.games, "descriptions": len(texts),
            "distinct": len(set(texts))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=int, default=150)
    parser.add_argument("--test", type=int, default=60)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--hero", choices=("rulebased", "planner"), default="rulebased")
    parser.add_argument("--levels", default=",".join(CLARITIES))
    parser.add_argument("--theme", default="cosmic")
    parser.add_argument("--variety", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.variety:
        report: Any = variety(args)
        if not args.json:
            print(f"{report['games']} games of {report['theme']}: {report['descriptions']} "
                  f"pathway descriptions, {report['distinct']} distinct")
    else:
        report = []
        for clarity in args.levels.split(","):
            row = level(clarity, args)
            report.append(row)
            if not args.json:
                r, f, w = row["reader"], row["form"], row["win"]
                print(f"{clarity:8} reader kind {r['kind']:.3f} suit {r['suit']:.3f} "
                      f"band {r['band']:.3f} | form {f['accuracy']:.3f} vs chance "
                      f"{f['chance']:.3f} ({100 * f['above_chance']:+.1f} pts) | win informed "
                      f"{w['informed']:.3f} reader {w['reader']:.3f} blind {w['blind']:.3f} "
                      f"| share {row['reader_share']:.2f}", flush=True)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"({time.perf_counter() - start:.0f} s; hero {args.hero}, theme {args.theme}, "
              f"train {args.train} test {args.test} games {args.games})")


if __name__ == "__main__":
    main()

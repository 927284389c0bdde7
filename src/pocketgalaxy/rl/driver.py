"""The one game driver under every RL environment: a `Session` plus encodings and rewards.

It holds no rule logic and no reward bookkeeping of its own beyond reading `Outcome` at the
end: the session owns the state, the computer players (the `teller`, or Adventure opponents)
act inside it, and learners receive only their seat's view, encoded (`observation`), with the
raw view JSON (`info`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.errors import OptionsError
from pocketgalaxy.core.game import Action, GameRules, Outcome
from pocketgalaxy.core.options import options_from_json
from pocketgalaxy.registry import get_game
from pocketgalaxy.rl.encoding import ActionCodec
from pocketgalaxy.rl.encoding.adventure import (
    AdventureActionCodec,
    AdventureObservation,
    table_slots,
)
from pocketgalaxy.rl.encoding.perils import CHOICE_CAP, PerilsActionCodec, PerilsObservation
from pocketgalaxy.session import Session

GAMES = ("adventure", "perils")
SEED_SPACE = 2**31


@dataclass(frozen=True, kw_only=True)
class Rewards:
    """End-of-game rewards (there are no rewards before the end).

    Adventure: `win` to a sole winner, `shared_win` to each of several tied winners, `loss` to
    everyone else. Perils: `win` when the Hero wins the Prize, `loss` otherwise (the Hero and
    the Teller win or lose together; `shared_win` is not used). `illegal` is what a
    Gymnasium learner gets when `illegal_action="terminate"` ends its episode.
    """

    win: float = 1.0
    shared_win: float = 0.0
    loss: float = -1.0
    illegal: float = -1.0


ADVENTURE_REWARDS = Rewards(win=1.0, shared_win=0.0, loss=-1.0)
PERILS_REWARDS = Rewards(win=1.0, shared_win=1.0, loss=0.0)


def default_rewards(game: str) -> Rewards:
    return PERILS_REWARDS if game == "perils" else ADVENTURE_REWARDS


def game_options(game: str, options: Any) -> Any:
    """Options for the environment: an options object, a dict of rulings, or None.

    Perils without options uses `teller_policy="approve_all"`: the RL space's plans carry no
    text, and the rules' ruling for play without plan text is to approve every source (PP-A7).
    """
    rules = get_game(game)
    if options is None and game == "perils":
        options = {"teller_policy": "approve_all"}
    if options is None or isinstance(options, dict):
        return options_from_json(rules.options_type, options)
    if not isinstance(options, rules.options_type):
        raise OptionsError(
            f"options for {game} must be {rules.options_type.__name__}, a dict or None, "
            f"not {type(options).__name__}"
        )
    return options


def bot_seed(game_seed: int, seat: int) -> int:
    """A computer player's own seed, derived from the game seed and its seat."""
    return (game_seed * 1_000_003 + seat * 7919 + 1) % SEED_SPACE


class GameDriver:
    """A game for learners: `players` seats, computer players at `bots` ({seat: spec}).

    `new_game(seed)` starts a game and lets the computer players move until a learner must
    act; `act(seat, index)` applies a learner's action index and does the same. Views, legal
    lists and encodings are cached per seat until the next action.
    """

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        options: Any = None,
        bots: Mapping[int, str] | None = None,
        rewards: Rewards | None = None,
        choice_cap: int = CHOICE_CAP,
    ) -> None:
        if game not in GAMES:
            raise OptionsError(f"unknown game {game!r}", allowed=list(GAMES))
        self.game = game
        self.rules: GameRules[Any, Any] = get_game(game)
        self.options = game_options(game, options)
        if game == "perils":
            if players not in (None, 2):
                raise OptionsError(f"Perils & Pathways has 2 seats, not {players!r}",
                                   allowed=["2"])
            self.players = 2
            theme = self.rules.theme(self.options)  # type: ignore[attr-defined]
            self.codec: ActionCodec = PerilsActionCodec(theme, choice_cap=choice_cap)
            self.encoder: AdventureObservation | PerilsObservation = PerilsObservation(theme)
        else:
            n = 4 if players is None else players
            codec = AdventureActionCodec(n, table_slots(n, self.options))
            self.players = n
            self.codec = codec
            self.encoder = AdventureObservation(n, codec.slots)
        self.bots = dict(bots or {})
        for seat in self.bots:
            if not 0 <= seat < self.players:
                raise OptionsError(f"no seat {seat} for a computer player in a "
                                   f"{self.players}-player game")
        for seat, spec in self.bots.items():  # refuse an unknown player now, not at reset
            make_agent(game, spec, seat, self.players, 0)
        self.learners = tuple(s for s in range(self.players) if s not in self.bots)
        self.rewards = rewards if rewards is not None else default_rewards(game)
        self.session: Session | None = None
        self._cache: dict[int, tuple[Any, list[Action]]] = {}

    # -- games ------------------------------------------------------------------------
    def new_game(self, seed: int, *, pinned: Any = None) -> None:
        """A fresh game from `seed` (the game's own seed: `Session(seed=seed)` plays the same
        deal); computer players get seeds derived from it. `pinned` fixes the deal as in
        `rules.new` (tests and teaching)."""
        agents = {
            seat: make_agent(self.game, spec, seat, self.players, bot_seed(seed, seat))
            for seat, spec in self.bots.items()
        }
        self.session = Session(self.rules, self.options, seed=seed, players=self.players,
                               pinned=pinned, agents=agents)
        self._cache.clear()
        self.session.run_bots()

    @property
    def live(self) -> Session:
        if self.session is None:
            raise OptionsError("no game yet: call reset() first")
        return self.session

    @property
    def to_act(self) -> int | None:
        return self.live.to_act

    @property
    def outcome(self) -> Outcome | None:
        return self.live.outcome

    def view_and_legal(self, seat: int) -> tuple[Any, list[Action]]:
        found = self._cache.get(seat)
        if found is None:
            session = self.live
            found = self._cache[seat] = (session.view(seat), session.legal_actions(seat))
        return found

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        """`{"observation": float32 vector, "action_mask": int8 mask}` for `seat`."""
        view, legal = self.view_and_legal(seat)
        return {
            "observation": self.encoder.encode(view),
            "action_mask": self.codec.mask(seat=seat, legal=legal),
        }

    def info(self, seat: int) -> dict[str, Any]:
        """The raw view JSON of `seat` (fresh objects on every call)."""
        view, _ = self.view_and_legal(seat)
        return {"view": view.to_json()}

    def decode(self, seat: int, index: Any) -> Action:
        _, legal = self.view_and_legal(seat)
        return self.codec.decode(self.codec.check_index(index), seat=seat, legal=legal)

    def act(self, seat: int, index: Any) -> None:
        """Apply `seat`'s action `index`; on a refusal (typed error) nothing changes."""
        action = self.decode(seat, index)
        self.live.act(seat, action)
        self._cache.clear()
        self.live.run_bots()

    def reward(self, seat: int) -> float:
        """The end-of-game reward of `seat` (0.0 while the game runs)."""
        out = self.outcome
        if out is None:
            return 0.0
        r = self.rewards
        if self.game == "perils":
            return r.win if out.winners else r.loss
        if seat not in out.winners:
            return r.loss
        return r.win if len(out.winners) == 1 else r.shared_win

    def render_text(self, seat: int | None) -> str:
        """A few lines about the game as `seat` sees it (render_mode="ansi")."""
        view = self.live.view(seat)
        data = view.to_json()
        if self.game == "adventure":
            return (f"Adventure Cards, turn {data['turn']}, seat {data['to_act']} to act "
                    f"({data['phase']})\nseat {seat} hand: {' '.join(data['hand']) or '-'}\n"
                    f"hand sizes {data['hand_sizes']}, missions claimed {data['scores']}, "
                    f"table {sum(data['table'])} card(s)")
        skills = " ".join(f"{s['suit']}{s['level']}" for s in data["skills"])
        return (f"Perils & Pathways, round {data['round']} ({data['stage']}, {data['phase']})\n"
                f"health {data['health']}/{data['max_health']}, skills {skills}, "
                f"items {len(data['items'])}, draw pile {data['draw_count']}, "
                f"Big Bads left {data['big_bads_remaining']}")

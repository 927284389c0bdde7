"""The one authority every interface talks to: a game in progress, its record, and its seats.

Terminal, web server, simulator and RL wrappers all drive games through `Session`. It owns the
state; outside code receives only views and filtered events (`view`, `events_for`). That is the
single choke point for hidden information.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.core.errors import IllegalActionError, PocketGalaxyError, RecordError
from pocketgalaxy.core.game import Action, Event, GameRules, Outcome, visible_events
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.core.record import GameRecord
from pocketgalaxy.core.rng import new_seed


class Session:
    """A game being played: rules + state + record + which seats are computer players."""

    def __init__(
        self,
        rules: GameRules[Any, Any],
        options: Any = None,
        *,
        seed: int | None = None,
        players: int | None = None,
        pinned: Any = None,
        agents: Mapping[int, Agent] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        self.rules = rules
        if options is None or isinstance(options, dict):
            options = options_from_json(rules.options_type, options)
        self.options = options
        self.seed = new_seed() if seed is None and pinned is None else seed
        self.state = rules.new(options, self.seed or 0, players=players, pinned=pinned)
        self.players = self._players_of(self.state, players)
        self.record = GameRecord(
            game=rules.name,
            options=options_to_json(options),
            players=self.players,
            seed=self.seed,
            pinned=pinned,
            meta=dict(meta or {}),
        )
        # (action index, event), unfiltered: never sent as is. Setup events carry index -1.
        self.log: list[tuple[int, Event]] = [(-1, e) for e in rules.opening_events(self.state)]
        self.agents: dict[int, Agent] = {}
        for seat, agent in (agents or {}).items():
            self.set_agent(seat, agent)

    @staticmethod
    def _players_of(state: Any, players: int | None) -> int:
        return int(getattr(state, "players", None) or players or 2)

    # -- seats ----------------------------------------------------------------------
    def set_agent(self, seat: int, agent: Agent | None) -> None:
        """Hand a seat to a computer player (None gives it back to a person)."""
        if agent is None:
            self.agents.pop(seat, None)
            return
        agent.reset(seat, self.players, self.options)
        agent.observe(self.events_for(seat))
        self.agents[seat] = agent

    # -- what seats may know -------------------------------------------------------
    def view(self, seat: int | None) -> Any:
        return self.rules.view(self.state, seat)

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        """Events from `since` (an index into the log) that `seat` may see."""
        return visible_events((e for _, e in self.log[since:]), seat)

    def legal_actions(self, seat: int) -> list[Action]:
        return self.rules.legal_actions(self.state, seat)

    @property
    def to_act(self) -> int | None:
        return self.rules.to_act(self.state)

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state)

    @property
    def is_over(self) -> bool:
        return self.to_act is None

    # -- acting ---------------------------------------------------------------------
    def act(self, seat: int, action: Action | dict[str, Any]) -> list[Event]:
        """Apply one action for `seat`; on any refusal nothing changes. Returns the new events."""
        if isinstance(action, dict):
            action = self.rules.parse_action(action)
        if self.to_act is None:
            raise IllegalActionError(action, seat, "game_over", "game", "the game has ended")
        new_state, events = self.rules.apply(self.state, seat, action)
        self.state = new_state
        step = len(self.record.actions)
        self.record.actions.append((seat, action.to_json()))
        self.log.extend((step, e) for e in events)
        for agent_seat, agent in self.agents.items():
            agent.observe(visible_events(events, agent_seat))
        return events

    def bot_to_act(self) -> bool:
        seat = self.to_act
        return seat is not None and seat in self.agents

    def step_bot(self) -> list[Event]:
        """Let the computer player whose turn it is make one move."""
        seat = self.to_act
        if seat is None or seat not in self.agents:
            raise PocketGalaxyError("no computer player is to act", code="session/no_bot_to_act")
        agent = self.agents[seat]
        legal = self.legal_actions(seat)
        action = agent.act(self.view(seat), legal)
        return self.act(seat, action)

    def run_bots(self, max_steps: int = 1_000_000) -> int:
        """Step computer players until a person must act or the game ends; returns steps taken."""
        steps = 0
        while steps < max_steps and self.bot_to_act():
            self.step_bot()
            steps += 1
        return steps

    # -- records ---------------------------------------------------------------------
    @classmethod
    def from_record(
        cls,
        rules: GameRules[Any, Any],
        record: GameRecord,
        agents: Mapping[int, Agent] | None = None,
        *,
        rethink: bool = False,
    ) -> Session:
        """Rebuild a session by replaying its record (agents see every event again, in order).

        With `rethink`, each computer player also decides again at its own turns before the
        recorded action is applied, so its random source and memory end exactly as in the
        original game (a resumed game then goes on as if never interrupted).
        """
        session = cls(
            rules,
            record.options,
            seed=record.seed,
            players=record.players,
            pinned=record.pinned,
            agents=agents,
            meta=record.meta,
        )
        for i, (seat, data) in enumerate(record.actions):
            try:
                if rethink and seat in session.agents:
                    session.agents[seat].act(session.view(seat), session.legal_actions(seat))
                session.act(seat, data)
            except PocketGalaxyError as exc:
                raise RecordError(
                    f"record step {i} (seat {seat}) does not apply: {exc.message}"
                ) from exc
        return session

"""The one shape every game has, and the base classes of actions, events, views and outcomes.

A game is a `GameRules` object; its state is plain data with a fast `clone()` and the seeded
`Rng` inside. The contract (after PokerKit's verify / can / do):

- `new(options, seed, players=, pinned=)` gives a fresh state;
- `to_act(state)` the seat to act, or None when the game is over;
- `check(state, seat, action)` raises `IllegalActionError`; `can(...)` is built from it;
- `apply(state, seat, action)` calls `check`, then works on a clone: the caller's state is never
  touched, so an illegal action changes nothing by construction. It returns (new state, events);
- `legal_actions(state, seat)` lists the actions `check` accepts (the contract tests hold the two
  together);
- `view(state, seat)` holds only what that seat may know (`seat=None`: a watcher);
- `outcome(state)` is None while the game runs.
"""

from __future__ import annotations

import dataclasses
import typing
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pocketgalaxy.core.errors import MalformedActionError
from pocketgalaxy.core.mypyc_marks import mypyc_attr


# Open to interpreted subclasses: Perils and test doubles stay pure Python (docs/speed.md).
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class Action:
    """Base of actions: frozen dataclasses named as commands (`RequestCard`, `ChoosePathway`)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as a constructor call, as events are (see Event.__reduce__).
        return (type(self), tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class Event:
    """Base of events: frozen dataclasses in the past tense (`RequestRefused`, `HealthLost`).

    `audience` is None for a public event, or the seats that may see it. Filtering happens at one
    choke point, `visible_events`, that every outbound path uses.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as a constructor call: a compiled event class has no bare `__new__` for
        # pickle to use (docs/speed.md). The fields are the constructor's parameters, in order.
        return (type(self), tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    def visible_to(self, seat: int | None) -> bool:
        audience = getattr(self, "audience", None)
        return audience is None or (seat is not None and seat in audience)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, frozenset):  # sorted: a set's order is the process's hash salt
                value = sorted(value)
            data[f.name] = value
        return data


def visible_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events a seat (None: a watcher) may see. Every outbound payload passes through here."""
    return [e for e in events if e.visible_to(seat)]


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `winners` may hold several seats (a shared win) or none (a loss)."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] = ()
    ended_by_cap: bool = False

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as a constructor call, as events are (a compiled frozen class cannot be
        # filled in field by field).
        return (type(self), (self.winners, self.reason, self.scores, self.ended_by_cap))

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": list(self.scores),
            "ended_by_cap": self.ended_by_cap,
        }


class GameState(Protocol):
    """What the core needs of a state: a fast independent copy and JSON."""

    def clone(self) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


S = TypeVar("S", bound=GameState)
OptT = TypeVar("OptT")


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class GameRules(ABC, Generic[S, OptT]):
    """One game's rules. Subclasses implement `_do` and `check`; `apply` is shared."""

    name: ClassVar[str]
    title: ClassVar[str]
    options_type: ClassVar[type[Any]]
    action_types: ClassVar[tuple[type[Action], ...]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    # -- the contract -------------------------------------------------------------
    @abstractmethod
    def new(
        self,
        options: OptT | None = None,
        seed: int = 0,
        *,
        players: int | None = None,
        pinned: Any = None,
    ) -> S:
        """A fresh game. `pinned` fixes the deal (and die rolls) for tests and teaching."""

    @abstractmethod
    def to_act(self, state: S) -> int | None:
        """The seat whose decision it is, or None if the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every action `check` accepts for this seat now (empty if it is not this seat's turn)."""

    @abstractmethod
    def check(self, state: S, seat: int, action: Action) -> None:
        """Raise `IllegalActionError` (or `MalformedActionError`) unless the action is legal now."""

    @abstractmethod
    def _do(self, state: S, seat: int, action: Action) -> list[Event]:
        """Carry out a checked action on `state` in place (a clone owned by `apply`)."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> Any:
        """What `seat` may know (None: a watcher who sees only what everyone sees)."""

    def view_for_turn(self, state: S, seat: int | None, legal_now: list[Action] | None) -> Any:
        """`view`, for a caller that has just listed the acting seat's legal actions of this
        very state (`legal_now`), so rules whose view holds that list need not list it again
        (Perils overrides this). The same view either way."""
        return self.view(state, seat)

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> S:
        """Inverse of `state.to_json()`; raises RecordError on corrupt data."""

    def opening_events(self, state: S) -> list[Event]:
        """The events of the setup itself (the deal), for a state fresh from `new`. Default: none.

        `new` returns only a state, so a game whose deal produces events (hands dealt, each seen
        only by its owner) hands them out here; the session logs them before the first action.
        """
        return []

    # -- shared behaviour ---------------------------------------------------------
    def can(self, state: S, seat: int, action: Action) -> bool:
        try:
            self.check(state, seat, action)
        except (MalformedActionError, ValueError):
            return False
        return True

    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """Check, then act on a clone: returns (new state, events); `state` is never changed."""
        self.check(state, seat, action)
        new_state: S = state.clone()
        events = self._do(new_state, seat, action)
        return new_state, events

    def apply_unchecked(self, state: S, seat: int, action: Action) -> list[Event]:
        """In-place apply for search and simulation, for actions taken from `legal_actions`."""
        return self._do(state, seat, action)

    def apply_quiet(self, state: S, seat: int, action: Action) -> None:
        """`apply_unchecked` when no one reads the events (random playouts, simulations, search).

        The state ends the same as with `apply_unchecked` and draws the same random numbers; a
        game may skip building events and keeping its turn log here. Default: the unchecked
        apply, events dropped."""
        self._do(state, seat, action)

    def is_over(self, state: S) -> bool:
        return self.to_act(state) is None

    def parse_action(self, data: Any) -> Action:
        """Build an action from its JSON form `{"type": "...", field: value, ...}`."""
        return parse_action(data, self.action_types)

    def describe_action(self, action: Action) -> str:
        """Short text for a legal-action list in error messages."""
        return repr(action)


def _coerce(value: Any, tp: Any, data: Any, name: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, __import__("types").UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                return _coerce(value, a, data, name)
            except MalformedActionError as exc:
                errors.append(exc)
        raise MalformedActionError(data, f"field {name!r} has the wrong type")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise MalformedActionError(data, f"field {name!r} should be a list")
        (inner, *_rest) = typing.get_args(tp) or (Any,)
        return tuple(_coerce(v, inner, data, name) for v in value)
    if origin is typing.Literal:
        if value not in typing.get_args(tp):
            raise MalformedActionError(
                data, f"field {name!r} must be one of {list(typing.get_args(tp))}"
            )
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise MalformedActionError(data, f"field {name!r} should be true or false")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedActionError(data, f"field {name!r} should be a whole number")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise MalformedActionError(data, f"field {name!r} should be text")
        return value
    return value


# An action class's field types and fields, worked out once per class: `typing.get_type_hints`
# costs about 0.2 ms a call, paid on every move a server parses. The action classes are a fixed,
# small set (a game's `action_types`), so this never grows past them.
_SHAPES: dict[type, tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]] = {}


def _shape(cls: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = (typing.get_type_hints(cls), {f.name: f for f in dataclasses.fields(cls)})
        _SHAPES[cls] = shape
    return shape


def parse_action(data: Any, action_types: Sequence[type[Action]]) -> Action:
    """Parse `{"type": name, ...}` into one of `action_types`, checking every field's type."""
    names = {t.__name__: t for t in action_types}
    if not isinstance(data, dict):
        raise MalformedActionError(
            data, "an action is a JSON object with a 'type'", allowed=sorted(names)
        )
    kind = data.get("type")
    cls = names.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedActionError(data, f"unknown action type {kind!r}", allowed=sorted(names))
    hints, fields = _shape(cls)
    unknown = sorted(set(data) - set(fields) - {"type"})
    if unknown:
        raise MalformedActionError(
            data, f"unknown field(s) {unknown} for {kind}", allowed=sorted(fields)
        )
    kwargs: dict[str, Any] = {}
    for name, f in fields.items():
        if name not in data:
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                continue
            raise MalformedActionError(
                data, f"missing field {name!r} for {kind}", allowed=sorted(fields)
            )
        kwargs[name] = _coerce(data[name], hints[name], data, name)
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise MalformedActionError(data, str(exc)) from exc

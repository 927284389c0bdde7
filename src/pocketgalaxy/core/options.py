"""Options: frozen keyword-only dataclasses where every ruling is a field with a default and a doc.

Declare a field with `option(default, "one-line doc", choices=(...))`. The command line prints
them with `describe_options`, records store them with `options_to_json`, and
`options_from_json` refuses unknown keys and values outside `choices` with a clear message.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pocketgalaxy.core.errors import OptionsError

OptionsT = TypeVar("OptionsT")


def option(default: Any, doc: str, *, choices: Sequence[Any] | None = None, rule: str = "") -> Any:
    """A field of an options class: a default, a one-line doc, and optional allowed values."""
    return dataclasses.field(
        default=default,
        metadata={"doc": doc, "choices": tuple(choices) if choices else None, "rule": rule},
    )


@dataclass(frozen=True)
class OptionInfo:
    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None
    rule: str
    type_name: str


def describe_options(cls: type[Any]) -> list[OptionInfo]:
    """Every option of an options class, in declaration order."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        out.append(
            OptionInfo(
                name=f.name,
                default=f.default,
                doc=f.metadata.get("doc", ""),
                choices=f.metadata.get("choices"),
                rule=f.metadata.get("rule", ""),
                type_name=_type_name(hints[f.name]),
            )
        )
    return out


def _type_name(tp: Any) -> str:
    if isinstance(tp, type):
        return tp.__name__
    return str(tp).replace("typing.", "")


def options_to_json(opts: Any) -> dict[str, Any]:
    return {f.name: getattr(opts, f.name) for f in dataclasses.fields(opts)}


def _accepts(tp: Any, value: Any) -> bool:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_accepts(a, value) for a in typing.get_args(tp))
    if origin is typing.Literal:
        return value in typing.get_args(tp)
    if tp is type(None):
        return value is None
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(tp, type):
        return isinstance(value, tp)
    return True


def options_from_json(cls: type[OptionsT], data: dict[str, Any] | None) -> OptionsT:
    """Build options from a dict; refuse unknown keys, wrong types, values outside `choices`."""
    data = dict(data or {})
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise OptionsError(f"unknown option(s) {', '.join(unknown)}", allowed=sorted(fields))
    for name, value in data.items():
        f = fields[name]
        choices = f.metadata.get("choices")
        if choices is not None and value not in choices:
            raise OptionsError(
                f"option {name}={value!r} is not allowed", allowed=[repr(c) for c in choices]
            )
        if not _accepts(hints[name], value):
            raise OptionsError(f"option {name}={value!r} should be {_type_name(hints[name])}")
    try:
        return cls(**data)
    except (TypeError, ValueError) as exc:
        raise OptionsError(f"bad options: {exc}") from exc


def parse_option_value(cls: type[Any], name: str, text: str) -> Any:
    """Turn `key=value` text from a command line into the option's type (bool, int, None, str)."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    if name not in fields:
        raise OptionsError(f"unknown option {name}", allowed=sorted(fields))
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    try:
        return int(text)
    except ValueError:
        return text.strip()

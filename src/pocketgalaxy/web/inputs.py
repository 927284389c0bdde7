"""Untrusted text checked at the edge, before the hub or the store sees it.

Every WebSocket message and every REST body goes through `parse_json` (bounded nesting, bounded
number literals, no NaN/Infinity) and then `check_strings`, which walks every key and string:

- each must be Unicode text: no lone UTF-16 surrogate (JSON lets `"\\ud800"` through, but such a
  string cannot be encoded as UTF-8, so storing it would leave a game that can never be sent);
- no NUL or other control character (Unicode category Cc). Newline and tab are allowed only in the
  free text of an action: a Perils plan (`MakePlan.plan`) and the Teller's pathway descriptions
  (`DescribePathways.descriptions`);
- bounded length: free text `max_text_len`, seat names `max_name_len`, anything else
  `max_field_len` characters.

A refusal is a `WebError` naming the field, what was wrong and what is allowed; it is raised before
anything changes. `sendable` is the outbound safety net: text that somehow holds a surrogate is
sent with U+FFFD in its place rather than failing for every reader.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from pocketgalaxy.web.errors import WebError

MAX_DEPTH = 16
"""Deepest nesting of arrays and objects in one message (an action needs 3)."""
MAX_NUMBER_CHARS = 40
"""Longest number literal; whole numbers (seats, indexes) at most `MAX_INT_DIGITS` digits."""
MAX_INT_DIGITS = 20

FREE_TEXT_KEYS = ("plan", "descriptions")
"""Action fields that hold prose: `MakePlan.plan`, `DescribePathways.descriptions` (Perils)."""
# Control characters (Cc) and surrogates; the free-text pattern lets tab and newline through.
_BAD_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_BAD_FREE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # unrolled: linear and fast
_BRACKETS = re.compile(r"[\[\]{}]")
_SURROGATES = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class TextLimits:
    """How long a string may be, by kind (from the server settings)."""

    text: int = 2000
    name: int = 40
    field: int = 200


class _Refused(Exception):
    """Raised inside json.loads hooks; turned into a WebError by `parse_json`."""

    def __init__(self, error: WebError) -> None:
        super().__init__(error.message)
        self.error = error


def decode_utf8(data: bytes, *, code: str = "action/malformed") -> str:
    """Bytes of a message as text; invalid UTF-8 is refused with `code`."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WebError(
            code,
            f"messages must be UTF-8 JSON text; byte {exc.start + 1} is not valid UTF-8",
        ) from exc


def nesting_depth(text: str) -> int:
    """The deepest bracket nesting of JSON text, ignoring brackets inside strings (linear)."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _int(literal: str) -> int:
    digits = len(literal.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _Refused(WebError(
            "message/number_too_long",
            f"a whole number may have at most {MAX_INT_DIGITS} digits, not {digits}",
        ))
    return int(literal)


def _float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _Refused(WebError(
            "message/number_too_long",
            f"a number may be at most {MAX_NUMBER_CHARS} characters long, not {len(literal)}",
        ))
    return float(literal)


def _constant(name: str) -> Any:
    raise _Refused(WebError(
        "message/malformed_json", f"{name} is not a JSON number; send a finite number"))


def parse_json(text: str, *, malformed_code: str = "action/malformed") -> Any:
    """JSON text to Python data, with nesting and number size bounded before or while parsing.

    Refusals: `message/too_deep` (nested deeper than MAX_DEPTH), `message/number_too_long`,
    `message/malformed_json` (NaN/Infinity), and `malformed_code` for text that is not JSON.
    """
    # Few brackets cannot nest deeply: most messages skip the scan.
    few = text.count("[") + text.count("{") <= MAX_DEPTH
    depth = 0 if few else nesting_depth(text)
    if depth > MAX_DEPTH:
        raise WebError(
            "message/too_deep",
            f"a message may nest arrays and objects at most {MAX_DEPTH} deep, not {depth}",
        )
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except _Refused as exc:
        raise exc.error from None
    except json.JSONDecodeError as exc:
        raise WebError(
            malformed_code, f"message is not JSON: {exc.msg} (at character {exc.pos + 1})"
        ) from None
    except (ValueError, RecursionError) as exc:  # belt and braces: never a traceback
        raise WebError(malformed_code, f"message is not acceptable JSON: {exc}") from None


def _where(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "the message"


def _is_free_text(path: tuple[str | int, ...]) -> bool:
    if not path:
        return False
    if path[-1] in FREE_TEXT_KEYS:
        return True
    return len(path) >= 2 and isinstance(path[-1], int) and path[-2] in FREE_TEXT_KEYS


_CONTROL_NAMES = {0: "NUL", 9: "TAB", 10: "LINE FEED", 13: "CARRIAGE RETURN", 27: "ESCAPE",
                  127: "DELETE"}


def _describe(ch: str) -> str:
    name = _CONTROL_NAMES.get(ord(ch)) or unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" ({name})" if name else "")


def check_string(
    value: str, path: tuple[str | int, ...], limits: TextLimits, *, key: bool = False
) -> None:
    """Refuse a string that is not Unicode text, holds control characters or is too long."""
    field = f"a key in {_where(path)}" if key else _where(path)
    free = not key and _is_free_text(path)
    if key:
        limit, kind = limits.field, "a key"
    elif free:
        limit, kind = limits.text, "free text"
    elif path and path[-1] == "name":
        limit, kind = limits.name, "a name"
    else:
        limit, kind = limits.field, "this field"
    if len(value) > limit:
        raise WebError(
            "text/too_long",
            f"{field}: {kind} may be at most {limit} characters, not {len(value)}",
        )
    allowed = ("printable text; newline and tab are allowed in plans and descriptions"
               if free else "printable text on one line (no control characters)")
    if value.isascii():  # the common case, in C: ASCII is non-printable only for controls
        probe = value.replace("\n", "").replace("\t", "") if free else value
        if probe.isprintable():
            return
    bad = (_BAD_FREE if free else _BAD_LINE).search(value)
    if bad is None:
        return
    ch, at = bad.group(), bad.start() + 1
    if "\ud800" <= ch <= "\udfff":
        what = (f"{_describe(ch)}, half of a UTF-16 surrogate pair on its own, which is not "
                "Unicode text")
    else:
        what = f"the control character {_describe(ch)}"
    raise WebError("text/invalid", f"{field}: character {at} is {what}; allowed: {allowed}")


def check_strings(
    data: Any, limits: TextLimits, path: tuple[str | int, ...] = ()
) -> None:
    """Check every key and string of parsed JSON (depth is already bounded by `parse_json`)."""
    if isinstance(data, str):
        check_string(data, path, limits)
    elif isinstance(data, dict):
        for key, value in data.items():
            check_string(key, path, limits, key=True)
            check_strings(value, limits, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            check_strings(value, limits, (*path, i))


def checked_json(
    text: str, limits: TextLimits, *, malformed_code: str = "action/malformed"
) -> Any:
    """`parse_json` then `check_strings`: the one call the edges make."""
    data = parse_json(text, malformed_code=malformed_code)
    check_strings(data, limits)
    return data


def sendable(text: str) -> str:
    """`text` with any lone surrogate replaced by U+FFFD, so it always encodes as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATES.sub("\ufffd", text)
    return text

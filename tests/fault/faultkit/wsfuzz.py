"""A seeded generator of WebSocket messages, valid and hostile, and one exchange with the server.

`frame(rng, ctx)` picks a kind by weight and builds its frame from what the game offers right now
(its index, the seat to act and its legal actions), so the same seed gives the same kinds and the
same garbage. Every frame says whether the server MUST refuse it (`must_refuse`): malformed JSON,
wrong types, unknown fields, lone surrogates, control characters, stale indexes, illegal moves...
Valid ones (ping, hello, a legal move) may be accepted.

`exchange(ws, frame)` sends the frame and then a ping as a fence: everything before the fence's
pong is the frame's reply, so a frame that got no reply at all is caught.

Frames stay under uvicorn's 64 KiB frame cap (bigger ones are cut by the protocol layer before
the app sees them); frames between the app's 16 KiB limit and that cap test `message/too_large`.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

# Text that must never be stored: lone surrogates (as JSON escapes), NUL, other control chars.
BAD_TEXT = [
    "a door \ud800 here", "\udfff", "\udc00\ud800 reversed pair", "nul \x00 inside",
    "bell \x07", "escape \x1b[31m red", "\x7f delete",
]
# Unusual but valid text (a plan or description may hold newlines and tabs).
ODD_TEXT = ["Ünïcödé ☄ door", "line one\nline two", "tab\tseparated", "emoji 🚀🛸", "   "]


@dataclass
class Context:
    """What the fuzzer knows of its game and its socket before the next frame."""

    game: str
    index: int
    to_act: int | None
    legal: list[dict[str, Any]]  # the legal actions of the seat to act
    tokens: dict[int, str]
    socket_seat: int | None  # the seat the socket said hello as (None: watcher or not yet)
    said_hello: bool


@dataclass
class Frame:
    kind: str
    data: str | bytes
    must_refuse: bool


def _j(obj: Any) -> str:
    # ensure_ascii: a lone surrogate goes out as the JSON escape \ud800, as a hostile client sends.
    return json.dumps(obj)


def _legal(rng: random.Random, ctx: Context) -> dict[str, Any]:
    if ctx.legal:
        return copy.deepcopy(rng.choice(ctx.legal))
    return {"type": "Roll"} if ctx.game == "perils" else {"type": "Peek", "slot": 0}


def _act(action: Any, index: Any) -> str:
    return _j({"type": "act", "action": action, "index": index})


def _bad_value(rng: random.Random) -> Any:
    return rng.choice([None, True, -1, 10**30, 1.5, "x", [], {}, [[1]], "\ud800", "\x00"])


def _dropped(rng: random.Random, ctx: Context) -> Frame:
    """A legal action without one of its fields: refused, or applied if the field has a default."""
    action = _legal(rng, ctx)
    fields = [k for k in action if k != "type"]
    if fields:
        del action[rng.choice(fields)]
    return Frame("act_dropped_field", _act(action, ctx.index), False)


def _mutate(rng: random.Random, action: dict[str, Any]) -> dict[str, Any]:
    """Break a legal action in one way that no rule allows."""
    fields = [k for k in action if k != "type"]
    how = rng.choice(["extra", "retype", "text"] if fields else ["extra", "text"])
    if how == "extra":
        action["zz_unknown"] = rng.choice([1, "x", None])
    elif how == "retype":
        key = rng.choice(fields)
        choices = [v for v in (None, True, -7, 10**30, 2.5, "x", {"a": 1}, [None], "\ud800")
                   if type(v) is not type(action[key])]
        action[key] = rng.choice(choices)
    else:
        text = rng.choice(BAD_TEXT + ["x" * 2001])
        strings = [k for k, v in action.items() if k != "type" and isinstance(v, str)]
        lists = [k for k, v in action.items() if isinstance(v, list) and v
                 and all(isinstance(x, str) for x in v)]
        if lists and rng.random() < 0.5:
            key = rng.choice(lists)
            action[key] = [text for _ in action[key]]
        elif strings:
            action[rng.choice(strings)] = text
        else:
            action["type"] = action["type"] + text
    return action


def _with_text(rng: random.Random, action: dict[str, Any]) -> dict[str, Any]:
    """Fill free text (Perils plans and descriptions) with unusual but valid text."""
    if action.get("type") == "MakePlan":
        action["plan"] = rng.choice(ODD_TEXT)
    if action.get("type") == "DescribePathways":
        action["descriptions"] = [rng.choice(ODD_TEXT) for _ in action["descriptions"]]
    return action


def _deep(rng: random.Random) -> str:
    depth = rng.choice([50, 999, 1000, 2500, 5000])
    if rng.random() < 0.5:
        inner = "[" * depth + "]" * depth
    else:
        inner = '{"a":' * depth + "1" + "}" * depth
    return rng.choice([inner, '{"type":"act","index":0,"action":' + inner + "}",
                       '{"type":"hello","seat":' + inner + "}"])


def _huge_int(rng: random.Random, ctx: Context) -> str:
    digits = "9" * rng.choice([4301, 5000, 10000])
    return rng.choice([
        '{"type":"act","action":' + _j(_legal(rng, ctx)) + ',"index":' + digits + "}",
        '{"type":"hello","seat":' + digits + ',"token":null}',
        '{"type":"hello","seat":null,"token":null,"since":' + digits + "}",
        '{"type":"ping","n":' + digits + "}",
        "-" + digits,
    ])


def _garbage(rng: random.Random) -> str:
    return rng.choice([
        "", " ", "{", "}", "nope", "[1, 2", "{'type': 'ping'}", "NaN", "Infinity", "-Infinity",
        "null", "true", "0", '"ping"', "[]", '[{"type":"ping"}]', '{"type": 5}',
        '{"type": null}', '{"type": ["ping"]}', "{}", '{"tipe": "ping"}', '{"type":"PING"}',
        '{"type":"shout","text":"hi"}', '{"type":"ping","type":"act"}', "\ufeff{}",
        '{"type":"\\ud800"}', '{"type":"hello\\u0000"}', '{"type":"act","index":NaN}',
    ])


def _binary(rng: random.Random) -> bytes:
    return rng.choice([
        b"\xff\xfe\xfd", b'{"type":"ping"\xff}', b"\xed\xa0\x80", b"\xc0\xaf",
        b'{"type":"hello","token":"\xed\xa0\x80"}', b"\x80" * 64,
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) + b"\xff",
    ])


def _hello(seat: Any, token: Any, since: Any = 0, **extra: Any) -> str:
    return _j({"type": "hello", "seat": seat, "token": token, "since": since, **extra})


def _acting_seat(ctx: Context) -> int | None:
    return ctx.to_act if ctx.to_act is not None and ctx.legal else None


Maker = Callable[[random.Random, Context], Frame]


def _valid_move(rng: random.Random, ctx: Context) -> Frame:
    seat = _acting_seat(ctx)
    if seat is None:
        return Frame("ping", _j({"type": "ping"}), False)
    if ctx.socket_seat != seat:  # become the seat to act first (a valid message too)
        return Frame("hello_ok", _hello(seat, ctx.tokens[seat], ctx.index), False)
    action = _legal(rng, ctx)
    if rng.random() < 0.5:
        action = _with_text(rng, action)
    return Frame("act_valid", _act(action, ctx.index), False)


def _wrong_seat(rng: random.Random, ctx: Context) -> Frame:
    seat = _acting_seat(ctx)
    if seat is not None and ctx.socket_seat is not None and ctx.socket_seat != seat:
        return Frame("act_not_your_turn", _act(_legal(rng, ctx), ctx.index), True)
    return Frame("act_stale", _act(_legal(rng, ctx), ctx.index - 1 if ctx.index else -1), True)


def _bad_token(rng: random.Random, ctx: Context) -> Frame:
    seat = rng.choice(sorted(ctx.tokens))
    other = ctx.tokens[(seat + 1) % len(ctx.tokens)]  # a real token, for another seat
    token = rng.choice([None, "", "x", "A" * 32, ctx.tokens[seat][::-1], other, 7, [],
                        ctx.tokens[seat] + "x", ctx.tokens[seat][:-1]])
    return Frame("hello_bad_token", _hello(seat, token), True)


KINDS: list[tuple[str, int, Maker]] = [
    ("ping", 4, lambda r, c: Frame("ping", _j({"type": "ping"}), False)),
    ("valid_move", 14, _valid_move),
    ("hello_watch", 2, lambda r, c: Frame("hello_watch", _hello(None, None, 0), False)),
    ("hello_bad_token", 5, _bad_token),
    ("hello_bad_seat", 4, lambda r, c: Frame("hello_bad_seat", _hello(
        r.choice([-1, 2, 99, "0", 1.5, True, [0], {"s": 0}, 10**30]), c.tokens[0]), True)),
    ("hello_bad_since", 3, lambda r, c: Frame("hello_bad_since", _hello(
        None, None, r.choice([-1, "0", 1.5, [], True, {"i": 1}])), True)),
    ("hello_unknown_field", 2, lambda r, c: Frame("hello_unknown_field", _hello(
        None, None, 0, admin=True), True)),
    ("hello_surrogate", 3, lambda r, c: Frame("hello_surrogate", _hello(
        r.choice(sorted(c.tokens)), r.choice(BAD_TEXT[:3]) + c.tokens[0]), True)),
    ("act_stale", 5, lambda r, c: Frame("act_stale", _act(
        _legal(r, c), c.index - r.randint(1, 3) if c.index >= 3 else -1), True)),
    ("act_future", 4, lambda r, c: Frame("act_future", _act(
        _legal(r, c), c.index + r.choice([1, 2, 1000])), True)),
    ("act_bad_index", 4, lambda r, c: Frame("act_bad_index", _act(
        _legal(r, c), r.choice([str(c.index), float(c.index) + 0.5, None, True, [c.index],
                                "\ud800"])), True)),
    ("act_not_your_turn", 4, _wrong_seat),
    ("act_missing_field", 3, lambda r, c: Frame("act_missing_field", r.choice([
        _j({"type": "act", "index": c.index}), _j({"type": "act", "action": _legal(r, c)}),
        _j({"type": "act"})]), True)),
    ("act_not_object", 3, lambda r, c: Frame("act_not_object", _act(
        r.choice(["Roll", 5, [], None, [_legal(r, c)], True]), c.index), True)),
    ("act_unknown_type", 3, lambda r, c: Frame("act_unknown_type", _act(
        r.choice([{"type": "Teleport"}, {"type": ""}, {"type": None}, {}, {"type": 3},
                  {"type": "roll"}]), c.index), True)),
    ("act_mutated", 10, lambda r, c: Frame("act_mutated", _act(
        _mutate(r, _legal(r, c)), c.index), True)),
    ("act_dropped_field", 2, _dropped),
    ("act_bad_value", 3, lambda r, c: Frame("act_bad_value", _act(
        {"type": _legal(r, c)["type"], "zz": _bad_value(r)}, c.index), True)),
    ("garbage", 6, lambda r, c: Frame("garbage", _garbage(r), True)),
    ("deep_json", 3, lambda r, c: Frame("deep_json", _deep(r), True)),
    ("huge_int", 3, lambda r, c: Frame("huge_int", _huge_int(r, c), True)),
    ("too_large", 2, lambda r, c: Frame("too_large", _j(
        {"type": "ping", "pad": "x" * r.randrange(17_000, 60_000)}), True)),
    ("binary_bad_utf8", 3, lambda r, c: Frame("binary_bad_utf8", _binary(r), True)),
    ("binary_json", 1, lambda r, c: Frame("binary_json", b'{"type":"ping"}', False)),
    ("surrogate_field", 3, lambda r, c: Frame("surrogate_field", r.choice([
        '{"type":"act","index":0,"action":{"type":"\\ud800"}}',
        '{"type":"hello","seat":null,"token":"\\udfff"}',
        '{"type":"ping\\ud800"}',
        '{"type":"hello","seat":null,"token":null,"since":0,"\\ud800":1}',
    ]), True)),
]


def frame(rng: random.Random, ctx: Context) -> Frame:
    """One frame, its kind drawn by weight."""
    weights = [w for _, w, _ in KINDS]
    _, _, make = rng.choices(KINDS, weights=weights)[0]
    return make(rng, ctx)


@dataclass
class Reply:
    """What came back for one frame: `kind` is error, snapshot, update, pong, none or closed."""

    kind: str
    code: str | None = None
    index: int | None = None
    messages: list[dict[str, Any]] | None = None
    error_before_close: bool = False


def _is_ping(data: str | bytes) -> bool:
    try:
        parsed = json.loads(data)
    except (ValueError, RecursionError):
        return False
    return isinstance(parsed, dict) and parsed.get("type") == "ping"


PING = json.dumps({"type": "ping"})


def exchange(ws: ClientConnection, f: Frame, timeout: float = 15.0) -> Reply:
    """Send `f`, then a ping fence; read until the fence's pong and classify the reply."""
    want_pongs = 2 if _is_ping(f.data) else 1
    got: list[dict[str, Any]] = []
    try:
        ws.send(f.data)
        ws.send(PING)
        pongs = 0
        while pongs < want_pongs:
            msg = json.loads(ws.recv(timeout=timeout))
            got.append(msg)
            if msg.get("type") == "pong":
                pongs += 1
            elif msg.get("type") == "error" and want_pongs == 2:
                want_pongs = 1  # a ping-shaped frame refused (size, rate): only the fence pongs
    except ConnectionClosed:
        errors = [m for m in got if m.get("type") == "error"]
        return Reply("closed", errors[0]["error"]["code"] if errors else None, messages=got,
                     error_before_close=bool(errors))
    except TimeoutError:
        return Reply("none", messages=got)
    for msg in got:
        if msg.get("type") == "error":
            return Reply("error", msg["error"]["code"], messages=got)
        if msg.get("type") == "snapshot":
            return Reply("snapshot", index=msg["index"], messages=got)
    updates = [m for m in got if m.get("type") == "update"]
    if updates:
        return Reply("update", index=max(m["index"] for m in updates), messages=got)
    if want_pongs == 2:
        return Reply("pong", messages=got)
    return Reply("none", messages=got)

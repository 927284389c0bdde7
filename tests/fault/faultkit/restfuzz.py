"""A seeded fuzzer of the REST API, driven by the server's own OpenAPI schema.

`operations(openapi)` lists every (method, path) of `/openapi.json`, so a new route is fuzzed
without touching this file. `build(rng, op, ctx)` makes one request for an operation: path
parameters, query parameters, the Authorization header and the JSON body are each either
plausible (drawn from the schema and from the live games the fuzzer set up) or, with some
chance, hostile (unknown ids, wrong types, missing or unknown fields, lone surrogates, control
characters, huge integers, deep nesting, invalid JSON or UTF-8, oversized bodies). A request
with anything hostile in it is marked `hostile`: the server must refuse it with a 4xx.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

HOSTILE_CHANCE = 0.55
MAX_BODY = 16 * 1024  # the server's request body limit (Settings.max_message_bytes)

BAD_TEXT = ["door \ud800 here", "\udfff", "nul \x00", "bell \x07", "\x1b[2J"]
SAFE_BOTS = ["random", "memory", "forgetful", "rulebased", "teller", "planner:samples=2"]


@dataclass
class Operation:
    method: str
    path: str
    params: list[dict[str, Any]]
    body: dict[str, Any] | None
    body_required: bool


def operations(openapi: dict[str, Any]) -> list[Operation]:
    """Every operation in the schema, in a fixed order."""
    ops = []
    for path in sorted(openapi["paths"]):
        for method in sorted(openapi["paths"][path]):
            spec = openapi["paths"][path][method]
            body = spec.get("requestBody")
            schema = body["content"]["application/json"]["schema"] if body else None
            ops.append(Operation(method.upper(), path, list(spec.get("parameters", [])), schema,
                                 bool(body and body.get("required"))))
    return ops


@dataclass
class Context:
    """What plausible values can come from: live games, their tokens, their legal moves."""

    components: dict[str, Any]
    game_ids: list[str]
    tokens: dict[str, dict[int, str]]  # game id -> seat -> token
    creator: dict[str, str]
    legal: dict[str, tuple[int, int, list[dict[str, Any]]]]  # id -> (to_act, index, legal)
    kinds: dict[str, str]  # id -> "adventure" | "perils"


@dataclass
class Request:
    method: str
    url: str
    params: dict[str, Any]
    headers: dict[str, str]
    content: bytes | None
    hostile: list[str] = field(default_factory=list)
    game_id: str | None = None

    def describe(self) -> str:
        body = (self.content or b"")[:100]
        return f"{self.method} {self.url} {self.params} {body!r} hostile={self.hostile}"


def _resolve(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _plausible(rng: random.Random, name: str, schema: dict[str, Any], ctx: Context,
               gid: str | None) -> Any:
    """A value a friendly client could send for this field."""
    schema = _resolve(schema, ctx.components)
    if "anyOf" in schema:
        return _plausible(rng, name, rng.choice(schema["anyOf"]), ctx, gid)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    to_act, index, legal = ctx.legal.get(gid or "", (0, 0, []))
    if name == "game":
        return rng.choice(["adventure", "perils", "adventure", "chess"])
    if name == "players":
        return rng.choice([2, 2, 3, 1, 6])
    if name == "bot":
        return rng.choice(SAFE_BOTS + ["nonsense", "memory:level=9"])
    if name == "name":
        return rng.choice(["Alice", "Bob", "Zoë", "", "x" * 41])
    if name == "action":
        return rng.choice(legal) if legal else {"type": "Roll"}
    if name == "seat":
        return to_act if rng.random() < 0.7 else rng.choice([0, 1])
    if name == "index":
        return index
    if name == "options":
        return rng.choice([{}, {}, {"no_such_option": 1}])
    if name in ("takeover_after_s", "turn_clock_s"):
        return rng.choice([None, None, 60, 0, -5])
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", []))
        return {k: _plausible(rng, k, v, ctx, gid) for k, v in sorted(props.items())
                if k in required or rng.random() < 0.5}
    if kind == "array":
        items = schema.get("items", {})
        count = rng.randint(1, min(3, schema.get("maxItems", 3)))
        if name == "seats":
            return [{"kind": "human"} for _ in range(2)] if rng.random() < 0.5 else [
                _plausible(rng, "", items, ctx, gid) for _ in range(count)]
        return [_plausible(rng, "", items, ctx, gid) for _ in range(count)]
    if kind == "integer":
        return rng.randint(0, 3)
    if kind == "boolean":
        return rng.choice([True, False])
    if kind == "string":
        return "text"
    return None


# A value of another JSON type (None is left out: optional fields may be null).
_OTHER_TYPE: dict[type, list[Any]] = {
    int: ["x", 2.5, [], {"z": 1}],
    str: [5, [], {"z": 1}, True],
    dict: ["x", 5, []],
    list: ["x", 5, {"z": 1}],
    bool: ["x", [], {"z": 1}],
    float: ["x", [], {"z": 1}],
}


def _hostile_body(rng: random.Random, body: Any, required: set[str], notes: list[str]) -> bytes:
    """Break a plausible body in one way."""
    how = rng.choice(["missing", "extra", "retype", "surrogate", "control", "huge_int", "deep",
                      "invalid_json", "bad_utf8", "too_large", "not_object"])
    if how == "missing" and not required & set(body if isinstance(body, dict) else ()):
        how = "extra"
    if how == "retype" and isinstance(body, dict) and all(v is None for v in body.values()):
        how = "extra"
    notes.append(f"body:{how}")
    if isinstance(body, dict) and how in ("missing", "extra", "retype", "surrogate", "control"):
        keys = sorted(body)
        if how == "missing":
            del body[rng.choice(sorted(required & set(body)))]
        elif how == "extra" or not keys:
            body["zz_unknown"] = 1
        elif how == "retype":
            key = rng.choice([k for k in keys if body[k] is not None])
            body[key] = rng.choice(_OTHER_TYPE[type(body[key])])
        else:
            text = rng.choice(BAD_TEXT[:2] if how == "surrogate" else BAD_TEXT[2:])
            action = body.get("action")
            if isinstance(action, dict) and rng.random() < 0.7:
                # Where text is meant to go: a Teller's descriptions, a Hero's plan.
                if "descriptions" in action:
                    action["descriptions"] = [text for _ in action["descriptions"]]
                else:
                    action["plan"] = text
            else:
                key = rng.choice(keys)
                body[key] = text if not isinstance(body[key], dict) else {**body[key],
                                                                           "plan": text}
        return json.dumps(body).encode()
    if how == "huge_int":
        return b'{"seat": 0, "index": ' + b"9" * 5000 + b', "players": 1, "action": {}}'
    if how == "deep":
        depth = rng.choice([1000, 5000])
        return b'{"action": ' + b"[" * depth + b"]" * depth + b"}"
    if how == "invalid_json":
        return rng.choice([b"{", b"nope", b"{'a': 1}", b'{"a": NaN}', b"[1,"])
    if how == "bad_utf8":
        return rng.choice([b'{"name": "\xff\xfe"}', b"\xed\xa0\x80", b'{"kind": "\xc0\xaf"}'])
    if how == "too_large":
        return json.dumps({"name": "x" * rng.randrange(MAX_BODY + 1, 4 * MAX_BODY)}).encode()
    notes[-1] = "body:not_object"
    return json.dumps(rng.choice([[], 5, "text", [body]])).encode()


def _path_value(rng: random.Random, name: str, ctx: Context, notes: list[str]) -> str:
    hostile = rng.random() < HOSTILE_CHANCE / 3
    if name == "game_id":
        if hostile:
            notes.append("path:game_id")
            return rng.choice(["nope", "x" * 300, "%ED%A0%80", "%00", "..%2F..", "g%C3%BC",
                               "%FF"])
        return rng.choice(ctx.game_ids)
    if name == "seat":
        if hostile:
            notes.append("path:seat")
            return rng.choice(["-1", "2", "99", "abc", "1.5", str(10**30), "%00"])
        return rng.choice(["0", "1"])
    if name == "game":
        if hostile:
            notes.append("path:game")
            return rng.choice(["chess", "x" * 300, "%ED%A0%80", "%00"])
        return rng.choice(["adventure", "perils"])
    return "x"


def build(rng: random.Random, op: Operation, ctx: Context) -> Request:
    """One request for `op`, plausible or (marked) hostile."""
    notes: list[str] = []
    url = op.path
    gid = None
    for param in op.params:
        if param["in"] == "path":
            value = _path_value(rng, param["name"], ctx, notes)
            if param["name"] == "game_id":
                gid = value
            url = url.replace("{" + param["name"] + "}", value)
    params: dict[str, Any] = {}
    headers: dict[str, str] = {"Content-Type": "application/json"}
    tokens = ctx.tokens.get(gid or "", {})
    for param in op.params:
        name, where = param["name"], param["in"]
        if where == "query" and rng.random() < 0.7:
            if rng.random() < HOSTILE_CHANCE / 3:
                notes.append(f"query:{name}")
                params[name] = rng.choice(["-1", "x", "1.5", str(10**30) + "x", "%00"])
                if name == "open":
                    params[name] = rng.choice(["maybe", "2", "x"])
            elif name == "seat":
                params[name] = rng.choice(sorted(tokens) or [0])
            elif name == "since":
                params[name] = rng.randint(0, 5)
            else:
                params[name] = str(_plausible(rng, name, param["schema"], ctx, gid)).lower()
        if where == "header" and name == "Authorization":
            pick = rng.random()
            if pick < 0.25 and gid in ctx.creator:
                headers[name] = f"Bearer {ctx.creator[gid]}"
            elif pick < 0.75 and tokens:
                seat = params.get("seat", ctx.legal.get(gid or "", (0,))[0])
                headers[name] = f"Bearer {tokens.get(int(seat) if str(seat).isdigit() else 0, '')}"
            elif pick < 0.9:
                headers[name] = rng.choice(["Bearer nope", "Basic abc", "Bearer", "bearer  x"])
    content: bytes | None = None
    if op.body is not None and (op.body_required or rng.random() < 0.7):
        body = _plausible(rng, "", op.body, ctx, gid)
        if rng.random() < HOSTILE_CHANCE:
            schema = _resolve(op.body, ctx.components)
            branches = [_resolve(b, ctx.components) for b in schema.get("anyOf", [schema])]
            required = {k for b in branches for k in b.get("required", [])}
            content = _hostile_body(rng, body, required, notes)
        else:
            content = json.dumps(body).encode()
    return Request(op.method, url, params, headers, content, notes, gid)

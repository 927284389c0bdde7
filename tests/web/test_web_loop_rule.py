"""The rule "slow work never runs on the event loop", kept by reading the code (an AST walk).

In every module of pocketgalaxy.web (cluster included), an `async def` may not call the store
itself (`self.store.x(...)`, `hub.store.x(...)`, `store.x(...)`), nor a plain (sync) function of
web/ that reaches the store, directly or through other such functions (`Hub.get`, `Hub._load`,
`integrity.load`...). Handing the store's method to a thread is fine: `asyncio.to_thread(
self.store.x, ...)` passes it without calling it, and a lambda (run by `commit.held` in a
thread) is not walked as part of the coroutine.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pocketgalaxy.web

WEB = Path(pocketgalaxy.web.__file__).parent
_RECEIVERS = {"self", "hub", "self.hub"}  # who the web modules call the hub or themselves by


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def _own_calls(fn: ast.AST) -> Iterator[ast.Call]:
    """The calls made by `fn`'s own body (not by the functions or lambdas defined inside it)."""
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _is_store_call(call: ast.Call) -> bool:
    if not isinstance(call.func, ast.Attribute):
        return False
    receiver = _dotted(call.func.value)
    return receiver is not None and (receiver == "store" or receiver.endswith(".store"))


def _callee(call: ast.Call, modules: set[str]) -> str | None:
    """The name of a web/ function this call may reach (a method of self/hub, a function of a
    web module the file imports, a bare name); None for anything else (a dict's `get`)."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        receiver = _dotted(func.value)
        if receiver in _RECEIVERS or receiver in modules:
            return func.attr
    return None


def _web_modules_imported(tree: ast.Module) -> set[str]:
    """The names a file gives the web modules it imports (`from pocketgalaxy.web import x`)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pocketgalaxy.web"):
            names |= {a.asname or a.name for a in node.names}
    return names


def _functions(trees: dict[str, ast.Module]) -> Iterator[tuple[str, set[str], ast.AST]]:
    for name, tree in trees.items():
        modules = _web_modules_imported(tree)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield name, modules, node


def store_calls_on_the_loop(trees: dict[str, ast.Module]) -> list[str]:
    """Every `module:function:line` where an async function makes a store call on the loop."""
    functions = list(_functions(trees))
    # The sync functions that reach the store, directly or through each other (a fixpoint).
    reaching: set[str] = set()
    while True:
        grown = {
            fn.name for _, modules, fn in functions
            if isinstance(fn, ast.FunctionDef) and fn.name not in reaching
            and any(_is_store_call(c) or _callee(c, modules) in reaching for c in _own_calls(fn))
        }
        if not grown:
            break
        reaching |= grown
    found = []
    for module, modules, fn in functions:
        if not isinstance(fn, ast.AsyncFunctionDef):
            continue
        for call in _own_calls(fn):
            callee = _callee(call, modules)
            if _is_store_call(call) or callee in reaching:
                found.append(f"{module}:{fn.name}:{call.lineno} ({ast.unparse(call.func)})")
    return sorted(found)


def _web_trees() -> dict[str, ast.Module]:
    trees = {}
    for path in sorted(WEB.rglob("*.py")):
        name = ".".join(path.relative_to(WEB.parent).with_suffix("").parts)
        trees[name] = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return trees


def test_no_async_function_of_the_web_table_calls_the_store_on_the_event_loop() -> None:
    trees = _web_trees()
    assert len(trees) > 20 and "web.hub" in trees  # the walk sees the package
    assert store_calls_on_the_loop(trees) == []


_PROBE = '''
import asyncio
from pocketgalaxy.web import integrity

class Hub:
    def get(self, game_id):
        return self._load(game_id)

    def _load(self, game_id):
        return integrity.load(self.store, game_id)

    async def direct(self, live):
        self.store.update_seats(live.id, [])

    async def through_a_helper(self, game_id):
        return self.get(game_id)

    async def through_a_module(self, game_id):
        return integrity.load(self.store, game_id)

    async def in_a_thread(self, live):
        await asyncio.to_thread(self.store.update_seats, live.id, [])
        await held(lambda: self.store.touch(live.id), print)
        tokens = {}
        return self.live.get(live.id) or tokens.get(1)
'''

_PROBE_INTEGRITY = '''
def load(store, game_id):
    return store.load_game(game_id)
'''


def test_the_rule_finds_direct_and_indirect_store_calls_and_spares_threads() -> None:
    trees = {"probe.hub": ast.parse(_PROBE), "probe.integrity": ast.parse(_PROBE_INTEGRITY)}
    assert store_calls_on_the_loop(trees) == [
        "probe.hub:direct:13 (self.store.update_seats)",
        "probe.hub:through_a_helper:16 (self.get)",
        "probe.hub:through_a_module:19 (integrity.load)",
    ]

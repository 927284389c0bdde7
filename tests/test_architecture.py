"""Imports point inward: core imports no game; games import only core; games import no shell."""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "pocketgalaxy"
SHELLS = ("agents", "cli", "web", "sim", "rl", "session", "registry")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return {m for m in found if m.startswith("pocketgalaxy")}


def test_core_imports_no_game_and_no_shell() -> None:
    for path in (SRC / "core").rglob("*.py"):
        for mod in _imports(path):
            assert mod.startswith("pocketgalaxy.core"), f"{path.name} imports {mod}"


def test_games_import_only_core_and_themselves() -> None:
    files = list((SRC / "games").rglob("*.py"))
    assert files, "no game modules found"
    for path in files:
        game = path.relative_to(SRC / "games").parts[0]
        for mod in _imports(path):
            ok = mod.startswith("pocketgalaxy.core") or mod.startswith(f"pocketgalaxy.games.{game}")
            assert ok, f"games/{path.relative_to(SRC / 'games')} imports {mod}"


def test_core_and_games_need_no_third_party_package() -> None:
    import sys

    stdlib = set(sys.stdlib_module_names)
    for path in [*(SRC / "core").rglob("*.py"), *(SRC / "games").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in stdlib or top in ("pocketgalaxy", "__future__"), (
                    f"{path.name} imports {name}"
                )


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PLAYER_PACKAGES = {"perils": 8, "adventure": 5}
"""Each game's computer players are one package split by job (at least this many modules)."""


@pytest.mark.parametrize("game", sorted(PLAYER_PACKAGES))
def test_the_players_of_each_game_import_no_circle(game: str) -> None:
    """agents/<game>/ is one package whose modules import each other one way only."""
    root = SRC / "agents" / game
    files = sorted(root.rglob("*.py"))
    assert len(files) >= PLAYER_PACKAGES[game], f"agents/{game}/ should be split by job"
    names = {_module_name(p): p for p in files}
    graph = {name: {m for m in _imports(path) if m in names and m != name}
             for name, path in names.items()}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            assert state.get(nxt) != 1, "import circle: " + " -> ".join([*trail, node, nxt])
            if nxt not in state:
                visit(nxt, [*trail, node])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    for path in files:
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 600, path.name


@pytest.mark.parametrize("game", sorted(PLAYER_PACKAGES))
def test_each_player_module_imports_alone(game: str) -> None:
    import subprocess
    import sys

    root = SRC / "agents" / game
    for path in sorted(root.rglob("*.py")):
        name = _module_name(path)
        done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, f"{name} does not import alone: {done.stderr[-400:]}"


ORACLE_MODULE = "pocketgalaxy.sim.balance.oracle"
ORACLE_IMPORTERS = {"pocketgalaxy.sim.balance.ladder"}
"""The players that read the whole state (the skill ladder's oracle) are the one documented
exception to "agents see only views": only the ladder may import them."""


def _graph() -> dict[str, set[str]]:
    names = {_module_name(p): p for p in SRC.rglob("*.py")}
    return {name: {m for m in _imports(path) if m in names} for name, path in names.items()}


def test_only_the_ladder_imports_the_oracle() -> None:
    graph = _graph()
    assert ORACLE_MODULE in graph
    importers = {name for name, deps in graph.items() if ORACLE_MODULE in deps}
    assert importers == ORACLE_IMPORTERS
    # ... and no player module reaches into the simulation lab.
    for name, deps in graph.items():
        if name.startswith("pocketgalaxy.agents"):
            assert not any(d.startswith("pocketgalaxy.sim") for d in deps), name


def test_the_web_and_play_cannot_reach_the_oracle() -> None:
    graph = _graph()

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo.extend(graph.get(node, ()))
        return seen

    starts = [n for n in graph if n.startswith("pocketgalaxy.web")]
    starts += ["pocketgalaxy.cli.play", "pocketgalaxy.cli.simulate_cmd", "pocketgalaxy.cli.host"]
    for start in starts:
        assert ORACLE_MODULE not in reach(start), f"{start} can reach the oracle"


def test_no_registry_or_catalogue_can_seat_the_oracle() -> None:
    import pytest

    from pocketgalaxy.agents.catalogue import entries
    from pocketgalaxy.agents.registry import agent_names, make_agent
    from pocketgalaxy.core.errors import PocketGalaxyError

    for game, seats in (("perils", 2), ("adventure", 4)):
        for seat in range(seats):
            assert "oracle" not in agent_names(game, seat, seats)
            with pytest.raises(PocketGalaxyError) as info:
                make_agent(game, "oracle", seat, seats)
            assert info.value.code == "agent/unknown"
        assert all("oracle" not in e.spec for e in entries(game))


def _asyncio_run_calls(path: Path) -> list[int]:
    """Lines of `path` that call `asyncio.run(...)` itself (not passing it along as a value)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "run" and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "asyncio"]


def test_tests_start_event_loops_only_through_loopkit() -> None:
    # Once a browser test has run, Playwright's loop is running in the main thread for the rest of
    # the session and a bare asyncio.run fails there: tests use loopkit.run_on_own_loop instead.
    tests = Path(__file__).resolve().parent
    offenders = [f"{p.relative_to(tests)}:{line}" for p in sorted(tests.rglob("*.py"))
                 if p.name != "loopkit.py" for line in _asyncio_run_calls(p)]
    assert offenders == []


def test_the_loop_probe_finds_a_bare_asyncio_run(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import asyncio\n\nasync def f(): ...\n\nasyncio.run(f())\n", encoding="utf-8")
    assert _asyncio_run_calls(probe) == [5]

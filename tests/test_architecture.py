"""Imports point inward: core imports no game; games import only core; games import no shell."""

import ast
from pathlib import Path

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

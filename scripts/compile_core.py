"""Build, remove or inspect the mypyc-compiled rules core (docs/speed.md).

    python scripts/compile_core.py build [--force]   # `make compile`
    python scripts/compile_core.py clean             # `make pure`
    python scripts/compile_core.py status            # which path a fresh process uses

`build` compiles the modules in COMPILED with mypyc into extension modules beside their `.py`
files in src/ (gitignored), then writes src/pocketgalaxy/_compiled.json with a SHA-256 of each
source. It does nothing when that manifest already matches the source (`--force` rebuilds).
A failed build removes what it wrote and exits with status 1: the pure package keeps working.
Needs a C compiler and the Python headers (Debian: `apt-get install gcc python3-dev`).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "pocketgalaxy"
MANIFEST = PACKAGE / "_compiled.json"
BUILD = ROOT / "build" / "mypyc"

# The rules core, Adventure Cards and the hot modules of Perils & Pathways. Left pure:
# core/errors.py (exception classes, subclassed by the shells and raised only on refusals),
# core/mypyc_marks.py (has a stub), the packages' __init__ files, games/adventure/options.py and
# games/perils/options.py (compiled, a class's annotations become plain classes, and the options'
# Literal types are read at run time), games/adventure/views.py and games/adventure/content.py
# (frozen dataclasses that cross to worker processes: compiled, they do not unpickle), and
# Perils' actions (their legal lists share instances), explain and physical (cold:
# docs/speed.md).
COMPILED: tuple[str, ...] = (
    "pocketgalaxy/core/cards.py",
    "pocketgalaxy/core/game.py",
    "pocketgalaxy/core/options.py",
    "pocketgalaxy/core/record.py",
    "pocketgalaxy/core/rng.py",
    "pocketgalaxy/games/adventure/actions.py",
    "pocketgalaxy/games/adventure/effects.py",
    "pocketgalaxy/games/adventure/events.py",
    "pocketgalaxy/games/adventure/explain.py",
    "pocketgalaxy/games/adventure/identities.py",
    "pocketgalaxy/games/adventure/legality.py",
    "pocketgalaxy/games/adventure/listing.py",
    "pocketgalaxy/games/adventure/recap.py",
    "pocketgalaxy/games/adventure/rules.py",
    "pocketgalaxy/games/adventure/state.py",
    "pocketgalaxy/games/perils/checks.py",
    # Perils random playouts (issue 12 item 5): the state and the events the compiled rules
    # build and read at every decision (docs/speed.md, "Perils random playouts").
    "pocketgalaxy/games/perils/events.py",
    "pocketgalaxy/games/perils/state.py",
    "pocketgalaxy/games/perils/narration.py",
    "pocketgalaxy/games/perils/penalty.py",
    "pocketgalaxy/games/perils/plan_words.py",
    "pocketgalaxy/games/perils/planning.py",
    "pocketgalaxy/games/perils/rules.py",
    "pocketgalaxy/games/perils/story.py",
    "pocketgalaxy/games/perils/things.py",
    # The Perils million (docs/speed.md): the plan rubric the computer Teller judges by at
    # every plan, and the verdict it returns (verdict.py). Their frozen dataclasses are verdicts
    # and reasons, never pickled.
    "pocketgalaxy/games/perils/rubric.py",
    "pocketgalaxy/games/perils/verdict.py",
    # The Perils million, second part (docs/speed.md, "2026-12-02"): the seat views built at
    # every decision (their frozen dataclasses pickle through `__reduce__`), and the rule-based
    # Hero that reads them, with the plan writer and the agents' base (`Agent`, `RandomAgent`
    # open to interpreted subclasses: every other player stays pure).
    "pocketgalaxy/games/perils/views.py",
    # ... and the odds a view carries while a peril waits (RollOdds and PerilOdds pickle through
    # their `__reduce__`, as the views do).
    "pocketgalaxy/games/perils/odds.py",
    "pocketgalaxy/agents/base.py",
    "pocketgalaxy/agents/perils/common.py",
    "pocketgalaxy/agents/perils/plans.py",
    "pocketgalaxy/agents/perils/worth.py",
    "pocketgalaxy/agents/perils/hero.py",
    # The Perils million, hero part (docs/speed.md): the simulator's turn loop, which calls the
    # compiled rules and Hero about 200 times a Perils game.
    "pocketgalaxy/sim/turns.py",
    # The Perils million, applying actions: a round's play split from rules.py by job, and the
    # options' rulings it reads at every action in native fields with the card tables
    # (docs/speed.md).
    "pocketgalaxy/games/perils/rounds.py",
    "pocketgalaxy/games/perils/flow.py",
)


def _module(rel: str) -> str:
    return rel.removesuffix(".py").replace("/", ".")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _manifest() -> dict[str, object]:
    return {
        "format": "pocketgalaxy-compiled",
        "python": sys.implementation.cache_tag,
        "modules": [_module(rel) for rel in COMPILED],
        "sources": {rel: _digest(SRC / rel) for rel in COMPILED},
    }


def _outputs() -> list[Path]:
    """Every extension module a build may have written under src/ (shims and shared library)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = [p for d in ("core", "games", "agents", "sim") for p in (PACKAGE / d).rglob("*")]
    found += list(SRC.glob("*__mypyc*"))
    return sorted(p for p in found if p.name.endswith(suffixes))


def clean() -> None:
    for path in _outputs():
        path.unlink()
    MANIFEST.unlink(missing_ok=True)
    shutil.rmtree(BUILD, ignore_errors=True)


def fresh() -> bool:
    try:
        return bool(json.loads(MANIFEST.read_text(encoding="utf-8")) == _manifest()
                    and _outputs())
    except (OSError, ValueError):
        return False


def build(force: bool) -> int:
    if not force and fresh():
        print("compiled rules core is up to date (scripts/compile_core.py build --force rebuilds)")
        return 0
    clean()
    BUILD.mkdir(parents=True, exist_ok=True)
    # In a child process: setuptools and mypyc configure global state, and the build must run
    # in src/ so the extension modules land beside their sources.
    code = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"paths = {list(COMPILED)!r}\n"
        f"exts = mypycify(['--cache-dir', {str(BUILD / 'cache')!r}, *paths], opt_level='3',"
        f" debug_level='0', target_dir={str(BUILD)!r})\n"
        "setup(name='pocketgalaxy-compiled', ext_modules=exts, script_args=['build_ext',"
        f" '--inplace', '--build-temp', {str(BUILD / 'temp')!r}, '--build-lib',"
        f" {str(BUILD / 'lib')!r}, '-j', '2'])\n"
    )
    # The sources' digests as the build reads them: a file edited during the build must leave
    # the manifest stale, not vouch for an extension made from its older text.
    manifest = _manifest()
    started = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=str(SRC))
    result = subprocess.run([sys.executable, "-c", code], cwd=SRC, env=env,
                            capture_output=True, text=True)
    spent = time.perf_counter() - started
    if result.returncode != 0:
        clean()
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        sys.stderr.write(f"\nmypyc build FAILED after {spent:.0f} s: the pure-Python rules core "
                         "stays in use (see docs/speed.md for what the build needs)\n")
        return 1
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"compiled {len(COMPILED)} modules with mypyc in {spent:.0f} s")
    return 0


def status() -> int:
    """Ask a fresh interpreter, as every other process will."""
    code = (
        "import json, pocketgalaxy.speedpath as sp\n"
        "for m in sp.status()['modules']: __import__(m)\n"
        "print(json.dumps(sp.status()))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(os.environ, PYTHONPATH=str(SRC)))
    info = json.loads(out.stdout)
    print(f"speed path: {'compiled' if info['compiled'] else 'pure Python'} ({info['reason']})")
    for name, file in sorted(info["loaded"].items()):
        print(f"  {name}: {Path(file).name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("build", "clean", "status"))
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    args = parser.parse_args(argv)
    if args.command == "build":
        return build(args.force)
    if args.command == "clean":
        clean()
        print("removed the compiled rules core: the pure-Python source is in use")
        return 0
    return status()


if __name__ == "__main__":
    sys.exit(main())

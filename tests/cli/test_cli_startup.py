"""The command line starts fast: importing the app, or asking for --help, loads no heavy library.

The simulator's statistics (SciPy, statsmodels, NumPy), the plots (Matplotlib), the tuner
(Optuna), Ray, the web table (FastAPI, uvicorn, SQLAlchemy) and the PDFs (ReportLab) load
inside the commands that use them. Each check runs in a fresh interpreter, since this test
process has long imported them all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import typer.main

from pocketgalaxy.cli.app import app

HEAVY = ("statsmodels", "scipy", "matplotlib", "optuna", "ray", "uvicorn", "fastapi",
         "starlette", "sqlalchemy", "numpy", "pandas", "reportlab")
"""Libraries the start of every command must not pay for."""

COMMANDS = ("balance", "companion", "db", "play", "players", "print", "replay", "resume",
            "rules", "serve", "simulate", "tell", "tournament", "tutorial")
"""Every top-level command of `pocketgalaxy` (README's table)."""

_PROBE = """
import json, sys
wanted = set(json.loads(sys.argv[1]))
{body}
heavy = sorted({{name.partition(".")[0] for name in sys.modules}} & wanted)
print(json.dumps(heavy), file=sys.stderr)
"""


def _heavy_loaded(body: str) -> list[str]:
    """The HEAVY libraries in sys.modules after a fresh interpreter runs `body`."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(body=body), json.dumps(HEAVY)],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, COLUMNS="200"),
    )
    assert done.returncode == 0, done.stderr[-800:]
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


def test_importing_the_app_loads_no_heavy_library() -> None:
    assert _heavy_loaded("import pocketgalaxy.cli.app") == []


def test_help_loads_no_heavy_library() -> None:
    body = ("from pocketgalaxy.cli.app import main\nsys.argv = ['pocketgalaxy', '--help']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass")
    assert _heavy_loaded(body) == []


def test_the_probe_does_see_a_heavy_library() -> None:
    """The check above can fail: a command module that loads NumPy is seen."""
    assert _heavy_loaded("import pocketgalaxy.sim.balance.measures") == ["numpy"]


def test_help_lists_every_command_with_its_help_text() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pocketgalaxy", "--help"], capture_output=True, text=True,
        timeout=120, env=dict(os.environ, COLUMNS="250", TERM="dumb"),
    )
    assert done.returncode == 0, done.stderr[-800:]
    group = typer.main.get_command(app)
    assert isinstance(group, typer.main.TyperGroup)
    assert tuple(sorted(group.commands)) == COMMANDS
    lines = done.stdout.splitlines()
    for name, command in sorted(group.commands.items()):
        summary = (command.help or "").strip().splitlines()[0]
        assert summary, f"{name} has no help text"
        assert any(line.strip(" │").startswith(name) and summary in line for line in lines), (
            f"`pocketgalaxy --help` does not show {name!r} with {summary!r}")

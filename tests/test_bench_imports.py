"""Every benchmark script still imports: benches are not run by the tests, so a moved or renamed
module would otherwise break them unnoticed (bench_teller_reader.py once imported the planner
from its old path)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
SCRIPTS = sorted(p for p in BENCH.glob("*.py"))


def test_there_are_benches_to_check() -> None:
    assert len(SCRIPTS) >= 5


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_the_bench_imports_without_running(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))  # benches may import their neighbours
    name = f"_bench_{script.stem}"
    spec = importlib.util.spec_from_file_location(name, script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)  # the `__main__` guard keeps it from running
    assert module.__doc__, f"{script.name} has no docstring saying what it measures"

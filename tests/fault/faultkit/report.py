"""The figures the suite reports: collected per section, written to test-output/fault-report.json.

Each test calls `record(section, figures)`; conftest.py writes the file and prints a summary at the
end of the session, so the numbers can be quoted (kills, acknowledged actions checked, lost;
messages fuzzed, refusals by code, 5xx; damaged cases and how each was answered).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
REPORT = ROOT / "test-output" / "fault-report.json"

_figures: dict[str, Any] = {}


def record(section: str, figures: dict[str, Any]) -> None:
    """Add (or merge into) one section of the report."""
    current = _figures.setdefault(section, {})
    current.update(figures)


def figures() -> dict[str, Any]:
    return _figures


def write(path: Path = REPORT) -> Path | None:
    """Write the report (sorted keys: the same run gives the same file) if anything was recorded."""
    if not _figures:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(_figures, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path

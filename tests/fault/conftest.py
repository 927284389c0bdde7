"""The fault suite's options, marker, time bounds and report (see docs/testing.md).

`--fault-scale N` (or POCKETGALAXY_FAULT_SCALE=N) multiplies games, kills and fuzzed messages;
each fault test's timeout grows with it. The figures go to test-output/fault-report.json.
"""

from __future__ import annotations

import os

import pytest
from faultkit import report
from faultkit.scale import ENV, fault_scale

# Per test at scale 1; a test's timeout is this times the scale.
TIMEOUT_S = 240


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fault-scale", type=int, default=None,
                     help=f"run the fault suite N times bigger (same as {ENV}=N)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "fault: the fault suite (real server killed, fuzzed, damaged storage)")
    scale = config.getoption("--fault-scale", default=None)
    if scale is not None:
        os.environ[ENV] = str(scale)
    try:
        fault_scale()
    except ValueError as exc:  # a bad value stops the run here, with the reason
        raise pytest.UsageError(str(exc)) from exc


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    scale = fault_scale()
    for item in items:
        if "tests/fault/" in item.nodeid.replace("\\", "/"):
            item.add_marker(pytest.mark.fault)
            item.add_marker(pytest.mark.timeout(TIMEOUT_S * scale))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    path = report.write()
    if path is None:
        return
    terminalreporter.section("fault suite figures")
    for section, values in sorted(report.figures().items()):
        terminalreporter.write_line(f"{section}: {values}")
    terminalreporter.write_line(f"(written to {path})")

"""Shared PDFs for the print tests: each is built once per test session (a few seconds)."""

from __future__ import annotations

import pytest
from printrefs import build


@pytest.fixture(scope="session")
def perils_a4() -> bytes:
    return build("perils", "a4")


@pytest.fixture(scope="session")
def adventure_a4() -> bytes:
    return build("adventure", "a4")


@pytest.fixture(scope="session")
def adventure_letter() -> bytes:
    return build("adventure", "letter")

"""Fixtures for the browser tests: a real uvicorn server subprocess and headless Chromium.

The server runs `python -m pocketgalaxy.web.server` on a free port with a temporary SQLite file
and `bot_delay_ms=0`; `live_server.kill()` / `.start()` restart it on the same port and database.
Chromium is Debian's /usr/bin/chromium driven by Playwright's sync API. Without Chromium the tests
skip, unless POCKETGALAXY_REQUIRE_BROWSER=1 (CI), where a missing browser is a failure.
Shared helpers and drivers are in browserkit.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import CHROMIUM, CHROMIUM_ARGS, OUTPUT, WAIT_MS, LiveServer, require_browser


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    require_browser()
    server = LiveServer(tmp_path_factory.mktemp("browser-server"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """new_page(viewport=None) -> a page in its own context (its own localStorage: a person).

    Page errors and console errors are collected on `page.problems` and fail the test at the end.
    """
    contexts: list[Any] = []
    pages: list[Any] = []

    def make(viewport: dict[str, int] | None = None) -> Any:
        # Reduced motion: no animations for Playwright to wait out (the pages honour it).
        context = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 900}, reduced_motion="reduce"
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.problems = []
        # Playwright's own wait_for_function compiles its predicate with eval inside the page,
        # which the pages' Content-Security-Policy (no 'unsafe-eval') rightly refuses; poll
        # through page.evaluate instead (DevTools evaluation is not governed by the CSP).
        page.wait_for_function = lambda expression, arg=None, timeout=None: _poll(
            page, expression, arg, WAIT_MS if timeout is None else timeout)
        page.on("pageerror", lambda exc: page.problems.append(f"page error: {exc}"))
        page.on(
            "console",
            lambda msg: page.problems.append(f"console: {msg.text}")
            if msg.type == "error" and not _expected_console_error(msg.text)
            else None,
        )
        pages.append(page)
        return page

    yield make
    problems = [p for page in pages for p in page.problems]
    for context in contexts:
        context.close()
    assert not problems, "errors in the pages:\n" + "\n".join(problems)


def _poll(page: Any, expression: str, arg: Any, timeout_ms: float) -> Any:
    """Evaluate `expression` (with `arg`) every 50 ms until it is truthy; then return it."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout_ms:g} ms for {expression!r}")
        page.wait_for_timeout(50)


def _expected_console_error(text: str) -> bool:
    # While the server is down (restart test) the browser logs failed WebSocket connections.
    expected = ("WebSocket", "ERR_CONNECTION_REFUSED", "Failed to load resource")
    return any(part in text for part in expected)


@pytest.fixture(scope="session")
def output_dir() -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT



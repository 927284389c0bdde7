"""What the browser tests share: the live server subprocess, page helpers and game drivers.

A uniquely named module (not conftest) so that `from browserkit import ...` never picks up
another folder's conftest.py when the whole suite runs. The fixtures live in conftest.py.

The drivers play only from what a page itself knows: its legal actions (`#legal[data-legal]`),
its last payload and the events it was sent (`window.__pocketgalaxy`), and they move by clicking.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = Path(os.environ.get("POCKETGALAXY_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"
STARTUP_TIMEOUT_S = 60.0
WAIT_MS = 60_000  # the longest any page may take to reflect one move (generous: shared CI)


def require_browser() -> None:
    if CHROMIUM.exists():
        return
    message = f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
    if os.environ.get("POCKETGALAXY_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{message}; POCKETGALAXY_REQUIRE_BROWSER=1 demands the browser tests run")
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """A uvicorn subprocess serving Pocket Galaxy; restartable on the same port and database.

    `database_url`, `env` and `bot_delay_ms` are for the cluster tests (test_cluster.py): a
    worker on a shared PostgreSQL, with its Redis and worker id in its environment.
    """

    def __init__(self, tmp: Path, *, database_url: str | None = None,
                 env: dict[str, str] | None = None, bot_delay_ms: int = 0) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = tmp / "browser.sqlite3"
        self.database_url = database_url or f"sqlite:///{self.database}"
        self.extra_env = dict(env or {})
        self.bot_delay_ms = bot_delay_ms
        self.data_dir = tmp / "data"
        self.proc: subprocess.Popen[str] | None = None
        self.output: list[str] = []
        self._drain: threading.Thread | None = None

    def start(self) -> None:
        cmd = [
            sys.executable, "-m", "pocketgalaxy.web.server",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--database-url", self.database_url,
            "--data-dir", str(self.data_dir),
            "--bot-delay-ms", str(self.bot_delay_ms),
            "--log-level", "info",
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONWARNINGS": "ignore",
               **self.extra_env}
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT
        )
        self._wait_ready()

    def _wait_ready(self) -> None:
        # Event-driven: uvicorn prints "Uvicorn running on ..." once it listens; a reader thread
        # keeps draining the pipe afterwards so the server never blocks on a full pipe.
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        ready = threading.Event()

        def drain() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.output.append(line)
                if "Uvicorn running on" in line:
                    ready.set()
            ready.set()  # the process ended: stop waiting, the check below reports it

        self._drain = threading.Thread(target=drain, daemon=True)
        self._drain.start()
        if not ready.wait(STARTUP_TIMEOUT_S) or proc.poll() is not None:
            raise RuntimeError("the server did not start:\n" + "".join(self.output))

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no flushing; whatever was committed must survive."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        if self._drain is not None:
            self._drain.join(timeout=5)
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        if self._drain is not None:
            self._drain.join(timeout=5)
        self.proc = None

    def restart(self) -> None:
        self.kill()
        self.start()

    # -- the REST API, for setting games up quickly ------------------------------------------------
    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with httpx.Client(timeout=10.0) as client:
            response = client.request(method, f"{self.url}{path}", json=body, headers=headers)
        status = response.status_code
        assert status < 400, f"{method} {path}: {status} {response.text}"
        return response.json()


# -- helpers the tests share ---------------------------------------------------------------------


def index_of(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.index || -1)"))


def legal_of(page: Any) -> list[dict[str, Any]]:
    data = page.locator("#legal").get_attribute("data-legal") or "[]"
    result: list[dict[str, Any]] = json.loads(data)
    return result


def last_of(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.__pocketgalaxy.last")
    return result


def open_table(page: Any, url: str) -> Any:
    """Go to a play link and wait for the first snapshot."""
    page.goto(url)
    page.wait_for_function("document.body.dataset.index !== undefined")
    return page


def wait_index_above(page: Any, index: int) -> None:
    page.wait_for_function(
        "([i]) => Number(document.body.dataset.index) > i"
        " || document.body.dataset.status === 'over'",
        arg=[index],
    )


def wait_turn(page: Any) -> None:
    """Wait until this page may act, or the game is over."""
    page.wait_for_function(
        "document.body.dataset.myTurn === '1' || document.body.dataset.status === 'over'"
    )


def act_and_wait(page: Any, do: Callable[[], None]) -> None:
    """Do a move on the page and wait until the page shows its result; a refusal fails the test."""
    before = index_of(page)
    page.evaluate("delete document.body.dataset.lastError")
    do()
    page.wait_for_function(
        "([i]) => Number(document.body.dataset.index) > i || document.body.dataset.lastError",
        arg=[before],
    )
    error = page.evaluate("document.body.dataset.lastError || null")
    assert error is None, f"the server refused the move: {error}: " + (
        page.locator("#action-error").text_content() or ""
    )


def next_mover(pages: list[Any]) -> Any | None:
    """The page that may act next (waiting for it), or None once the game is over everywhere.

    The most advanced page says whose turn it is; if that is a computer player, wait for its move.
    """
    while True:
        for page in pages:
            if legal_of(page):
                return page
        ref = max(pages, key=index_of)
        last = last_of(ref)
        if last["status"] == "over":
            for page in pages:
                page.wait_for_function("document.body.dataset.status === 'over'")
            return None
        by_seat = {last_of(page)["seat"]: page for page in pages}
        target = by_seat.get(last.get("to_act"))
        if target is not None:
            wait_turn(target)
        else:
            wait_index_above(ref, last["index"])


# -- Adventure Cards: a sensible player that uses only what its own page knows --------------------

ADVENTURE_MAX_MOVES = 600


def known_holders(events: list[dict[str, Any]]) -> dict[str, int]:
    """Cards whose holder is public knowledge: who was last seen taking them (not yet claimed)."""
    holder: dict[str, int] = {}
    for e in events:
        if e["type"] == "RequestGranted":
            holder[e["card"]] = e["requester"]
        elif e["type"] == "CardDeclared" and e["correct"]:
            holder[e["card"]] = e["seat"]
        elif e["type"] == "MissionClaimed":
            for card in e["cards"]:
                holder.pop(card, None)
    return holder


def choose_move(page: Any) -> dict[str, Any]:
    """A good legal move from this page's own knowledge."""
    known_now = page.evaluate(
        "({legal: JSON.parse(document.getElementById('legal').dataset.legal),"
        " last: window.__pocketgalaxy.last, events: window.__pocketgalaxy.events})"
    )
    legal, last = known_now["legal"], known_now["last"]
    view = last["view"]
    me = last["seat"]
    kinds = {a["type"] for a in legal}
    known = {int(slot): card for slot, card in view.get("known", {}).items()}
    if "Peek" in kinds or "SkipPeek" in kinds:
        unseen = [a for a in legal if a["type"] == "Peek" and a["slot"] not in known]
        return unseen[0] if unseen else {"type": "SkipPeek"}
    hand = set(view["hand"])
    missions = [m for m, owner in zip(view["missions"], view["claimed_by"], strict=True)
                if owner is None]
    # Which missions am I closest to?
    weight = Counter()
    for mission in missions:
        have = sum(1 for c in mission if c in hand)
        for card in mission:
            weight[card] = have
    options = {(a["type"], a.get("target", a.get("slot")), a["card"]) for a in legal
               if a["type"] in ("RequestCard", "DeclareCard")}
    sure = []
    for card, seat in known_holders(known_now["events"]).items():
        if seat != me and ("RequestCard", seat, card) in options:
            sure.append((weight[card], {"type": "RequestCard", "target": seat, "card": card}))
    for slot, card in known.items():
        if ("DeclareCard", slot, card) in options:
            sure.append((weight[card], {"type": "DeclareCard", "slot": slot, "card": card}))
    if sure:
        return max(sure, key=lambda pair: pair[0])[1]
    requests = [a for a in legal if a["type"] == "RequestCard"]
    if requests:
        sizes = view["hand_sizes"]
        return max(requests, key=lambda a: (weight[a["card"]], sizes[a["target"]]))
    return legal[0]


def click_move(page: Any, action: dict[str, Any]) -> None:
    kind = action["type"]
    if kind == "RequestCard":
        page.click(f"button.player-btn[data-target='{action['target']}']")
        page.click(f"#picker button.pick[data-card='{action['card']}']")
    elif kind == "DeclareCard":
        page.click(f"button.slot[data-mode=declare][data-slot='{action['slot']}']")
        page.click(f"#picker button.pick[data-card='{action['card']}']")
    elif kind == "Peek":
        page.click(f"button.slot[data-mode=peek][data-slot='{action['slot']}']")
    elif kind == "SkipPeek":
        page.click("#skip-peek")
    else:
        page.click(f"[data-action='{_attr_json(action)}']")


def _attr_json(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


def play_adventure(pages: list[Any], max_moves: int = ADVENTURE_MAX_MOVES) -> int:
    """Play the people's seats to the end; returns the number of moves they made."""
    moves = 0
    while (mover := next_mover(pages)) is not None:
        assert moves < max_moves, "the game did not finish"
        action = choose_move(mover)
        act_and_wait(mover, lambda m=mover, a=action: click_move(m, a))
        moves += 1
    return moves



# -- Perils & Pathways: drive the Hero's and the Teller's pages ----------------------------------

PERILS_MAX_MOVES = 400


def create_perils_in_lobby(page: Any, base: str, *, hero: str, teller: str) -> dict[str, str]:
    """Fill the lobby form for two people; returns the seat links."""
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.check("input[name=game][value=perils]")
    rows = page.locator("#seat-rows .seat-row")
    for seat, name in ((0, hero), (1, teller)):
        row = rows.nth(seat)
        row.locator(".seat-kind").select_option("human")
        row.locator(".seat-name").fill(name)
    page.locator("#options-box summary").click()
    page.select_option("#opt-pathways_per_round", "3")
    page.select_option("#opt-teller_policy", '"human"')
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    links = {
        key: page.locator(f"[data-link='{key}'] input").input_value()
        for key in ("seat-0", "seat-1", "watch")
    }
    return links


def hero_move(page: Any, plan_text: str) -> None:
    kind = legal_of(page)[0]["type"]
    if kind == "ChooseArchetype":
        act_and_wait(page, lambda: page.locator("#controls button.archetype").first.click())
    elif kind == "ChoosePathway":
        act_and_wait(page, lambda: page.locator("#pathways button[data-action]").first.click())
    elif kind == "MakePlan":
        channel = page.locator("#controls input[name=channel]:not([value=''])")
        if channel.count():
            channel.first.check()
        items = page.locator("#controls input[type=checkbox][id^=item-]")
        for i in range(items.count()):
            items.nth(i).check()
        page.fill("#plan-text", plan_text)
        act_and_wait(page, lambda: page.click("#make-plan"))
    elif kind == "Roll":
        act_and_wait(page, lambda: page.click("#roll"))
    elif kind == "ChooseLostLevels":
        act_and_wait(page, lambda: page.locator("#controls button[data-action]").first.click())
    else:  # pragma: no cover - a new action type needs a driver
        raise AssertionError(f"no driver for the Hero's {kind}")


def teller_move(page: Any, *, description: str | None = None) -> None:
    kind = legal_of(page)[0]["type"]
    if kind == "DescribePathways":
        if description is None:
            # The suggestion button of each pathway (one click each), then send.
            buttons = page.locator("#pathways button.suggest")
            for i in range(buttons.count()):
                buttons.nth(i).click()
        else:
            areas = page.locator("#pathways textarea")
            for i in range(areas.count()):
                areas.nth(i).fill(f"{description} #{i + 1}")
        act_and_wait(page, lambda: page.click("#send-descriptions"))
    elif kind == "JudgePlan":
        # Approve what is pressed by default, and grant the roll-twice when it is offered.
        advantage = page.locator("#controls [data-focus-key=judge-advantage]")
        if advantage.count() and advantage.get_attribute("aria-pressed") == "false":
            advantage.click()
        act_and_wait(page, lambda: page.click("#judge-plan"))
    elif kind == "ChooseShuffleBack":
        act_and_wait(page, lambda: page.locator("#controls button[data-action]").first.click())
    else:  # pragma: no cover
        raise AssertionError(f"no driver for the Teller's {kind}")


def play_perils(hero: Any, teller: Any, *, max_moves: int = PERILS_MAX_MOVES,
                plan_text: str | None = None, description: str | None = None) -> int:
    """Drive both pages to the end; returns the number of moves made."""
    moves = 0
    while (mover := next_mover([hero, teller])) is not None:
        assert moves < max_moves, "the game did not finish"
        if mover is hero:
            hero_move(hero, plan_text or f"I lean on my {_channel_words(hero)} and all I carry.")
        else:
            teller_move(teller, description=description)
        moves += 1
    return moves


def _channel_words(page: Any) -> str:
    view = last_of(page).get("view") or {}
    names = [s["name"] for s in view.get("skills", []) if s.get("suit") in ("D", "C", "S")]
    return " and ".join(names) or "wits"

"""Fixtures for terminal tests: a private saves folder and scripted people.

A scripted person answers each prompt from the screen they are shown (the view of the seat to
act), like someone reading the terminal. `script_game` plays a command once with such a person
and returns the lines they typed, so a test can then feed exactly those lines to
`typer.testing.CliRunner` as plain input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from pocketgalaxy.cli import play
from pocketgalaxy.cli.app import app
from pocketgalaxy.cli.host import GameHost


@pytest.fixture(autouse=True)
def save_dir(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every terminal test gets its own empty saves folder."""
    folder = tmp_path / "saves"
    monkeypatch.setenv("POCKETGALAXY_SAVE_DIR", str(folder))
    return folder


def perils_answer(host: GameHost, prompt: str) -> str:
    """What a sensible person types at a Perils prompt, reading only their own view."""
    p = prompt.lower()
    seat = host.session.to_act
    view = host.session.view(seat) if seat is not None else None
    if "archetype (" in p:
        return "1"
    if "which pathway" in p:
        return "1"
    if "channel a skill" in p:
        m = re.search(r"\[(\w) \(", prompt)
        return m.group(1) if m else ""
    if "use items" in p:
        return "1" if view is not None and view.current_kind == "big_bad" else ""
    if "how do you do it" in p and view is not None:
        plan_names = [s.name for s in view.skills]
        plan_names += [i.name for i in view.items]
        return "I push through using my " + " and my ".join(plan_names) + " with great care"
    if "lose" in p or re.search(r"which \d+\?", p):
        n = view.levels_to_lose if view is not None else 1
        return " ".join(str(i) for i in range(1, n + 1))
    if "describe pathway" in p:
        return ""
    return ""


def adventure_answer(host: GameHost, prompt: str) -> str:
    """A person who asks for cards they are told exist and declares slots they have seen."""
    p = prompt.lower()
    seat = host.session.to_act
    if "press enter" in p or seat is None:
        return ""
    view = host.session.view(seat)
    legal = view.legal
    if "peek" in p:
        return f"peek {legal.peek_slots[0] + 1}" if legal.peek_slots else "skip"
    if "your move" in p:
        for slot, face in enumerate(view.known):
            if face is not None and slot in legal.declare_slots and face in legal.declare_cards:
                return f"declare {slot + 1} {face}"
        missing = [c for m in view.missions for c in m if c in legal.request_cards]
        target = max(legal.request_targets, key=lambda s: view.hand_sizes[s])
        return f"ask {target + 1} {missing[0]}"
    return ""


Responder = Callable[[GameHost, str], str]


@pytest.fixture
def script_game(monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[list[str], Any]]:
    """Play `args` once with a scripted person; returns (typed lines, CliRunner result).

    `host` names the host class the command builds (module, attribute), so a command with its
    own host (the tutorial's) is recorded the same way."""

    def run(
        args: list[str], respond: Responder, *, extra: list[str] | None = None,
        host: tuple[Any, str] = (play, "GameHost"),
    ) -> tuple[list[str], Any]:
        hosts: list[GameHost] = []
        typed: list[str] = []
        module, name = host

        class RecordingHost(getattr(module, name)):  # type: ignore[misc]
            def __init__(self, *a: Any, **k: Any) -> None:
                super().__init__(*a, **k)
                hosts.append(self)

        def input_fn(out: Any) -> Callable[[str], str]:
            def read(prompt: str) -> str:
                answer = respond(hosts[-1], prompt)
                typed.append(answer)
                return answer

            return read

        with monkeypatch.context() as m:
            m.setattr(module, name, RecordingHost)
            m.setattr(play, "_input_fn", input_fn)
            result = CliRunner().invoke(app, args)
        return typed + list(extra or []), result

    return run


@pytest.fixture
def perils_person() -> Responder:
    return perils_answer


@pytest.fixture
def adventure_person() -> Responder:
    return adventure_answer

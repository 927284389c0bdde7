"""`pocketgalaxy companion perils`: a game played with real cards, typed in.

A scripted table plays once (a dealer who types what the table's shuffled deck lays, a real
die's results, and a sensible Hero); its typed lines are then fed to the command as plain input,
as a person would type them. The record must replay to the same final state; bad lines must
change nothing and say what may be typed; a save must resume; the output must not depend on
the process's string hashing.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import perils_answer
from typer.testing import CliRunner

from pocketgalaxy.cli import companion_cmd
from pocketgalaxy.cli.app import app
from pocketgalaxy.core.cards import DECK_54
from pocketgalaxy.core.record import GameRecord, replay
from pocketgalaxy.games.perils.physical import round_to_lay
from pocketgalaxy.registry import perils_rules

ARGS = ["companion", "perils", "--seed", "5", "--theme", "cosmic"]
ROLLS = (4, 2, 6, 1, 5, 3, 3)


class Table:
    """The physical table: a shuffled deck order, a die's results and a Hero."""

    def __init__(self, deck_seed: int = 5) -> None:
        self.order = list(DECK_54)
        random.Random(deck_seed).shuffle(self.order)
        self.rolled = 0

    def answer(self, host: Any, prompt: str) -> str:
        p = prompt.lower()
        if "dealer" in p:
            todo = round_to_lay(host.session.state)
            return " ".join([c for c in self.order if c in todo.allowed][:todo.count])
        if "roll" in p and "type" in p:
            n = 2 if "two dice" in p else 1
            values = [str(ROLLS[(self.rolled + i) % len(ROLLS)]) for i in range(n)]
            self.rolled += n
            return " ".join(values)
        return perils_answer(host, prompt)


def _script(monkeypatch: pytest.MonkeyPatch, args: list[str]
            ) -> tuple[list[tuple[str, str]], Any, dict[str, Any]]:
    """Play once with the scripted table: (prompt, typed) pairs, the result, the final state."""
    hosts: list[Any] = []
    typed: list[tuple[str, str]] = []
    table = Table()

    class Recording(companion_cmd.CompanionHost):
        def __init__(self, *a: Any, **k: Any) -> None:
            super().__init__(*a, **k)
            hosts.append(self)

    def input_fn(out: Any) -> Any:
        def read(prompt: str) -> str:
            answer = table.answer(hosts[-1], prompt)
            typed.append((prompt, answer))
            return answer
        return read

    with monkeypatch.context() as m:
        m.setattr(companion_cmd, "CompanionHost", Recording)
        m.setattr(companion_cmd, "_input_fn", input_fn)
        result = CliRunner().invoke(app, args)
    return typed, result, hosts[-1].session.state.to_json()


def _lines(pairs: list[tuple[str, str]]) -> str:
    return "\n".join(a for _, a in pairs) + "\n"


def _first(pairs: list[tuple[str, str]], word: str, after: int = 0) -> int:
    return next(i for i, (p, _) in enumerate(pairs) if i >= after and word in p.lower())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory
           ) -> tuple[list[tuple[str, str]], Path, dict[str, Any]]:
    """The scripted game, played once for this module (in its own saves folder)."""
    folder = tmp_path_factory.mktemp("scripted")
    record = folder / "scripted.json"
    with pytest.MonkeyPatch.context() as m:
        m.setenv("POCKETGALAXY_SAVE_DIR", str(folder / "saves"))
        typed, result, final = _script(m, [*ARGS, "--record", str(record)])
    assert result.exit_code == 0, result.output
    return typed, record, final


def test_a_typed_game_plays_to_the_end_and_its_record_replays(
        played: tuple[list[tuple[str, str]], Path, dict[str, Any]], tmp_path: Path) -> None:
    typed, _, live_final = played
    out_file = tmp_path / "typed.json"
    result = CliRunner().invoke(app, [*ARGS, "--record", str(out_file)], input=_lines(typed))
    assert result.exit_code == 0, result.output
    assert "The end" in result.output and "At the table" in result.output
    record = GameRecord.loads(out_file.read_text(encoding="utf-8"))
    final, steps = replay(perils_rules(), record)
    assert final.to_json() == live_final
    assert final.phase == "over"
    # The typed cards are the record's pinned rounds, and the rules laid exactly those.
    dealer_lines = [a.split() for p, a in typed if "dealer" in p.lower()]
    rounds = record.pinned["rounds"] if record.pinned else []
    assert [r for r in rounds if r] == dealer_lines
    laid = [list(e.cards) for _, _, events in steps for e in events
            if type(e).__name__ == "PathwaysDealt"]
    assert [r for r, typed_r in zip(laid, rounds, strict=False) if typed_r] == dealer_lines
    # `pocketgalaxy replay --json` gives the same final state.
    shown = CliRunner().invoke(app, ["replay", str(out_file), "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["final_state"] == live_final


def test_refused_cards_and_rolls_change_nothing_and_say_what_is_allowed(
        played: tuple[list[tuple[str, str]], Path, dict[str, Any]], tmp_path: Path) -> None:
    typed, clean_record, _ = played
    deal1 = _first(typed, "dealer")
    deal2 = _first(typed, "dealer", deal1 + 1)
    roll1 = _first(typed, "roll")
    first_round = typed[deal1][1].split()
    bad_first = ["AS 8D", "AH 3C", "8X 3C", "8D 8D", "8D", "2D 3C"]
    bad_second = [f"{first_round[0]} {first_round[1]}"]
    bad_roll = ["7", "x", "3 4", "0"]
    lines = [a for _, a in typed]
    lines = (lines[:deal1] + bad_first + lines[deal1:roll1] + bad_roll + lines[roll1:deal2]
             + bad_second + lines[deal2:])
    out_file = tmp_path / "with-refusals.json"
    result = CliRunner().invoke(app, [*ARGS, "--record", str(out_file)],
                                input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for words in ("AS is a Big Bad: the aces wait until the maze is empty",
                  "AH is the Prize", "'8X' is not a card", "8D is typed twice",
                  "this round lays 2 pathway(s), not 1",
                  "2D is one of the Hero's archetype cards",
                  "type the 2 card(s) dealt from the maze, left to right",
                  "'7' is not a die result: a die shows 1 to 6", "'x' is not a die result",
                  "type one die, not 2 number(s)", "'0' is not a die result"):
        assert words in text, words
    assert f"{first_round[0]} was" in text or f"{first_round[0]} is" in text
    # Nothing refused reached the game: the record is the clean game's, move for move.
    clean = GameRecord.loads(clean_record.read_text(encoding="utf-8")).to_json()
    got = GameRecord.loads(out_file.read_text(encoding="utf-8")).to_json()
    assert got["actions"] == clean["actions"] and got["pinned"] == clean["pinned"]


@pytest.mark.parametrize("where", ["dealer", "roll"])
def test_save_and_resume_mid_game(
        played: tuple[list[tuple[str, str]], Path, dict[str, Any]], tmp_path: Path,
        where: str) -> None:
    typed, clean_record, live_final = played
    at = _first(typed, where, len(typed) // 2)
    lines = [a for _, a in typed]
    part = CliRunner().invoke(app, ARGS, input="\n".join([*lines[:at], "save mid", "quit"]) + "\n")
    assert part.exit_code == 0, part.output
    assert "Saved as mid" in part.output
    saved = json.loads((Path(os.environ["POCKETGALAXY_SAVE_DIR"]) / "mid.json").read_text())
    assert saved["settings"] == {"companion": "perils"}
    # The autosave has its own name, so it never overwrites `play perils --seed 5`'s.
    assert (Path(os.environ["POCKETGALAXY_SAVE_DIR"]) / "companion-perils-5.json").is_file()
    out_file = tmp_path / "resumed.json"
    rest = CliRunner().invoke(app, ["resume", "mid", "--record", str(out_file)],
                              input="\n".join(lines[at:]) + "\n")
    assert rest.exit_code == 0, rest.output
    assert "Resuming mid" in rest.output and "with real cards" in rest.output
    record = GameRecord.loads(out_file.read_text(encoding="utf-8"))
    final, _ = replay(perils_rules(), record)
    assert final.to_json() == live_final
    clean = GameRecord.loads(clean_record.read_text(encoding="utf-8")).to_json()
    assert record.to_json()["actions"] == clean["actions"]


def test_same_seed_same_output_in_two_processes(
        played: tuple[list[tuple[str, str]], Path, dict[str, Any]], tmp_path: Path) -> None:
    typed, _, _ = played
    runs = []
    for hash_seed in ("1", "987"):  # both at once: each is bounded by the timeout below
        env = dict(os.environ, PYTHONHASHSEED=hash_seed,
                   POCKETGALAXY_SAVE_DIR=str(tmp_path / f"saves-{hash_seed}"), COLUMNS="100")
        runs.append(subprocess.Popen([sys.executable, "-m", "pocketgalaxy", *ARGS],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env))
    outputs = []
    for run in runs:
        try:
            stdout, stderr = run.communicate(_lines(typed), timeout=180)
        finally:
            run.kill()
        assert run.returncode == 0, stderr
        outputs.append(stdout)
    assert outputs[0] == outputs[1]
    assert "The end" in outputs[0]


def test_bad_command_options_are_refused() -> None:
    bad = CliRunner().invoke(app, ["companion", "perils", "--pathways", "4"])
    assert bad.exit_code == 2 and "--pathways 4: allowed 2 or 3" in bad.output
    bad = CliRunner().invoke(app, ["companion", "perils", "--clarity", "murky"])
    assert bad.exit_code == 2 and "plain, fair, subtle, cryptic" in bad.output


def test_a_finished_companion_save_is_not_resumed(
        played: tuple[list[tuple[str, str]], Path, dict[str, Any]]) -> None:
    typed, _, _ = played
    done = CliRunner().invoke(app, ARGS, input=_lines(typed))
    assert done.exit_code == 0, done.output
    again = CliRunner().invoke(app, ["resume", "companion-perils-5"])
    assert again.exit_code == 2 and "holds a finished game" in again.output


def test_a_three_pathway_dungeon_game_replays(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    record = tmp_path / "three.json"
    args = ["companion", "perils", "--seed", "8", "--theme", "dungeon", "--pathways", "3",
            "--clarity", "plain", "--record", str(record)]
    typed, result, live_final = _script(monkeypatch, args)
    assert result.exit_code == 0, result.output
    dealt = [a.split() for p, a in typed if "dealer" in p.lower()]
    assert dealt[0] and len(dealt[0]) == 3
    final, _ = replay(perils_rules(), GameRecord.loads(record.read_text(encoding="utf-8")))
    assert final.to_json() == live_final
    assert final.options.pathways_per_round == 3 and final.options.theme == "dungeon"

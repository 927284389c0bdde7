"""The terminal's plan prompts and judgement: the skill letter means the suit shown for it, the
judgement is shown source by source before the roll, a person judging is offered the rubric's
advice, and the web page's renderer says exactly the same words."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.cli.host import GameHost
from pocketgalaxy.cli.perils_judgement import judgement_lines, rubric_summary
from pocketgalaxy.cli.perils_screen import PerilsScreen, render_text
from pocketgalaxy.cli.saves import SeatInfo
from pocketgalaxy.games.perils import actions as A
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.rubric import explanation_json, stand_in_thing
from pocketgalaxy.registry import perils_rules, plan_judge
from pocketgalaxy.session import Session

JS = (Path(__file__).resolve().parents[2] / "src" / "pocketgalaxy" / "web" / "static" / "js"
      / "perils_judgement.js")


def _at_plan(**options: Any) -> Session:
    """The Pilot (Strength 2, Agility 4, Piloting 6) holds the Grappling Hook and faces the 9 of
    clubs (an Agility peril): the channels on offer are D (Strength) and S (Piloting)."""
    session = Session(perils_rules(), {"archetype": "pilot", **options}, seed=3,
                      pinned={"draw": ["JC", "4H", "9C", "8C"], "rolls": [2, 2]},
                      agents={1: make_agent("perils", "teller", 1, seed=1)})
    for _ in range(2):
        session.run_bots()
        session.act(0, A.ChoosePathway(0))
    assert session.view(0).phase == "plan"
    return session


def _host(session: Session, lines: list[str]) -> tuple[GameHost, list[str]]:
    typed = iter(lines)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    out = Console(width=120, record=True, color_system=None)
    seats = [SeatInfo(0, "You"), SeatInfo(1, "Teller", kind="bot", spec="teller")]
    return GameHost(session, seats, PerilsScreen(), out, input_fn=read, autosave=False), prompts


@pytest.mark.parametrize(("typed", "channel"), [
    (["S"], "S"), (["s"], "S"), (["D"], "D"), (["♠"], "S"), (["Piloting"], "S"),
    (["strength"], "D"), (["pil"], "S"), (["St", "S"], "S"), (["C", "D"], "D"),
])
def test_a_skill_letter_means_the_suit_it_is_shown_for(typed: list[str], channel: str) -> None:
    session = _at_plan()
    host, prompts = _host(session, [*typed, "", "I steer around it"])
    action = host.screen.ask_action(host, 0)
    assert isinstance(action, A.MakePlan) and action.channel == channel
    assert "D (Strength), S (Piloting)" in prompts[0]
    assert "The roll-twice needs 3 approved sources" in host.out.export_text(clear=False)
    if len(typed) > 1:  # the first answer was refused with the choices, then asked again
        assert "type D (Strength), S (Piloting), or Enter for none" in host.out.export_text()


def test_the_judgement_shows_before_the_roll_source_by_source() -> None:
    session = _at_plan()
    session.act(0, A.MakePlan("S", ("JC",), "I steer the sled past it and use the grappling hook"))
    view = session.view(0)
    assert view.phase == "roll"
    text = render_text(view, [], width=160)
    assert "Piloting: 'steer' +1" in text
    assert ("Grappling Hook: named ('grappling', 'hook'), but the plan never says how it is used"
            in text)
    assert "Roll twice not granted: it needs 3 approved sources (this plan has 1)" in text


def test_a_channel_shows_the_bonus_it_brings() -> None:
    session = _at_plan(channel_bonus="level")
    session.act(0, A.MakePlan("S", (), "I steer the sled past it"))
    text = render_text(session.view(0), [], width=160)
    assert "Bonus +6" in text and "Piloting: 'steer' +6" in text  # the Pilot's Piloting is 6


def test_a_person_judging_is_offered_the_rubric_advice() -> None:
    session = _at_plan(teller_policy="human")
    session.set_agent(1, None)
    session.act(0, A.MakePlan("S", ("JC",), "I steer the sled and swing on the grappling hook"))
    view = session.view(1)
    assert view.phase == "judge"
    host, prompts = _host(session, ["", "", ""])  # Enter three times: accept the advice
    action = host.screen.ask_action(host, 1)
    advice = session.rules.advice(session.state)  # type: ignore[attr-defined]
    assert action == A.JudgePlan(advice.approve_channel, advice.approve_items, advice.advantage)
    assert action == A.JudgePlan(True, ("JC",), False)
    assert "The rubric suggests:" in host.out.export_text()
    assert "[Y/n]" in prompts[0] and "[y/N]" in prompts[2]


def _reasons_samples() -> list[dict[str, Any]]:
    theme = load_theme("cosmic")
    thing = stand_in_thing(theme, "6D")
    judge = plan_judge()
    plans = [
        ("I duck and roll under its grabbing arms", "C", ()),
        ("With my Agility and the Grappling Hook", "C", ("JC", "KC")),
        ("First I dodge the security bot's arms. Then I fire the grappling hook at the girder "
         "and swing over it, and I jam its circuits with the hacking device.", "C", ("JC", "JS")),
        ("", None, ()),
    ]
    out = [explanation_json(judge.judge(p, c, i, theme, 3, thing)) for p, c, i in plans]
    out.append(explanation_json(judge.judge(plans[2][0], "C", ("JC", "JS"), theme, None, None)))
    rules = perils_rules()
    session = _at_plan(teller_policy="approve_all")
    session.act(0, A.MakePlan("S", ("JC",), ""))
    out.append(session.view(0).plan.reasons)
    assert rules is session.rules
    return out


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's module")
def test_the_web_page_says_the_same_words(tmp_path: Path) -> None:
    samples = _reasons_samples()
    module = tmp_path / "perils_judgement.mjs"
    module.write_text(JS.read_text(encoding="utf-8"), encoding="utf-8")
    script = ("import { judgementLines, rubricSummary } from './perils_judgement.mjs';\n"
              "import { readFileSync } from 'node:fs';\n"
              "const samples = JSON.parse(readFileSync(process.argv[2], 'utf8'));\n"
              "console.log(JSON.stringify([samples.map(judgementLines),\n"
              "  [3, 1, null].map(rubricSummary)]));\n")
    (tmp_path / "run.mjs").write_text(script, encoding="utf-8")
    (tmp_path / "samples.json").write_text(json.dumps(samples), encoding="utf-8")
    done = subprocess.run(["node", str(tmp_path / "run.mjs"), str(tmp_path / "samples.json")],
                          capture_output=True, text=True, timeout=60, check=True)
    lines, summaries = json.loads(done.stdout)
    assert lines == [judgement_lines(s) for s in samples]
    assert summaries == [rubric_summary(t) for t in (3, 1, None)]
    assert all(judgement_lines(s) for s in samples)

"""The terminal's target line, health and heart card (same words as the web table's view)."""

from __future__ import annotations

import sys
from pathlib import Path

from pocketgalaxy.cli.perils_screen import PerilsScreen, render_text
from pocketgalaxy.games.perils.actions import ChooseArchetype

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "perils"))
from perils_testkit import R, attempt, new, take  # noqa: E402


def test_target_line_matches_the_view_and_names_whose_level() -> None:
    state, _ = take(new(draw=("JD", "4H", "7D", "5H")), 0)
    state, _ = take(state, 0)
    hero, teller = R.view(state, 0), R.view(state, 1)
    assert hero.odds is not None and teller.odds is not None
    hero_text = " ".join(render_text(hero, [], width=400).split())
    teller_text = " ".join(render_text(teller, [], width=400).split())
    assert hero.odds.words in hero_text and "(your level 2)" in hero_text
    assert teller.odds.words in teller_text and "(the Hero's level 2)" in teller_text
    assert "your level" not in teller_text and "the Hero needs 5 or more" in teller_text


def test_health_shows_wounds_not_healed_damage_and_the_heart_card_is_no_skill() -> None:
    state, _ = take(new(draw=("8S", "5C", "5H", "7C"), rolls=(1,)), 0)
    state, _ = attempt(state)
    hurt = render_text(R.view(state, 0), [])
    assert "2/3" in hurt and "wound: [8♠]" in hurt
    state, _ = take(state, 0)  # the healing gift
    healed = render_text(R.view(state, 0), [])
    assert "3/3" in healed and "8♠" not in healed.split("What happened")[0].split("Heart")[0]
    assert "wound" not in healed.split("Heart card")[0]
    assert "Heart card 3♥: wounds tuck under it; its value is not your health." in healed
    assert "Charm" not in healed  # the heart suit's skill cannot be channelled by default
    skill = render_text(R.view(new(draw=("8S",), heart_is_skill=True), 0), [])
    assert "Charm" in skill and "a skill you may channel" in skill


def test_archetype_menu_names_the_heart_card_as_what_it_is() -> None:
    from io import StringIO

    from rich.console import Console

    state = R.new(seed=3)
    view = R.view(state, 0)
    out = Console(width=200, record=True, file=StringIO(), color_system=None)

    class _Host:
        def __init__(self) -> None:
            self.out = out

        def ask(self, prompt: str) -> str:
            return "1"

    action = PerilsScreen()._ask_archetype(_Host(), view)  # type: ignore[arg-type]
    assert isinstance(action, ChooseArchetype)
    text = out.export_text()
    assert "heart card [" in text and "Strength [" in text and "Agility [" in text

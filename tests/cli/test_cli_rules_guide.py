"""`pocketgalaxy rules GAME` prints the How to play guide; `--json` gives it to machines; the `?`
help of both games points at it."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from pocketgalaxy.cli import adventure_screen, info_cmds, perils_screen
from pocketgalaxy.cli.app import app
from pocketgalaxy.core.options import describe_options
from pocketgalaxy.guides import load_guide
from pocketgalaxy.registry import get_game

KEY_TITLES = {
    "perils": ["What you need", "The goal", "Facing a peril", "The showdown and the end"],
    "adventure": ["What you need", "The goal", "Your turn", "How it ends"],
}


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_rules_prints_the_guide_within_80_columns(game: str) -> None:
    result = CliRunner().invoke(app, ["rules", game], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    guide = load_guide(game)
    assert guide.title in out
    for title in KEY_TITLES[game]:
        assert title in out
    assert all(s.title in out for s in guide.sections)
    lines = out.splitlines()
    assert len(lines) > 60
    assert max(len(line) for line in lines) <= 80
    assert "\x1b[" not in out  # piped: plain text, no colour codes
    # It is the guide, not the option table.
    assert "rule options (set with --option" not in out


def test_the_guide_shows_card_pictures_as_text() -> None:
    result = CliRunner().invoke(app, ["rules", "perils"], env={"COLUMNS": "80"})
    assert "[7♦]" in result.stdout and "[▒▒▒]" in result.stdout
    adventure = CliRunner().invoke(app, ["rules", "adventure"], env={"COLUMNS": "80"})
    assert "[S2]" in adventure.stdout


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_rules_options_prints_the_option_table(game: str) -> None:
    result = CliRunner().invoke(app, ["rules", game, "--options"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "rule options" in result.stdout
    assert "What you need" not in result.stdout
    for info in describe_options(get_game(game).options_type):
        assert info.name in result.stdout


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_rules_json_has_the_sections_and_the_options(game: str) -> None:
    result = CliRunner().invoke(app, ["rules", game, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    guide = load_guide(game)
    assert data["game"] == game and data["title"] == guide.title
    assert [s["title"] for s in data["sections"]] == [s.title for s in guide.sections]
    assert all(s["text"] and s["id"] for s in data["sections"])
    names = [o["name"] for o in data["options"]]
    infos = describe_options(get_game(game).options_type)
    assert names == [i.name for i in infos]
    first = data["options"][0]
    assert set(first) == {"name", "default", "choices", "type", "rule", "doc"}
    assert first["default"] == infos[0].default


def test_rules_of_an_unknown_game_lists_the_games_in_every_form() -> None:
    for extra in ([], ["--json"], ["--options"]):
        result = CliRunner().invoke(app, ["rules", "chess", *extra])
        assert result.exit_code == 2
        assert "unknown game 'chess'" in result.stderr and "adventure, perils" in result.stderr
        assert result.stdout == ""


class _FakeConsole(Console):
    """A console that says it is a terminal and records whether the pager was used."""

    paged = False

    def pager(self, *args: Any, **kwargs: Any) -> Any:
        _FakeConsole.paged = True
        return super().pager(pager=_NullPager(), **kwargs)


class _NullPager:
    shown = ""

    def show(self, content: str) -> None:
        _NullPager.shown = content


def test_a_terminal_gets_the_guide_through_the_pager(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        info_cmds, "console", lambda **_: _FakeConsole(force_terminal=True, width=80)
    )
    _FakeConsole.paged = False
    result = CliRunner().invoke(app, ["rules", "adventure"])
    assert result.exit_code == 0, result.output
    assert _FakeConsole.paged
    assert "Your turn" in _NullPager.shown
    assert "Your turn" not in result.stdout  # it went to the pager, not straight out


@pytest.mark.parametrize(
    ("screen", "game"), [(perils_screen, "perils"), (adventure_screen, "adventure")]
)
def test_question_mark_help_points_at_the_guide(screen: Any, game: str) -> None:
    out = Console(width=80, record=True)
    out.print(screen.HELP)
    text = out.export_text()
    assert f"pocketgalaxy rules {game}" in text
    assert f"/rules/{game}" in text


def test_card_pictures_take_the_colours_of_the_cards() -> None:
    from rich.markdown import Markdown
    from rich.style import Style

    from pocketgalaxy.cli.cards import PACK_STYLE, SUIT_STYLE
    from pocketgalaxy.cli.info_cmds import CardColours

    text = "A [8♦], a [9♣], [P5], [▒▒▒] and [Joker 1]; [8D] is no picture."
    out = Console(force_terminal=True, width=80, color_system="standard")
    plain = list(out.render(Markdown(text)))
    coloured = list(out.render(CardColours(Markdown(text))))
    assert "".join(s.text for s in coloured) == "".join(s.text for s in plain)
    styles = {s.text: s.style for s in coloured if s.text.startswith("[")}
    assert styles["[8♦]"].color == Style.parse(SUIT_STYLE["D"]).color
    assert styles["[9♣]"].color == Style.parse(SUIT_STYLE["C"]).color
    assert styles["[P5]"].bgcolor == Style.parse(PACK_STYLE["P"]).bgcolor
    assert styles["[▒▒▒]"].color == Style.parse("blue").color
    assert styles["[Joker 1]"].color == Style.parse("magenta").color
    assert not any(s.text.startswith("[8D]") for s in coloured)  # not cut out as a picture


@pytest.mark.parametrize(
    ("env", "colours", "extra"),
    [
        ({}, True, {"LESS": "-R"}),  # pydoc runs plain less: tell it to show colours
        ({"LESS": "-FRX"}, True, {}),
        ({"LESS": "-F"}, False, {}),
        ({"PAGER": "less -R"}, True, {}),
        ({"PAGER": "less"}, False, {}),
        ({"PAGER": "more"}, False, {}),
        ({"MANPAGER": "less -r", "PAGER": "more"}, True, {}),
    ],
)
def test_the_pager_gets_colours_only_when_it_shows_them(
    env: dict[str, str], colours: bool, extra: dict[str, str]
) -> None:
    assert info_cmds.pager_colours(env) == (colours, extra)


def test_less_is_told_to_show_colours_only_while_paging(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LESS", "PAGER", "MANPAGER"):
        monkeypatch.delenv(name, raising=False)
    seen: list[str | None] = []

    class Pager:
        def show(self, content: str) -> None:
            seen.append(os.environ.get("LESS"))

    class Terminal(Console):
        def pager(self, *args: Any, **kwargs: Any) -> Any:
            return super().pager(pager=Pager(), **kwargs)

    monkeypatch.setattr(info_cmds, "console", lambda **_: Terminal(force_terminal=True, width=80))
    result = CliRunner().invoke(app, ["rules", "perils"])
    assert result.exit_code == 0, result.output
    assert seen == ["-R"] and "LESS" not in os.environ

"""Perils themes for the create form, and the web's guard on options that name files.

The Perils option `theme` also accepts a path to a TOML file (handy on the command line). Over the
web that would let a stranger make the server read files, so here only bundled theme ids pass.
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.core.errors import OptionsError


def perils_themes() -> list[dict[str, Any]]:
    """Every bundled Perils theme: id, title, intro, skills and archetypes."""
    from pocketgalaxy.games.perils.content import BUNDLED, load_theme

    out = []
    for theme_id in BUNDLED:
        theme = load_theme(theme_id)
        out.append({
            "id": theme.id,
            "title": theme.title,
            "intro": theme.intro,
            "skills": {
                suit: {"name": s.name, "blurb": s.blurb} for suit, s in theme.skills.items()
            },
            "archetypes": [
                {"id": a.id, "name": a.name, "blurb": a.blurb, "cards": list(a.cards)}
                for a in theme.archetypes
            ],
        })
    return out


def guard_options(game: str, options: dict[str, Any] | None) -> None:
    """Refuse option values the web must not accept (a theme given as a file path)."""
    if game != "perils" or not options or "theme" not in options:
        return
    from pocketgalaxy.games.perils.content import BUNDLED

    if options["theme"] not in BUNDLED:
        raise OptionsError(
            f"option theme={options['theme']!r} is not a bundled theme (files are not accepted "
            "over the web)",
            allowed=list(BUNDLED),
        )

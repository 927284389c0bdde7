"""A balance study: what to compare (variants), who plays, how many games, and the seed.

A study comes from command-line flags or from a TOML study file (read with the standard
library's `tomllib`). Everything is checked before a game is played, against the documented
limits below, and a bad study is refused with one message saying what is allowed.

Study file (all keys but `game` optional):

    game = "perils"                      # or "adventure"
    games = 2000                         # games per variant (the cap when precision is set)
    seed = 1
    precision = 0.02                     # stop when every win-rate interval is this narrow
    length_band = [6, 9]                 # a designer's ideal game length (rounds or turns)
    detect = 0.02                        # the difference "games needed" is computed for
    hero = "rulebased"                   # Perils: the Hero and the Teller
    teller = "teller"
    players = ["memory", "memory", "forgetful", "random"]   # Adventure: one per seat
    rotate = true                        # Adventure: players change seats each game
    [options]                            # options every variant starts from
    teller_policy = "approve_all"
    [[variant]]
    name = "defaults"                    # no options: the defaults
    [[variant]]
    name = "three-paths"
    options = { pathways_per_round = 3 }
    [[variant]]
    name = "harsh-teller"                # a variant may change who plays: hero, teller
    teller = "teller:style=harsh"        # (Perils) or players (Adventure)
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pocketgalaxy.agents.catalogue import resolve_spec
from pocketgalaxy.core.errors import OptionsError, PocketGalaxyError
from pocketgalaxy.core.options import options_from_json, options_to_json, parse_option_value
from pocketgalaxy.registry import get_game

MAX_VARIANTS = 24
MAX_GAMES = 10_000_000
"""Games per variant; a million Perils games take minutes, ten million an afternoon."""
MAX_STUDY_FILE_BYTES = 256 * 1024
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}$")
PERILS_STUDY_DEFAULTS: dict[str, Any] = {"teller_policy": "approve_all"}
"""Bot against bot there is no plan text worth judging (as in `simulate`, PP-A7)."""

GAMES = ("perils", "adventure")


class StudyError(PocketGalaxyError):
    """A study that cannot run: the message says what is wrong and what is allowed."""

    def __init__(self, message: str, allowed: Sequence[str] = ()) -> None:
        super().__init__(message, code="balance/bad_study", allowed=allowed)


@dataclass(frozen=True)
class Variant:
    """A named set of rule options, on top of the study's base options, and its players."""

    name: str
    overrides: dict[str, Any]
    options: dict[str, Any]
    """The full, checked options JSON the variant's games are played with."""
    players: tuple[str, ...] = ()
    """Seat specs, when the variant changes who plays (else the study's)."""


@dataclass(frozen=True)
class Study:
    game: str
    variants: tuple[Variant, ...]
    players: tuple[str, ...]
    """Seat specs: Perils (hero, teller); Adventure one per seat."""
    games: int
    seed: int
    precision: float | None = None
    length_band: tuple[int, int] | None = None
    detect: float = 0.02
    rotate: bool = True
    base_options: dict[str, Any] = field(default_factory=dict)

    @property
    def baseline(self) -> Variant:
        """The first variant: the others are compared with it."""
        return self.variants[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variants": [{"name": v.name, "options": v.overrides, "players": list(v.players)}
                         for v in self.variants],
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "precision": self.precision,
            "length_band": list(self.length_band) if self.length_band else None,
            "detect": self.detect,
            "rotate": self.rotate,
            "base_options": self.base_options,
        }


def parse_variant_flag(text: str) -> tuple[str, list[str]]:
    """`"NAME:key=value,key=value"` -> ("NAME", ["key=value", ...]); `"NAME:"` is the defaults."""
    name, colon, rest = text.partition(":")
    if not colon:
        raise StudyError(
            f"bad --variant {text!r}: expected NAME:key=value,key=value (NAME: alone for the"
            " defaults)"
        )
    pairs = [p.strip() for p in rest.split(",") if p.strip()]
    return name.strip(), pairs


PLAYER_KEYS = ("hero", "teller", "players")
"""Variant keys that change who plays rather than the rules: `hero=planner`,
`teller=teller:style=harsh` (Perils), `players=memory+forgetful+random` (Adventure)."""


def _pairs_to_dict(game: str, name: str, pairs: Sequence[str]) -> dict[str, Any]:
    options_type = get_game(game).options_type
    out: dict[str, Any] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise StudyError(f"variant {name!r}: bad option {pair!r}, expected key=value")
        if key.strip() in PLAYER_KEYS:
            text = value.strip()
            out[key.strip()] = text.split("+") if key.strip() == "players" else text
            continue
        try:
            out[key.strip()] = parse_option_value(options_type, key.strip(), value)
        except OptionsError as exc:
            raise StudyError(f"variant {name!r}: {exc.message}", allowed=exc.allowed) from exc
    return out


def build_study(
    game: str,
    variants: Sequence[tuple[str, dict[str, Any]]],
    *,
    players: Sequence[str],
    games: int,
    seed: int,
    precision: float | None = None,
    length_band: Sequence[int] | None = None,
    detect: float = 0.02,
    rotate: bool = True,
    base_options: dict[str, Any] | None = None,
) -> Study:
    """Check every part of a study and build it; StudyError names the first problem."""
    if game not in GAMES:
        raise StudyError(f"unknown game {game!r}", allowed=list(GAMES))
    rules = get_game(game)
    if not 1 <= games <= MAX_GAMES:
        raise StudyError(f"games per variant must be 1..{MAX_GAMES:,}, got {games}")
    if not 0 <= seed < 2**63:
        raise StudyError(f"seed must be 0..2^63-1, got {seed}")
    if precision is not None and not 0.001 <= precision <= 0.5:
        raise StudyError(f"precision must be 0.001..0.5 (an interval width), got {precision}")
    if not 0.001 <= detect <= 0.5:
        raise StudyError(f"detect must be 0.001..0.5 (a difference in win rate), got {detect}")
    band: tuple[int, int] | None = None
    if length_band is not None:
        if len(length_band) != 2 or not 0 <= length_band[0] <= length_band[1] <= 100_000:
            raise StudyError(f"length_band must be [low, high] with 0 <= low <= high, got "
                             f"{list(length_band)}")
        band = (int(length_band[0]), int(length_band[1]))
    if not variants:
        variants = [("defaults", {})]
    if len(variants) > MAX_VARIANTS:
        raise StudyError(f"at most {MAX_VARIANTS} variants, got {len(variants)}")
    base = {**(PERILS_STUDY_DEFAULTS if game == "perils" else {}), **(base_options or {})}
    built: list[Variant] = []
    # `bot` is the role's documented default, recorded as what it is.
    specs = tuple(resolve_spec(game, p, seat) for seat, p in enumerate(players))
    for name, given in variants:
        overrides = {k: v for k, v in given.items() if k not in PLAYER_KEYS}
        seats = tuple(resolve_spec(game, p, seat)
                      for seat, p in enumerate(_variant_players(game, specs, given)))
        if not NAME_PATTERN.match(name):
            raise StudyError(f"bad variant name {name!r}: 1-40 letters, digits or _.+- "
                             "(starting with a letter or digit)")
        if any(v.name == name for v in built):
            raise StudyError(f"two variants are named {name!r}: names must differ")
        policy: dict[str, Any] = {}
        if game == "perils" and "style=" in seats[1] and "teller_policy" not in overrides \
                and "teller_policy" not in (base_options or {}):
            policy = {"teller_policy": "human"}  # a Teller style judges plans from its seat
        try:
            options = options_to_json(options_from_json(rules.options_type,
                                                        {**base, **policy, **overrides}))
        except OptionsError as exc:
            raise StudyError(f"variant {name!r}: {exc.message}", allowed=exc.allowed) from exc
        built.append(Variant(name, dict(overrides), options, seats))
    want = (2, 2) if game == "perils" else (rules.min_players, rules.max_players)
    for seats in [specs, *(v.players for v in built)]:
        if not want[0] <= len(seats) <= want[1]:
            raise StudyError(f"{game} needs {want[0]}..{want[1]} players, got {len(seats)}")
        _check_players(game, seats)
    return Study(game, tuple(built), specs, games, seed, precision, band, detect,
                 rotate and game == "adventure", base)


def _variant_players(game: str, specs: tuple[str, ...], given: dict[str, Any]
                     ) -> tuple[str, ...]:
    """The variant's seat specs: the study's, with its hero/teller/players keys applied."""
    if game == "perils":
        if "players" in given:
            raise StudyError("Perils variants name hero= and teller=, not players=")
        hero = str(given.get("hero", specs[0] if specs else "rulebased"))
        teller = str(given.get("teller", specs[1] if len(specs) > 1 else "teller"))
        return (hero, teller)
    if "hero" in given or "teller" in given:
        raise StudyError("Adventure variants name players=a+b+c, not hero= or teller=")
    raw = given.get("players", specs)
    if not isinstance(raw, (list, tuple)) or not all(isinstance(p, str) for p in raw):
        raise StudyError("a variant's players must be a list of player names")
    return tuple(raw)


def _check_players(game: str, specs: Sequence[str]) -> None:
    from pocketgalaxy.agents.registry import make_agent

    for seat, spec in enumerate(specs):
        try:
            make_agent(game, spec, seat, len(specs), seed=0)
        except PocketGalaxyError as exc:
            raise StudyError(f"player {spec!r} (seat {seat + 1}): {exc.message}",
                             allowed=exc.allowed) from exc


def study_from_flags(
    game: str,
    variant_flags: Sequence[str],
    *,
    players: Sequence[str],
    games: int,
    seed: int,
    precision: float | None = None,
    length_band: Sequence[int] | None = None,
    detect: float = 0.02,
    base_pairs: Sequence[str] = (),
) -> Study:
    variants = []
    for flag in variant_flags:
        name, pairs = parse_variant_flag(flag)
        variants.append((name, _pairs_to_dict(game, name, pairs)))
    return build_study(
        game, variants, players=players, games=games, seed=seed, precision=precision,
        length_band=length_band, detect=detect,
        base_options=_pairs_to_dict(game, "base", base_pairs),
    )


def load_study_file(path: Path, *, game: str | None = None, games: int | None = None,
                    seed: int | None = None) -> Study:
    """Read a TOML study file; flags given on the command line override its values."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise StudyError(f"cannot read study file {path}: {exc.strerror}") from exc
    if size > MAX_STUDY_FILE_BYTES:
        raise StudyError(f"study file {path} is {size:,} bytes; at most "
                         f"{MAX_STUDY_FILE_BYTES:,}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise StudyError(f"study file {path} is not valid TOML: {exc}") from exc
    known = {"game", "games", "seed", "precision", "length_band", "detect", "hero", "teller",
             "players", "rotate", "options", "variant"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise StudyError(f"study file {path}: unknown key(s) {unknown}", allowed=sorted(known))
    if game and data.get("game") not in (None, game):
        raise StudyError(f"study file {path} is a study of {data.get('game')!r}, not {game!r}",
                         allowed=[f"pocketgalaxy balance {data.get('game')} --study {path}"])
    chosen = game or data.get("game")
    if chosen not in GAMES:
        raise StudyError(f"study file {path}: game must be one of {list(GAMES)}")
    if chosen == "perils":
        players = [str(data.get("hero", "rulebased")), str(data.get("teller", "teller"))]
    else:
        raw = data.get("players", ["memory", "memory", "forgetful", "random"])
        if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
            raise StudyError(f"study file {path}: players must be a list of player names")
        players = list(raw)
    variants = []
    for entry in data.get("variant", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise StudyError(f"study file {path}: every [[variant]] needs a name")
        opts = entry.get("options", {})
        if not isinstance(opts, dict):
            raise StudyError(f"study file {path}: variant {entry['name']!r} options must be a "
                             "table")
        extra = {k: entry[k] for k in PLAYER_KEYS if k in entry}
        variants.append((entry["name"], {**dict(opts), **extra}))
    base = data.get("options", {})
    if not isinstance(base, dict):
        raise StudyError(f"study file {path}: [options] must be a table")
    try:
        return build_study(
            chosen, variants, players=players,
            games=int(games if games is not None else data.get("games", 1000)),
            seed=int(seed if seed is not None else data.get("seed", 1)),
            precision=data.get("precision"), length_band=data.get("length_band"),
            detect=float(data.get("detect", 0.02)), rotate=bool(data.get("rotate", True)),
            base_options=dict(base),
        )
    except (TypeError, ValueError) as exc:
        raise StudyError(f"study file {path}: {exc}") from exc

"""Saved games: a game record plus who sits where, in a folder of JSON files.

A save is `{"format": "pocketgalaxy-save", "version": 1, "name", "saved_at", "game",
"record": <core.record.GameRecord JSON>, "seats": [{"seat", "name", "kind": "human"|"bot",
"spec", "seed"}], "settings": {...}}`. The folder is $POCKETGALAXY_SAVE_DIR, or
~/.local/share/pocketgalaxy/saves. A save that cannot be read gives a clear RecordError and is
never overwritten or deleted.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError, RecordError
from pocketgalaxy.core.record import GameRecord

SAVE_FORMAT = "pocketgalaxy-save"
SAVE_VERSION = 1
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def save_dir() -> Path:
    """The saves folder (not created until something is saved)."""
    env = os.environ.get("POCKETGALAXY_SAVE_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".local" / "share" / "pocketgalaxy" / "saves"


@dataclass
class SeatInfo:
    """Who sits at a seat: a person, or a computer player with its spec and seed."""

    seat: int
    name: str
    kind: str = "human"
    spec: str | None = None
    seed: int | None = None

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "spec": self.spec,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Any) -> SeatInfo:
        if not isinstance(data, dict):
            raise RecordError("save: each seat must be a JSON object")
        kind = data.get("kind")
        if kind not in ("human", "bot"):
            raise RecordError(f"save: seat kind {kind!r} should be 'human' or 'bot'")
        seat, name, spec, seed = (
            data.get("seat"),
            data.get("name"),
            data.get("spec"),
            data.get("seed"),
        )
        if not isinstance(seat, int) or not isinstance(name, str):
            raise RecordError("save: each seat needs an integer 'seat' and a text 'name'")
        if kind == "bot" and (not isinstance(spec, str) or not isinstance(seed, int)):
            raise RecordError(
                f"save: computer seat {seat} needs a text 'spec' and an integer 'seed'"
            )
        return cls(seat=seat, name=name, kind=kind, spec=spec, seed=seed)


@dataclass
class SavedGame:
    """A game on disk."""

    name: str
    record: GameRecord
    seats: list[SeatInfo]
    settings: dict[str, Any] = field(default_factory=dict)
    saved_at: str = ""

    @property
    def game(self) -> str:
        return self.record.game

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "name": self.name,
            "saved_at": self.saved_at,
            "game": self.record.game,
            "record": self.record.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "settings": self.settings,
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> SavedGame:
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise RecordError(
                f"{where}: not a Pocket Galaxy save (format {SAVE_FORMAT!r} expected)"
            )
        if data.get("version") != SAVE_VERSION:
            raise RecordError(f"{where}: save version {data.get('version')!r} is not supported")
        try:
            record = GameRecord.from_json(data.get("record"))
        except RecordError as exc:
            raise RecordError(f"{where}: {exc.message}") from exc
        seats_data = data.get("seats")
        if not isinstance(seats_data, list):
            raise RecordError(f"{where}: 'seats' should be a list")
        try:
            seats = [SeatInfo.from_json(s) for s in seats_data]
        except RecordError as exc:
            raise RecordError(f"{where}: {exc.message}") from exc
        if sorted(s.seat for s in seats) != list(range(record.players)):
            raise RecordError(f"{where}: seats do not match the record's {record.players} players")
        settings = data.get("settings") or {}
        if not isinstance(settings, dict):
            raise RecordError(f"{where}: 'settings' should be an object")
        return cls(
            name=str(data.get("name") or Path(where).stem),
            record=record,
            seats=sorted(seats, key=lambda s: s.seat),
            settings=settings,
            saved_at=str(data.get("saved_at") or ""),
        )


def check_name(name: str) -> str:
    """A save name: letters, digits, '-', '_' and '.', up to 64 characters."""
    if not _NAME.match(name):
        raise PocketGalaxyError(
            f"bad save name {name!r}: use letters, digits, '-', '_' or '.' (up to 64)",
            code="save/bad_name",
        )
    return name


class SaveStore:
    """The saves folder: list, load and write saves by name."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or save_dir()

    def path(self, name: str) -> Path:
        return self.root / f"{check_name(name)}.json"

    def names(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.stem for p in self.root.glob("*.json"))

    def load(self, name: str) -> SavedGame:
        """Read one save; RecordError (file untouched) if it is missing or broken."""
        path = self.path(name)
        if not path.is_file():
            raise PocketGalaxyError(
                f"no save named {name!r} in {self.root}",
                code="save/not_found",
                allowed=self.names(),
            )
        try:
            text = path.read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"save {path} cannot be read: {exc}") from exc
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"save {path} is corrupt: not valid JSON ({exc.msg} at line {exc.lineno}); "
                "it was left untouched"
            ) from exc
        return SavedGame.from_json(data, str(path))

    def listing(self) -> list[tuple[str, SavedGame | RecordError]]:
        """Every save by name, with the loaded game or the error that explains why not."""
        out: list[tuple[str, SavedGame | RecordError]] = []
        for name in self.names():
            try:
                out.append((name, self.load(name)))
            except RecordError as exc:
                out.append((name, exc))
            except PocketGalaxyError as exc:
                out.append((name, RecordError(exc.message)))
        return out

    def write(self, save: SavedGame) -> Path:
        """Write a save atomically. An existing file that is not a valid save of ours is refused
        (never overwritten), so a corrupt save is kept for inspection."""
        path = self.path(save.name)
        if path.exists():
            try:
                self.load(save.name)
            except PocketGalaxyError as exc:
                raise RecordError(
                    f"will not overwrite {path}: it is not a readable save ({exc.message}); "
                    "choose another name"
                ) from exc
        self.root.mkdir(parents=True, exist_ok=True)
        save.saved_at = datetime.now(UTC).isoformat(timespec="seconds")
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(json.dumps(save.to_json(), indent=1, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
        return path

"""The balance studies of the data folder, on the web: `/studies` lists them, `/studies/{name}`
shows a study's report, `/studies/{name}/plots/{file}` its plots, `/api/studies` the list as JSON.

A study is a folder `DATA_DIR/studies/NAME` written by `pocketgalaxy balance ... --out` (see
sim/balance/report.py). Only names of the documented shape are looked up, and every path is
checked to stay inside the studies folder, so a visitor can read nothing else. The routes are
plain `def`: FastAPI runs them in a worker thread, off the event loop. The report pages carry
inline styles (matplotlib's SVG), so their policy allows inline style and forbids any script.
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from pocketgalaxy.web.errors import WebError

router = APIRouter()

STUDY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")
PLOT_FILE = re.compile(r"^[a-z_]{1,40}\.(png|svg)$")
MAX_LISTED = 200
"""The list shows at most this many studies (by name); the rest are still reachable by name."""
MAX_SUMMARY_BYTES = 8 * 1024 * 1024
"""A summary.json larger than this is listed without its details."""


def studies_root(request: Request) -> Path:
    return Path(request.app.state.settings.data_dir) / "studies"


def _folder(root: Path, name: str) -> Path:
    if not STUDY_NAME.match(name) or ".." in name:
        raise WebError("study/not_found", "no study by that name: names are 1-80 letters, "
                       "digits, '_', '.' or '-'")
    folder = (root / name).resolve()
    if folder.parent != root.resolve() or not (folder / "report.html").is_file():
        raise WebError("study/not_found", f"no study named {name!r} in the data folder")
    return folder


def _entry(folder: Path) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": folder.name, "url": f"/studies/{folder.name}"}
    summary = folder / "summary.json"
    try:
        if summary.stat().st_size <= MAX_SUMMARY_BYTES:
            data = json.loads(summary.read_text(encoding="utf-8"))
            study = data.get("study", {})
            entry.update({
                "game": study.get("game"),
                "variants": [v.get("name") for v in study.get("variants", [])],
                "games": {k: v.get("games") for k, v in data.get("variants", {}).items()},
                "stopped": data.get("stopped"),
            })
    except (OSError, ValueError, AttributeError):
        entry["problem"] = "summary.json is missing or unreadable"
    return entry


def list_studies(root: Path) -> list[dict[str, Any]]:
    """The studies in `root`, by name (at most MAX_LISTED)."""
    if not root.is_dir():
        return []
    names = sorted(p.name for p in root.iterdir()
                   if p.is_dir() and STUDY_NAME.match(p.name) and (p / "report.html").is_file())
    return [_entry(root / n) for n in names[:MAX_LISTED]]


@router.get("/api/studies")
def api_studies(request: Request) -> dict[str, Any]:
    """The balance studies of the server's data folder."""
    return {"studies": list_studies(studies_root(request)), "limit": MAX_LISTED}


@router.get("/studies", include_in_schema=False)
def studies_page(request: Request) -> HTMLResponse:
    rows = []
    for s in list_studies(studies_root(request)):
        game = {"perils": "Perils & Pathways", "adventure": "Adventure Cards"}.get(
            str(s.get("game")), "?")
        variants = ", ".join(str(v) for v in s.get("variants", []))
        rows.append(f"<li><a href='{escape(s['url'])}'>{escape(s['name'])}</a> — "
                    f"{escape(game)}: {escape(variants)}</li>")
    body = "<ul>" + "".join(rows) + "</ul>" if rows else (
        "<p>No studies yet. Run <code>pocketgalaxy balance perils --out "
        "DATA_DIR/studies/NAME</code> and it appears here.</p>")
    return HTMLResponse(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Balance studies"
        "</title><link rel='stylesheet' href='/static/css/base.css'></head><body><main>"
        "<h1>Balance studies</h1>" + body + "<p><a href='/'>Back to the lobby</a></p>"
        "</main></body></html>")


@router.get("/studies/{name}", include_in_schema=False)
def study_report(request: Request, name: str) -> FileResponse:
    return FileResponse(_folder(studies_root(request), name) / "report.html",
                        media_type="text/html")


@router.get("/studies/{name}/plots/{file}", include_in_schema=False)
def study_plot(request: Request, name: str, file: str) -> FileResponse:
    folder = _folder(studies_root(request), name)
    if not PLOT_FILE.match(file) or not (folder / "plots" / file).is_file():
        raise WebError("study/not_found", f"study {name!r} has no plot {file!r}")
    media = "image/png" if file.endswith(".png") else "image/svg+xml"
    return FileResponse(folder / "plots" / file, media_type=media)

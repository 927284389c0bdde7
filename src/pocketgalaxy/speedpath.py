"""Which speed path the rules core runs on: the mypyc-compiled modules or the pure-Python source.

`make compile` (scripts/compile_core.py) builds extension modules beside the `.py` files of the
rules core and writes a manifest, `_compiled.json`, holding a SHA-256 of every source it compiled.
Python prefers an extension module to a `.py` of the same name, so a fresh build is used with no
further step. `select()`, called once by `pocketgalaxy/__init__.py` before any rules module is
imported, falls back to the pure source for every compiled module when:

- `POCKETGALAXY_PURE=1` is set (the way to force pure in one process: tests, benches, debugging);
- there is no manifest beside the extension modules (a broken or partial build);
- a compiled source changed since the build (a stale build would run old rules: `make compile`).

It is all or nothing: the compiled modules call each other directly in C, so a mix of a fresh
`.py` and stale compiled neighbours could not be trusted. `status()` says which path is in use
and why; `python scripts/compile_core.py status` prints it. Nothing here imports the rules.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = PACKAGE_DIR / "_compiled.json"
PURE_ENV = "POCKETGALAXY_PURE"
COMPILABLE_DIRS = ("core", "games", "agents", "sim")  # agents: the rule-based Perils Hero;
# sim: the simulator's turn loop (sim/turns.py)

_state: dict[str, Any] = {"selected": False, "pure": True, "reason": "not selected yet",
                          "modules": []}


class _SourceOnlyFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules as `.py` source only, so their extension modules are skipped."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names or not path:
            return None
        for entry in path:
            finder = importlib.machinery.FileFinder(
                entry,
                (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES),
            )
            spec = finder.find_spec(fullname)
            if spec is not None:
                return spec
        return None


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_manifest() -> dict[str, Any] | None:
    """The build's manifest, or None when there is none or it does not parse."""
    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _built_extensions() -> list[str]:
    """Module names that have an extension module beside their `.py` (only the rules core and
    the games, some agents and the simulator's turn loop are ever compiled, so only they are
    searched)."""
    names = []
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = [p for d in COMPILABLE_DIRS for p in (PACKAGE_DIR / d).rglob("*")]
    for ext in sorted(found):
        if not ext.name.endswith(suffixes):
            continue
        stem = ext.name.split(".")[0]
        rel = ext.parent.relative_to(PACKAGE_DIR.parent).parts
        names.append(".".join((*rel, stem)))
    return names


def _stale(manifest: dict[str, Any]) -> str | None:
    """Why the build cannot be used with this source tree, or None when it can."""
    sources = manifest.get("sources")
    if not isinstance(sources, dict) or not sources:
        return "the build manifest lists no sources"
    if manifest.get("python") != sys.implementation.cache_tag:
        return f"built for {manifest.get('python')}, running {sys.implementation.cache_tag}"
    for rel, digest in sorted(sources.items()):
        path = PACKAGE_DIR.parent / rel
        try:
            if _digest(path) != digest:
                return f"{rel} changed since the build (run `make compile` or `make pure`)"
        except OSError:
            return f"{rel} is missing"
    return None


def select() -> None:
    """Choose the speed path once per process (see the module docstring)."""
    if _state["selected"]:
        return
    _state["selected"] = True
    built = _built_extensions()
    if not built:
        _state.update(pure=True, reason="not built (`make compile` builds it)", modules=[])
        return
    manifest = read_manifest()
    modules = [str(m) for m in manifest.get("modules", [])] if manifest else []
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        reason = f"forced by {PURE_ENV}={os.environ[PURE_ENV]}"
    elif manifest is None:
        reason = "extension modules without a build manifest (run `make compile` or `make pure`)"
    else:
        reason = _stale(manifest) or ""
    if reason:
        sys.meta_path.insert(0, _SourceOnlyFinder(sorted(set(built) | set(modules))))
        _state.update(pure=True, reason=reason, modules=[])
        return
    _state.update(pure=False, reason="compiled build matches the source", modules=modules)


def status() -> dict[str, Any]:
    """{"compiled": bool, "reason": str, "modules": [...], "loaded": {name: file}}.

    `loaded` names the file each expected compiled module was really imported from (only those
    already imported), so a caller can check the claim.
    """
    select()
    loaded = {}
    for name in _state["modules"]:
        module = sys.modules.get(name)
        if module is not None:
            loaded[name] = str(getattr(module, "__file__", ""))
    return {"compiled": not _state["pure"], "reason": _state["reason"],
            "modules": list(_state["modules"]), "loaded": loaded}

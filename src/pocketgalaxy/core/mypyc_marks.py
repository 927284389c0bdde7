"""Marks for the optional mypyc build of the rules core (docs/speed.md); no-ops at run time.

`@mypyc_attr(allow_interpreted_subclasses=True)` goes on a compiled base class that code left in
pure Python subclasses (Perils' actions and rules, test doubles): mypyc then keeps it open to
interpreted subclasses. mypy and mypyc read `mypyc_marks.pyi`, which names mypy's own marker;
running, this file's no-op is used, so the core imports no third-party package. `i64` is
named the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

i64 = int
"""mypyc's native 64-bit integer (`mypy_extensions.i64` in the stub): compiled, a C int64_t
whose arithmetic wraps around; running pure, a plain int (so code using it must not overflow
on the pure path, see core/rng.py)."""


def mypyc_attr(*flags: str, **settings: object) -> Callable[[T], T]:
    """Return a decorator that gives the class back unchanged."""

    def keep(cls: T) -> T:
        return cls

    return keep

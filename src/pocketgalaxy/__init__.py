"""Pocket Galaxy: play, watch, analyse and train computer players for two pocket card games."""

__version__ = "0.1.0"

# Before any rules module is imported: the compiled rules core, or the pure source (speedpath.py).
from pocketgalaxy import speedpath as _speedpath  # noqa: E402

_speedpath.select()

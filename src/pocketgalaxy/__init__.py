"""Pocket Galaxy: play, watch, analyse and train computer players for two pocket card games."""

__version__ = "0.1.0"

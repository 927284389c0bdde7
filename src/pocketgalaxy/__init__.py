"""Pocket Galaxy: play, watch, analyse and train computer players for two pocket-sized space card games."""

__version__ = "0.1.0"

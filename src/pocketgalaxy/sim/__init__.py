"""Simulation: many computer-only games, their statistics and reports."""

"""Print and play: PDFs for playing Pocket Galaxy's games with paper, a pen and a real deck.

`print_perils(theme, out, paper=)` writes a theme's playsheet (archetypes, skills, prize ideas,
Big Bads, peril ideas by suit and difficulty, useful items, healing gifts) and a one-page rules
summary; `print_adventure(out, paper=)` writes the 24 test-cards and 24 mission-cards, fronts and
backs, laid out for cutting, from the same card art the web draws (`adventure_art`), with a
one-page rules summary. Both are built in memory and written by `output.write_atomically`, so a
refused or failed run leaves no file behind. `pocketgalaxy print` (cli/print_cmd.py) is the shell.

The PDFs use only the PDF standard fonts (Helvetica; Symbol for the suit signs) and are made with
ReportLab's `invariant` mode: the same input gives the same bytes in any process.
"""

from __future__ import annotations

from pocketgalaxy.printing.adventure import print_adventure
from pocketgalaxy.printing.output import PrintError
from pocketgalaxy.printing.paper import PAPERS, paper_size
from pocketgalaxy.printing.perils import print_perils

PRINT_GAMES: tuple[str, ...] = ("perils", "adventure")
"""The games that can be printed, in the order the shells list them."""

__all__ = ["PAPERS", "PRINT_GAMES", "PrintError", "paper_size", "print_adventure",
           "print_perils"]

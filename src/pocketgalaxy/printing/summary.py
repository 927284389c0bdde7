"""The one-page rules summaries printed with each game: a short version of the guides.

The full guides are src/pocketgalaxy/guides/*.md (`pocketgalaxy rules GAME`); these pages keep
only what a table needs while playing. The text is data here, in sections of short points;
`summary_page(game, styles)` lays it out as flowables that always fit one page (ReportLab's
KeepInFrame shrinks them if a point grows long). Card signs are written `{D}`, `{C}`, `{S}`,
`{H}` and become coloured suit signs.
"""

from __future__ import annotations

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepInFrame, Paragraph, Spacer

from pocketgalaxy.printing.text import rich

Section = tuple[str, tuple[str, ...]]

PERILS: tuple[Section, ...] = (
    ("You need", (
        "Two players: the Hero, who walks the maze, and the Teller, who sees what lies ahead "
        "and describes it. You win or lose together.",
        "A 54-card deck with both jokers, one six-sided die and this playsheet.",
    )),
    ("Set up", (
        "The Hero picks an archetype (Playsheet 1) and lays its four cards face up: a skill "
        "card for each of {D} {C} {S} (the level is the card's value) and the {H} card, where "
        "wounds go. Health starts at 3, the most it can be.",
        "Stack, face down from the bottom: the A{H} (the Prize), the other three aces shuffled "
        "(the Big Bads), then the other 46 cards shuffled.",
    )),
    ("A round", (
        "The Teller lays the top two cards face down as pathways and describes each one: by "
        "sight in round 1, by sound in round 2, by smell in round 3, then sight again.",
        "The Hero turns one over; the other stays face down, out of the game.",
        "A {D} {C} {S} card 2-10 is a peril: its suit is the skill tested, its value the "
        "difficulty. A {H} card 2-10 is a healing gift: +1 health, up to 3. A jack, queen, "
        "king or joker is a useful item, kept for one later use.",
    )),
    ("Facing a peril", (
        "Skill level higher than the difficulty: walk past, nothing gained.",
        "Otherwise plan aloud. Channel one other skill (+1) and use any items (+1 each); the "
        "Teller approves each bonus the plan really uses, and may grant advantage (roll twice, "
        "keep the higher) for a fine plan.",
        "Roll: die + approved bonuses (the skill level is not added). Reaching the difficulty "
        "succeeds: tuck the peril behind its skill card, +1 level. Lower fails: tuck it "
        "behind the {H} card, -1 health. Used items are discarded either way.",
    )),
    ("Zero health", (
        "In the maze: lose every item and half the gained levels (rounded down, the Hero "
        "chooses); half of those cards (rounded up, at random) go back into the stack above "
        "the Big Bads, the rest are set aside. Health returns to 3.",
    )),
    ("The showdown", (
        "When only the four aces are left, the three Big Bads are laid out as pathways. Each "
        "is a peril of its suit with difficulty 11; the Hero faces all three, choosing the "
        "order.",
        "Zero health in the showdown loses the game. Come through all three and the Prize is "
        "yours.",
    )),
)

ADVENTURE: tuple[Section, ...] = (
    ("You need", (
        "Two to five astronauts, the 24 test-cards (same backs) and the 24 mission-cards "
        "(backs shaded by pack) from these sheets.",
        "Four packs of six, numbered 1-6: space ships (blue), planets (black), aliens (green) "
        "and marvels (yellow).",
    )),
    ("Set up", (
        "Sort the mission-cards by pack, shuffle each pack, and lay out six missions face up: "
        "one card of each pack per mission.",
        "Shuffle the test-cards and deal: 2 players 8 each and 8 on the table; 3 players 6 "
        "each, 6 on the table; 4 players 4 each, 8 on the table; 5 players 4 each, 4 on the "
        "table. Table cards lie face down, each in its numbered place.",
    )),
    ("Your turn", (
        "Ask another player for one test-card you do not hold, by picture or by colour and "
        "number. If they have it, they hand it over and you go again. If not, your turn ends, "
        "but first you may peek at one face-down table card.",
        "Or point at a face-down table card and name it, then turn it over. Right: keep it and "
        "go again. Wrong: turn it back down; your turn ends with no peek.",
    )),
    ("Missions", (
        "Hold the four test-cards of a mission: show and discard them, and take that "
        "mission's four mission-cards. Your turn goes on.",
        "A player with no cards left still takes turns.",
    )),
    ("The end", (
        "The game ends when the sixth mission is completed. Most missions wins; on a tie, the "
        "highest total of the numbers on your mission-cards; still tied, share the win.",
    )),
)

SUMMARIES: dict[str, tuple[str, tuple[Section, ...]]] = {
    "perils": ("Perils & Pathways: the rules on one page", PERILS),
    "adventure": ("Adventure Cards: the rules on one page", ADVENTURE),
}
GUIDE_NOTE = ("The full guide, with worked examples: pocketgalaxy rules {game} (or the web "
              "table's How to play page).")


def summary_page(game: str, styles: dict[str, ParagraphStyle], width: float, height: float,
                 extra: tuple[Section, ...] = ()) -> Flowable:
    """The summary of `game` (plus `extra` sections) as one flowable that fits one page."""
    title, sections = SUMMARIES[game]
    story: list[Flowable] = [Paragraph(rich(title), styles["title"])]
    for heading, points in (*sections, *extra):
        story.append(Paragraph(rich(heading), styles["heading"]))
        story.extend(Paragraph(rich(p), styles["bullet"], bulletText="\u2022") for p in points)
    story.append(Spacer(1, 6))
    story.append(Paragraph(rich(GUIDE_NOTE.format(game=game)), styles["note"]))
    return KeepInFrame(width, height, story, mode="shrink")

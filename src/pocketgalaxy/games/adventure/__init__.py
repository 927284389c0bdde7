"""Adventure Cards: astronauts trade and guess test-cards to complete six missions.

Public names: `AdventureRules`, `AdventureOptions`, `AdventureState`, `AdventureView`, the
actions, and `parse_identity`. See docs/rules/adventure.md for the rules in words.
"""

from pocketgalaxy.games.adventure.actions import (
    ClaimMission,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.identities import CARDS, PACKS, parse_identity
from pocketgalaxy.games.adventure.options import AdventureOptions
from pocketgalaxy.games.adventure.rules import AdventureRules
from pocketgalaxy.games.adventure.state import AdventureState
from pocketgalaxy.games.adventure.views import AdventureView, LegalSummary

__all__ = [
    "CARDS",
    "PACKS",
    "AdventureOptions",
    "AdventureRules",
    "AdventureState",
    "AdventureView",
    "ClaimMission",
    "DeclareCard",
    "LegalSummary",
    "PassTurn",
    "Peek",
    "RequestCard",
    "SkipPeek",
    "parse_identity",
]

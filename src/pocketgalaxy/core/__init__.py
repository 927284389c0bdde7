"""The game-independent core: cards, seeded randomness, errors, options, the game contract, records.

Nothing here does I/O or imports a game.
"""

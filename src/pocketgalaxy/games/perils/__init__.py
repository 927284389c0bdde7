"""Perils & Pathways: a two-seat cooperative maze crawl (seat 0 the Hero, seat 1 the Teller).

The modules: `options` (every ruling as a named option), `state`, `actions`, `events`, `rules`
(the `PerilsRules` contract), `views`, `content` (themes from TOML playsheets), `rubric` (how the
rules judge a plan), `narration` (the computer Teller's words).
"""

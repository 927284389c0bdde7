"""Perils & Pathways: a two-seat cooperative maze crawl (seat 0 the Hero, seat 1 the Teller).

The modules: `options` (every ruling as a named option), `state`, `actions`, `events`, `rules`
(the `PerilsRules` contract), `penalty` (the zero-health penalty), `planning` (plans and their
judgement), `views`, `content` (themes from TOML playsheets), `things` (what each card stands
for in the story), `rubric` (how the rules judge a plan), `narration` (the computer Teller's
pathway descriptions) and `story` (its reveals and outcomes, carried in the events).
"""

"""narration.mix_parts (the seeds of the narration's streams) gives things.mix's number on the
path in use: compiled it runs on native 64-bit integers (docs/speed.md, "The Perils million");
narration.cue_stream (the seed's mix remembered) is the stream `mix` seeds."""

from __future__ import annotations

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import narration
from pocketgalaxy.games.perils.things import mix


def test_mix_parts_is_mix_for_every_kind_of_part() -> None:
    rng = Rng(2026)
    edges = [0, 1, 2**31 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 0xC0E, 0xDE5C, 0xA11CE]
    cases: list[tuple[int, ...]] = [(e,) for e in edges] + [(e, 3, 1, 0xC0E) for e in edges]
    for _ in range(3000):
        n = 1 + rng.below(4)
        cases.append(tuple(rng.below(2**32) * 2**32 + rng.below(2**32) if rng.below(2) else
                           rng.below(40) for _ in range(n)))
    cases.append((-5, 2**70 + 3))  # out of range parts are masked to 64 bits, as by mix
    for parts in cases:
        assert narration.mix_parts(parts) == mix(*parts), parts


def test_a_stream_is_seeded_by_mix() -> None:
    seed = narration.narration_seed_for(77)
    assert narration.stream(seed, 4, 2, 0xC0E).state == Rng(mix(seed, 4, 2, 0xC0E)).state


def test_a_cue_stream_is_the_stream_of_its_seed_round_and_position() -> None:
    # Seeds in turn (the last seed's mix is remembered), at the 64-bit edges too.
    rng = Rng(31)
    seeds = [0, 1, 2**63 - 1, 2**63, 2**64 - 1, narration.narration_seed_for(5)]
    seeds += [rng.below(2**32) * 2**32 + rng.below(2**32) for _ in range(60)]
    for k in range(600):
        seed = seeds[k % len(seeds)] if k % 3 else seeds[rng.below(len(seeds))]
        round_no, position = rng.below(40), rng.below(4)
        got = narration.cue_stream(seed, round_no, position)
        want = Rng(mix(seed, round_no, position, 0xC0E))
        assert got.state == want.state, (seed, round_no, position)
        assert [got.below(1_000_000) for _ in range(3)] == [want.below(1_000_000) for _ in range(3)]


def test_the_remembered_cast_is_cast_of_across_interleaved_games() -> None:
    """narration.game_cast keeps the last game's cast (the rules and the views ask it at every
    card): games, themes and clarities in turn always get `cast_of`'s cast."""
    from pocketgalaxy.games.perils.content import cast_of, load_theme, thing_for
    from pocketgalaxy.games.perils.options import PerilsOptions
    from pocketgalaxy.registry import perils_rules

    themes = [load_theme("cosmic"), load_theme("dungeon")]
    rng = Rng(8)
    for k in range(200):
        theme = themes[rng.below(2)]
        seed = narration.narration_seed_for(rng.below(6))
        clarity = ("plain", "fair", "cryptic")[rng.below(3)]
        assert narration.game_cast(theme, seed, clarity) is cast_of(theme, seed, clarity), k
    rules = perils_rules(narrate=False)
    for seed in (3, 4, 3):
        state = rules.new(PerilsOptions(theme="dungeon", clarity="plain"), seed)
        theme = rules.theme(state.options)
        cast = narration.cast_for(state, theme)
        assert all(cast[c] is thing_for(state, c) for c in cast)

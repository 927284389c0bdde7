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

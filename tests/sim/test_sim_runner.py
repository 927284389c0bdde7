"""The simulator: seeds derive deterministically, workers do not change results, and the fast
loop plays exactly the game a Session would."""

from __future__ import annotations

import pytest

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session
from pocketgalaxy.sim.runner import Job, derive_seed, play_chunk, play_one, run_many, seat_specs


def test_derive_seed_is_stable_and_spread() -> None:
    seeds = [derive_seed(1, i) for i in range(1000)]
    assert seeds == [derive_seed(1, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert all(0 <= s < 2**31 for s in seeds)
    assert derive_seed(2, 0) != derive_seed(1, 0)


def test_seat_specs_rotate() -> None:
    specs = ("a", "b", "c")
    assert seat_specs(specs, 0, True) == ("a", "b", "c")
    assert seat_specs(specs, 1, True) == ("b", "c", "a")
    assert seat_specs(specs, 4, False) == specs


def _session_game(game: str, specs: list[str], seed: int, options: dict[str, object]) -> Session:
    rules = get_game(game)
    agents = {
        s: make_agent(game, spec, s, len(specs), seed=derive_seed(seed, 1 + s))
        for s, spec in enumerate(specs)
    }
    session = Session(rules, options, seed=seed, players=len(specs), agents=agents)
    session.run_bots()
    return session


@pytest.mark.parametrize(
    ("game", "specs", "options"),
    [
        ("perils", ["rulebased", "teller"], {"teller_policy": "approve_all"}),
        ("perils", ["rulebased", "teller"], {"archetype": "scout"}),
        ("adventure", ["memory", "forgetful", "random"], {}),
    ],
)
def test_fast_loop_plays_the_same_game_as_a_session(
    game: str, specs: list[str], options: dict[str, object]
) -> None:
    for seed in (1, 2, 3):
        result = play_one(game, specs, seed, options)
        session = _session_game(game, specs, seed, options)
        outcome = session.outcome
        assert outcome is not None
        assert result.winners == outcome.winners
        assert result.decisions == len(session.record.actions)
        assert sum(result.seat_decisions) == result.decisions


def test_results_do_not_depend_on_workers() -> None:
    def strip(rs: list) -> list:
        return [
            (r.index, r.seed, r.specs, r.winners, r.length, r.decisions, r.first_player, r.extras)
            for r in rs
        ]

    one = run_many("adventure", ["memory", "random"], 10, 7, workers=1, rotate=True, chunk=3)
    two = run_many("adventure", ["memory", "random"], 10, 7, workers=2, rotate=True, chunk=3)
    assert strip(one) == strip(two)
    assert [r.index for r in one] == list(range(10))
    assert one[1].specs == ("random", "memory")


def test_each_game_can_be_rerun_alone() -> None:
    many = run_many("perils", ["rulebased", "teller"], 4, 99)
    again = play_one("perils", ["rulebased", "teller"], derive_seed(99, 3), index=3)
    assert (again.winners, again.decisions, again.extras) == (
        many[3].winners,
        many[3].decisions,
        many[3].extras,
    )
    assert many[3].extras["archetype"]
    assert many[3].length > 0


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    run_many(
        "perils", ["random", "teller"], 5, 1, progress=lambda d, t: seen.append((d, t)), chunk=2
    )
    assert seen[0] == (0, 5) and seen[-1] == (5, 5)


def test_bad_specs_fail_fast() -> None:
    with pytest.raises(PocketGalaxyError, match="unknown computer player"):
        run_many("adventure", ["memory", "wizard"], 3, 1)
    with pytest.raises(PocketGalaxyError, match="2 player specs for 3 seats"):
        run_many("adventure", ["memory", "random"], 3, 1, players=3)


def test_a_chunk_plays_each_job_with_its_own_options() -> None:
    """play_chunk recognises the options of the job before by identity: jobs whose dicts
    alternate, or whose one dict object is another game's, each get their own options."""
    rules = get_game("perils")
    scout = {"archetype": "scout", "teller_policy": "approve_all"}
    envoy = {"archetype": "envoy", "teller_policy": "approve_all"}
    order = [scout, scout, envoy, scout, envoy, envoy]
    jobs = [Job("perils", ("rulebased", "teller"), derive_seed(5, i), opts, 2, i)
            for i, opts in enumerate(order)]
    got = play_chunk(jobs)
    assert [r.extras["archetype"] for r in got] == [o["archetype"] for o in order]
    for job, result in zip(jobs, got, strict=True):
        alone = play_one(rules, job.specs, job.seed, job.options, index=job.number)
        assert (result.winners, result.decisions, result.extras) == (
            alone.winners, alone.decisions, alone.extras)
    shared: dict[str, object] = {}  # one dict object, two games: parsed for each
    mixed = [Job("adventure", ("memory", "random", "random"), 11, shared, 3, 0),
             Job("perils", ("rulebased", "teller"), 12, shared, 2, 1)]
    assert [(r.reason, r.length) for r in play_chunk(mixed)] == [
        (r.reason, r.length) for r in (play_one("adventure", mixed[0].specs, 11, {}, 3),
                                       play_one("perils", mixed[1].specs, 12, {}))]

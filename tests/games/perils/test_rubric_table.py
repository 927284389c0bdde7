"""The plan rubric, held to a table of hand-written plans (good, lazy, nonsense, misspelt), and a
property: random words plus every skill and item name earn nothing.

Each row gives the theme, the thing faced (a Thing-like fixture: name and plan words), the plan,
the channelled suit, the committed items, the roll-twice threshold, and the verdict it must get:
(skill approved, items approved, roll-twice). docs/plans.md explains the rules these follow.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.plan_words import near
from pocketgalaxy.registry import plan_judge


@dataclass(frozen=True)
class Thing:
    name: str
    plan_words: tuple[str, ...]


BOT = Thing("security bot", ("security", "bot", "arms", "grapples", "claws"))
SLED = Thing("cargo sled", ("cargo", "sled", "bay", "stalled", "track"))
CATWALK = Thing("shaking catwalk", ("catwalk", "drop", "shaking", "gap"))
FIGHTER = Thing("hunter interceptor", ("interceptor", "fighter", "hangar", "guns"))
HOUND = Thing("sleeping hound", ("hound", "doorway", "sleeping", "dog"))
DOOR = Thing("sealed door", ("door", "riddle", "sealed"))
OGRE = Thing("ogre guard", ("ogre", "guard", "bridge"))

JUDGE = plan_judge()
ALL_COSMIC = ("JH", "JC", "QD", "KC", "JK1")

# id, theme, thing, plan, channel, items, threshold, (skill?, items approved, roll twice?)
TABLE: list[tuple[str, str, Thing | None, str, str | None, tuple[str, ...], int | None,
                  tuple[bool, tuple[str, ...], bool]]] = [
    # -- good plans ---------------------------------------------------------------------
    ("duck-and-roll", "cosmic", BOT, "I duck and roll under its grabbing arms", "C", (), 3,
     (True, (), False)),
    ("dodge-hook-hack", "cosmic", BOT,
     "First I dodge the security bot's arms. Then I fire the grappling hook at the girder and "
     "swing over it, and I jam its circuits with the hacking device.", "C", ("JC", "JS"), 3,
     (True, ("JC", "JS"), True)),
    ("shove-pin", "cosmic", BOT, "I shove the bot into the wall and pin it there", "D", (), 3,
     (True, (), False)),
    ("wrestled", "cosmic", BOT, "I wrestled the security bot to the floor", "D", (), 3,
     (True, (), False)),
    ("gauntlet-two-sources", "cosmic", BOT,
     "Then I punch through its plating with the hydraulic gauntlet", "D", ("JD",), 3,
     (True, ("JD",), False)),
    ("gauntlet-threshold-two", "cosmic", BOT,
     "I grab the security bot by the arm. Then I crush its plating with the hydraulic gauntlet.",
     "D", ("JD",), 2, (True, ("JD",), True)),
    ("coax-sled", "cosmic", SLED,
     "I coax the stalled cargo sled across the bay, steering gently around the crates", "S", (),
     3, (True, (), False)),
    ("piloted-inflected", "cosmic", SLED, "I piloted the sled along the track", "S", (), 3,
     (True, (), False)),
    ("chip-key-drive", "cosmic", SLED,
     "First I plot a route on the nav chip. Then I swipe the override key to unlock the track "
     "switch, and finally I drive the cargo sled through.", "S", ("QS", "KS"), 3,
     (True, ("QS", "KS"), True)),
    ("boots-catwalk", "cosmic", CATWALK,
     "I sprint along the shaking catwalk with the mag-boots gripping the plating", "C", ("QC",),
     3, (True, ("QC",), False)),
    ("smoke-slip", "cosmic", BOT,
     "I pull the smoke canister to blind its cameras, then slip past the bot", "C", ("KC",), 3,
     (True, ("KC",), False)),
    ("drone-distracts", "cosmic", BOT,
     "I send the maintenance drone to distract the bot while I drive the tram away", "S",
     ("JK1",), 3, (True, ("JK1",), False)),
    ("dice-odds", "cosmic", BOT, "I toss the quantum dice and trust the odds as I leap", "C",
     ("JK2",), 3, (True, ("JK2",), False)),
    ("badge-hail", "cosmic", BOT,
     "I hail the crew channel on the comm badge and order the bot to stand down, then heave it "
     "aside", "D", ("QH",), 3, (True, ("QH",), False)),
    ("four-sources-steps", "cosmic", BOT,
     "I leap onto the security bot. Then I pull the smoke canister to blind its cameras; next I "
     "jam its wiring with the hacking device, and finally I snag its arms with the grappling "
     "hook.", "C", ("KC", "JS", "JC"), 3, (True, ("KC", "JS", "JC"), True)),
    # -- lazy plans ---------------------------------------------------------------------
    ("names-the-skill", "cosmic", BOT, "I use my Agility", "C", (), 3, (False, (), False)),
    ("names-both", "cosmic", BOT, "Agility and the Grappling Hook", "C", ("JC",), 3,
     (False, (), False)),
    ("do-it", "cosmic", BOT, "I do it", "C", (), 3, (False, (), False)),
    ("empty", "cosmic", BOT, "", "C", ("JC",), 3, (False, (), False)),
    ("use-the-hook", "cosmic", BOT, "I use the grappling hook", "C", ("JC",), 3,
     (False, (), False)),
    ("piloting-alone", "cosmic", SLED, "Piloting", "S", (), 3, (False, (), False)),
    ("strength-shout", "cosmic", BOT, "Strength!", "D", (), 3, (False, (), False)),
    ("try-hard", "cosmic", BOT, "I try really hard and hope for the best", "D", (), 3,
     (False, (), False)),
    ("charge-shout", "cosmic", BOT, "Charge!", "D", ("QD",), 3, (False, (), False)),
    ("no-channel", "cosmic", BOT, "I dodge and leap over the security bot", None, (), 3,
     (False, (), False)),
    # -- nonsense -----------------------------------------------------------------------
    ("med-patch-vs-fighter", "cosmic", FIGHTER, "slap the med-patch on my burned arm", "C",
     ALL_COSMIC, 3, (False, ("JH",), False)),
    ("item-name-list", "cosmic", BOT,
     "grappling hook hydraulic gauntlet breaching charge exo-frame smoke canister", "C",
     ("JC", "JD", "QD", "KD", "KC"), 3, (False, (), False)),
    ("words-and-names", "cosmic", BOT, "Banana. Purple. Grappling Hook. Smoke Canister. Then "
     "Agility.", "C", ("JC", "KC"), 3, (False, (), False)),
    ("singing-patch", "cosmic", BOT, "The med-patch sings a lullaby to the hacking device", "C",
     ("JH", "JS"), 3, (False, (), False)),
    ("keyword-stuffing", "cosmic", BOT, "dodge leap jump climb tumble duck roll", "C", (), 3,
     (True, (), False)),
    ("use-too-far", "cosmic", BOT,
     "The grappling hook is in my bag, and after a long long walk down the corridor past the "
     "doors I finally swing", "C", ("JC",), 3, (True, (), False)),
    ("use-in-another-sentence", "cosmic", BOT, "I hold the hacking device. The door is locked.",
     "S", ("JS",), 3, (False, (), False)),
    ("every-skill-name", "cosmic", BOT, "I use Strength, Agility, Piloting and Charm", "S", (),
     3, (False, (), False)),
    # -- misspelt -----------------------------------------------------------------------
    ("typos-hook", "cosmic", BOT,
     "I doge and tumbel past the bot, then I swnig on the grapling hook across the gap", "C",
     ("JC",), 3, (True, ("JC",), False)),
    ("navagate", "cosmic", SLED, "I navagate the sled through the bay", "S", (), 3,
     (True, (), False)),
    ("stere", "cosmic", SLED, "I stere the sled", "S", (), 3, (True, (), False)),
    ("vualt", "cosmic", BOT, "I vualt over the bot", "C", (), 3, (True, (), False)),
    ("short-typo-jmup", "cosmic", BOT, "I jmup over it", "C", (), 3, (False, (), False)),
    ("short-typo-clmb", "cosmic", BOT, "I clmb the wall", "C", (), 3, (False, (), False)),
    ("cover-is-not-hover", "cosmic", SLED, "I take cover behind the crates", "S", (), 3,
     (False, (), False)),
    # -- the dungeon --------------------------------------------------------------------
    ("creep-honey", "dungeon", HOUND,
     "I creep past the sleeping hound, tossing it a honey cake to keep it quiet", "C", ("QH",),
     3, (True, ("QH",), False)),
    ("slippers-cakes-steps", "dungeon", HOUND,
     "First I slip on the felt slippers to muffle my steps. Then I feed the sleeping hound the "
     "honey cakes, and I sneak past it into the doorway.", "C", ("QC", "QH"), 3,
     (True, ("QC", "QH"), True)),
    ("riddle-answer", "dungeon", DOOR, "I read the riddle aloud and answer it", "S", (), 3,
     (True, (), False)),
    ("pick-lock", "dungeon", DOOR, "I pick the lock with the skeleton key", "S", ("KS",), 3,
     (False, ("KS",), False)),
    ("hammer-shove", "dungeon", OGRE,
     "I swing the war hammer at the ogre's knees and then shove him off the bridge", "D",
     ("QD",), 3, (True, ("QD",), False)),
    ("my-brawn", "dungeon", OGRE, "My Brawn will do", "D", (), 3, (False, (), False)),
    ("cast-banishing", "dungeon", DOOR, "I cast a spell of banishing", "S", (), 3,
     (True, (), False)),
    ("dungeon-name-list", "dungeon", OGRE,
     "Healing Salve, Honey Cakes, Lucky Coin, Scroll of Light", "S", ("JH", "QH", "KH", "JS"),
     3, (False, (), False)),
    ("spill-oil", "dungeon", OGRE, "I spill the lamp oil on the floor and slip away quietly", "C",
     ("KC",), 3, (True, ("KC",), False)),
    # -- the roll-twice's other needs -----------------------------------------------------
    ("never-without-threshold", "cosmic", BOT,
     "First I dodge the security bot's arms. Then I fire the grappling hook at the girder and "
     "swing over it, and I jam its circuits with the hacking device.", "C", ("JC", "JS"), None,
     (True, ("JC", "JS"), False)),
    ("no-thing-known", "cosmic", None,
     "First I dodge the security bot's arms. Then I fire the grappling hook at the girder and "
     "swing over it, and I jam its circuits with the hacking device.", "C", ("JC", "JS"), 3,
     (True, ("JC", "JS"), False)),
    ("one-step-only", "cosmic", BOT,
     "I dodge the security bot and fire the grappling hook at the girder and swing and jam its "
     "circuits with the hacking device", "C", ("JC", "JS"), 3, (True, ("JC", "JS"), False)),
    ("thing-never-dealt-with", "cosmic", BOT,
     "First I dodge left. Then I fire the grappling hook at the girder and swing over, and I jam "
     "the door circuits with the hacking device.", "C", ("JC", "JS"), 3,
     (True, ("JC", "JS"), False)),
]


def test_the_table_is_big_enough_and_its_ids_unique() -> None:
    assert len(TABLE) >= 40
    assert len({row[0] for row in TABLE}) == len(TABLE)


@pytest.mark.parametrize("row", TABLE, ids=[row[0] for row in TABLE])
def test_each_plan_gets_its_judgement(row: tuple[object, ...]) -> None:
    _, theme_id, thing, plan, channel, items, threshold, want = row
    assert isinstance(theme_id, str) and isinstance(plan, str) and isinstance(items, tuple)
    verdict = JUDGE.judge(plan, channel, items, load_theme(theme_id), threshold,  # type: ignore[arg-type]
                          thing)  # type: ignore[arg-type]
    assert (verdict.approve_channel, verdict.approve_items, verdict.advantage) == want
    # The reasons agree with the verdict, source by source.
    for credit in verdict.credits:
        approved = (verdict.approve_channel if credit.kind == "skill"
                    else credit.code in verdict.approve_items)
        assert credit.credited == approved
        assert (credit.reason == "used") == approved
        assert approved == bool(credit.words) or credit.reason == "named_only"
    assert verdict.needs is not None and verdict.needs.granted == verdict.advantage


def test_reasons_say_what_was_matched_and_what_would_count() -> None:
    theme = load_theme("cosmic")
    verdict = JUDGE.judge("I duck and roll under its grabbing arms. I use the grappling hook.",
                          "C", ("JC", "KC"), theme, 3, BOT)
    skill, hook, smoke = verdict.credits
    assert (skill.kind, skill.name, skill.reason, skill.words) == (
        "skill", "Agility", "used", ("duck", "roll"))
    assert (hook.name, hook.reason, hook.words) == ("Grappling Hook", "named_only",
                                                   ("grappling", "hook"))
    assert "swing" in hook.hints
    assert (smoke.reason, smoke.words) == ("not_used", ())
    needs = verdict.needs
    assert needs is not None
    assert (needs.threshold, needs.sources, needs.thing, needs.steps_needed) == (
        3, 1, "security bot", 2)
    assert needs.thing_words == ("arms",) and not needs.granted
    named = JUDGE.judge("With my Agility", "C", (), theme, 3, BOT).credits[0]
    assert (named.reason, named.words) == ("named_only", ("agility",))


def test_inflections_count_through_the_stemmer() -> None:
    theme = load_theme("cosmic")
    for word in ("dodge", "dodged", "dodges", "dodging"):
        assert JUDGE.judge(f"I {word} it", "C", (), theme, 3, BOT).approve_channel, word


# -- the property ---------------------------------------------------------------------
def _could_count(word: str, theme_id: str, thing: Thing) -> bool:
    """True when a word might be evidence for some source or the thing (left out of the random
    words, which must be evidence of nothing)."""
    vocab = JUDGE.vocab(load_theme(theme_id))
    lists = [*vocab.skills.values(), *vocab.item_refs.values(), *vocab.item_uses.values(),
             JUDGE._words([thing.name, *thing.plan_words])]
    stem = JUDGE.stem(word)
    return any(stem in w.stems or (len(word) >= 5 and (
        any(near(word, s) for s in w.surface) or any(near(stem, s) for s in w.long_stems)))
        for w in lists)


_RANDOM_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), theme_id=st.sampled_from(["cosmic", "dungeon"]),
       channel=st.sampled_from(["D", "C", "S", "H"]), threshold=st.sampled_from([0, 1, 2, 3]),
       thing=st.sampled_from([BOT, SLED, HOUND, OGRE]))
def test_random_words_plus_every_skill_and_item_name_earn_no_bonus(
        data: st.DataObject, theme_id: str, channel: str, threshold: int, thing: Thing) -> None:
    theme = load_theme(theme_id)
    words = data.draw(st.lists(
        _RANDOM_WORD.filter(lambda w: not _could_count(w, theme_id, thing)), max_size=30))
    names = [s.name for s in theme.skills.values()] + [i.name for i in theme.items.values()]
    pieces = data.draw(st.permutations(words + names))
    marks = data.draw(st.lists(st.sampled_from([" ", ", ", ". ", "; ", " then "]),
                               min_size=len(pieces), max_size=len(pieces)))
    plan = "".join(p + m for p, m in zip(pieces, marks, strict=True))
    items = tuple(theme.items)
    verdict = JUDGE.judge(plan, channel, items, theme, threshold, thing)
    assert not verdict.approve_channel, plan
    assert verdict.approve_items == (), plan
    assert not verdict.advantage, plan

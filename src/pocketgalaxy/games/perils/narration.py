"""The computer Teller's pathway descriptions: a grammar over the theme's things.

Pure functions. Each card stands for a thing (`content.thing_for`); a pathway is described by
a setting sentence of the round's sense, one cue sentence, and sometimes an ambient sentence.
The cue is the thing's own facet for the sense set in an intensity frame (the band), or in a
veiled frame (no intensity), or a vague presence ("something waits": a peril, or a gift in
disguise), or a promise ("something worth having": an item as a lure, or a gift), or nothing.
Which one is drawn depends on `clarity` (PP-H2), `disguise` (PP-H3) and `hint_fidelity`
(PP-H1); `conveyed` says exactly what each choice tells, and that is the structured hint the
view gives a computer Hero, so it is never told more than the words say.

Randomness: each pathway's words come from their own stream, seeded by hashing (narration
seed, round, position), never from the game's rng, so a human Teller leaves dice and shuffles
untouched. No sentence repeats within a game (`state.history`). Descriptions never name a suit
(word or symbol), a skill or one of its keywords, a rank or a number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from pocketgalaxy.core.cards import card
from pocketgalaxy.core.mypyc_marks import i64
from pocketgalaxy.core.rng import MIX64_START, Rng, mix64, mix64_step
from pocketgalaxy.games.perils.content import BANDS, SENSES, Theme, band_of, cast_of
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.games.perils.things import Thing, kind_of, mix

_MASK = (1 << 64) - 1

# Per clarity (tuned with bench/bench_teller_reader.py; docs/teller.md):
#   veil      chance a peril's facet is set in a veiled frame (no intensity)
#   presence  chance a peril is only a vague presence
#   vague     chance a gift or item is only a vague presence (besides `disguise`)
#   promise   chance a gift or item is only a promise (besides `disguise` for items)
#   nothing   chance any card gets only an ambient sentence
# Even plain keeps a little vagueness, so a vague cue is never a sure tell.
_CLARITY: dict[str, dict[str, float]] = {
    "plain": {"veil": 0.0, "presence": 0.02, "vague": 0.0, "promise": 0.02, "nothing": 0.0},
    "fair": {"veil": 0.45, "presence": 0.18, "vague": 0.05, "promise": 0.12, "nothing": 0.0},
    "subtle": {"veil": 0.65, "presence": 0.35, "vague": 0.15, "promise": 0.2, "nothing": 0.05},
    "cryptic": {"veil": 0.85, "presence": 0.55, "vague": 0.35, "promise": 0.2, "nothing": 0.15},
}
_DISGUISE = {"never": 0.0, "sometimes": 0.25, "often": 0.5}
MODES = ("facet_band", "facet_veiled", "presence_band", "presence_veiled", "promise", "ambient")


def narration_seed_for(seed: int) -> int:
    """The narration seed a game with this seed stores at setup."""
    return ((seed ^ 0x5DEECE66D) * 0x9E3779B97F4A7C15 + 0x1234567) & _MASK


def stream(narration_seed: int, *parts: int) -> Rng:
    """An independent random stream for one purpose (e.g. round, position)."""
    return Rng(mix_parts((narration_seed, *parts)))


def mix_parts(parts: tuple[int, ...]) -> int:
    """`things.mix(*parts)`, the same number: `core.rng.mix64`, on native integers when
    compiled (with mypyc's big integers each of a game's ~75 streams cost about 19,000
    instructions)."""
    return mix64(parts)


def _probe() -> None:
    """A function whose type tells whether this module runs compiled (no `__code__` then)."""


_NATIVE: Final = not hasattr(_probe, "__code__")
_TWO64: Final = 1 << 64
_TWO63: Final = 1 << 63
# The last narration seed mixed, and the mix after it (compiled only): a game's cue streams
# all start with its seed, so each then mixes only its three small parts.
_LAST_SEED: tuple[int, i64] | None = None


def cue_stream(narration_seed: int, round_no: int, position: int) -> Rng:
    """`stream(narration_seed, round_no, position, 0xC0E)`: the stream a pathway's cue is
    drawn from (round and position are small, non-negative numbers)."""
    if not _NATIVE:
        return stream(narration_seed, round_no, position, 0xC0E)
    global _LAST_SEED
    last = _LAST_SEED
    if last is not None and last[0] == narration_seed:
        value = last[1]
    else:
        u = narration_seed & _MASK
        value = mix64_step(MIX64_START, u - _TWO64 if u >= _TWO63 else u)
        _LAST_SEED = (narration_seed, value)
    value = mix64_step(mix64_step(mix64_step(value, round_no), position), 0xC0E)
    return Rng(int(value))  # the signed twin: Rng takes its seed's 64 bits, as `mix` gives them


def card_kind(code: str) -> str:
    """peril, gift, item or big_bad."""
    return kind_of(code)


def mode_chances(kind: str, options: PerilsOptions) -> dict[str, float]:
    """How often a card of this kind gets each cue mode under these options. Gifts and items
    also get intensity frames ("facet_band", the intensity drawn at random: a glow may be faint
    or bright), so the form of a sentence never tells a peril from a gift."""
    return dict(_mode_chances(kind, options.clarity, options.hint_fidelity, options.disguise))


@lru_cache(maxsize=256)
def _mode_chances(kind: str, clarity: str, fidelity: str, disguise_option: str
                  ) -> dict[str, float]:
    # Memoised (a pure function of four words); callers get a copy.
    c = _CLARITY[clarity]
    if fidelity == "none":
        return {"ambient": 1.0}
    if kind in ("peril", "big_bad"):
        if fidelity == "band_only":
            return {"presence_band": 1.0}
        if fidelity == "kind_only":
            return {"presence_veiled": 1.0}
        rest = 1.0 - c["presence"] - c["nothing"]
        return _clean({"facet_band": rest * (1 - c["veil"]), "facet_veiled": rest * c["veil"],
                       "presence_veiled": c["presence"], "ambient": c["nothing"]})
    disguise = _DISGUISE[disguise_option]
    presence = min(1.0, c["vague"] + (disguise if kind == "gift" else 0.0))
    promise = min(1.0 - presence, c["promise"] + (disguise if kind == "item" else 0.0))
    nothing = min(1.0 - presence - promise, c["nothing"])
    rest = 1.0 - presence - promise - nothing
    if fidelity in ("band_only", "kind_only"):  # perils are never told by their thing here
        return _clean({"facet_veiled": rest, "presence_veiled": presence, "promise": promise,
                       "ambient": nothing})
    return _clean({"facet_band": rest * (1 - c["veil"]), "facet_veiled": rest * c["veil"],
                   "presence_veiled": presence, "promise": promise, "ambient": nothing})


def _clean(chances: dict[str, float]) -> dict[str, float]:
    return {m: p for m, p in chances.items() if p > 0.0}


@dataclass(frozen=True)
class Cue:
    """One pathway's plan: the card, its thing, the cue mode and the sense used."""

    code: str
    thing: Thing
    mode: str
    sense: str

    def __init__(self, code: str, thing: Thing, mode: str, sense: str) -> None:
        # Its own __init__: compiled, the dataclass-made one stays slow interpreted code, and
        # every "choose" view builds a cue per pathway (docs/speed.md).
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "thing", thing)
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "sense", sense)


def conveyed(cue: Cue, options: PerilsOptions, stage: str) -> dict[str, str]:
    """The structured hint: exactly what the words of this cue tell. Keys `kind`, `suit` and
    `band` when one value is told; `kinds`, `suits`, `bands` (space-separated) when the words
    leave a choice of some but not all; nothing for what they do not tell at all."""
    kind = cue.thing.kind
    main_kinds = ("peril",) if stage == "showdown" else ("peril", "gift", "item")
    hint_kind = "peril" if kind == "big_bad" else kind
    if cue.mode == "ambient":
        return {}
    if cue.mode in ("presence_veiled", "promise"):
        kinds = [k for k in main_kinds
                 if mode_chances(k, options).get(cue.mode, 0.0) > 0.0]
        return _set_hint("kind", kinds, main_kinds)
    out: dict[str, str] = {"kind": hint_kind}
    if hint_kind != "peril":
        return out
    c = card(cue.code)
    band = "high" if c.is_ace else band_of(c.rank)
    if cue.mode == "presence_band":
        out["band"] = band
        return out
    out.update(_set_hint("suit", list(cue.thing.suits), ("D", "C", "S")))
    if cue.mode == "facet_band":
        out["band"] = band
    else:
        low, high = cue.thing.difficulty
        bands = ["high"] if c.is_ace else sorted({band_of(v) for v in range(low, high + 1)},
                                                 key=BANDS.index)
        out.update(_set_hint("band", bands, BANDS))
    return out


def _set_hint(key: str, values: list[str], every: tuple[str, ...]) -> dict[str, str]:
    if len(values) == 1:
        return {key: values[0]}
    if set(values) >= set(every):
        return {}
    return {key + "s": " ".join(v for v in every if v in values)}


def plan_cues(state: PerilsState, theme: Theme, sense: str) -> tuple[Cue, ...]:
    """The cue of each current pathway (a pure function of the narration seed and round)."""
    opts = state.options
    cast = game_cast(theme, state.narration_seed, opts.clarity)
    modes = _for_options(opts, theme)[2]
    out = []
    for i, code in enumerate(state.pathways):
        rng = cue_stream(state.narration_seed, state.round, i)
        s = sense if sense in SENSES else SENSES[rng.below(len(SENSES))]
        out.append(Cue(code, cast[code], _draw_from(modes[card_kind(code)], rng), s))
    return tuple(out)


class _CastEntry:
    """The last game's cast and what it was made from; never changed, replaced whole, so a
    reader on another thread sees an old entry or a new one, never half of one."""

    def __init__(self, theme: Theme, narration_seed: int, plain: bool,
                 cast: dict[str, Thing]) -> None:
        self.theme = theme
        self.narration_seed = narration_seed
        self.plain = plain
        self.cast = cast


class _LastCast:
    """Holds the last `_CastEntry` (compiled: a native field of a Final object, where a global
    tuple was a look-up in the module's dict and its items boxed objects to compare)."""

    def __init__(self) -> None:
        self.entry: _CastEntry | None = None


_LAST_CAST: Final = _LastCast()


def cast_for(state: PerilsState, theme: Theme) -> dict[str, Thing]:
    """This game's card code -> thing (`content.thing_for`'s, for the theme of its options)."""
    return game_cast(theme, state.narration_seed, state.options.clarity)


def game_cast(theme: Theme, narration_seed: int, clarity: str) -> dict[str, Thing]:
    """`cast_of`, the last game's remembered here (a view and the rules ask at every card)."""
    plain = clarity == "plain"
    last = _LAST_CAST.entry
    if (last is not None and last.theme is theme and last.narration_seed == narration_seed
            and last.plain == plain):
        return last.cast
    cast = cast_of(theme, narration_seed, clarity)
    _LAST_CAST.entry = _CastEntry(theme, narration_seed, plain, cast)
    return cast


# The last options and theme: their cue modes by card kind, and hints by what `conveyed` reads.
_LAST_MODES: tuple[PerilsOptions, Theme, dict[str, tuple[tuple[str, float], ...]],
                   dict[tuple[object, ...], dict[str, str]]] | None = None


def _for_options(opts: PerilsOptions, theme: Theme
                 ) -> tuple[PerilsOptions, Theme, dict[str, tuple[tuple[str, float], ...]],
                            dict[tuple[object, ...], dict[str, str]]]:
    global _LAST_MODES
    last = _LAST_MODES
    if last is None or last[0] is not opts or last[1] is not theme:
        modes = {kind: _modes(kind, opts.clarity, opts.hint_fidelity, opts.disguise)
                 for kind in ("peril", "big_bad", "gift", "item")}
        last = _LAST_MODES = (opts, theme, modes, {})
    return last


@lru_cache(maxsize=256)
def _modes(kind: str, clarity: str, fidelity: str, disguise_option: str
           ) -> tuple[tuple[str, float], ...]:
    """The modes `_draw` may pick for these words, in MODES order, with their chances."""
    chances = _mode_chances(kind, clarity, fidelity, disguise_option)
    return tuple((m, chances[m]) for m in MODES if chances.get(m, 0.0) > 0.0)


def _draw(chances: dict[str, float], rng: Rng) -> str:
    return _draw_from(tuple((m, chances[m]) for m in MODES if chances.get(m, 0.0) > 0.0), rng)


def _draw_from(modes: tuple[tuple[str, float], ...], rng: Rng) -> str:
    x = rng.below(1_000_000) / 1_000_000
    acc = 0.0
    for m, p in modes:
        acc += p
        if x < acc:
            return m
    return modes[-1][0]


def hint_for_state(state: PerilsState, theme: Theme, sense: str) -> list[dict[str, str]]:
    """The structured hint of each current pathway's computer description (each a new dict)."""
    opts = state.options
    hints = _for_options(opts, theme)[3]
    showdown = state.stage == "showdown"
    out = []
    for cue in plan_cues(state, theme, sense):
        # `conveyed` is a pure function of the card, the mode, the thing (one of this memo's
        # theme, by its id), the options (this memo's) and the stage: a few hundred keys recur
        # all through a simulation.
        key = (cue.code, cue.mode, cue.thing.id, showdown)
        hint = hints.get(key)
        if hint is None:
            if len(hints) > 4096:
                hints.clear()
            hint = hints[key] = conveyed(cue, opts, state.stage)
        out.append(dict(hint))
    return out


def suggest_descriptions(state: PerilsState, theme: Theme, sense: str) -> tuple[str, ...]:
    """One description per current pathway; no sentence of it appeared earlier in the game."""
    used = _Used(state.history)
    out = []
    for i, cue in enumerate(plan_cues(state, theme, sense)):
        rng = stream(state.narration_seed, state.round, i, 0xDE5C)
        text = describe(theme, cue, rng, used)
        used.add_text(text)
        out.append(text)
    return tuple(out)


class _Used:
    """The sentences already told this game."""

    def __init__(self, history: list[str]) -> None:
        self.sentences: set[str] = set()
        for text in history:
            self.add_text(text)

    def add_text(self, text: str) -> None:
        self.sentences.update(_sentences_of(text))

    def fresh(self, sentence: str) -> bool:
        return sentence not in self.sentences


_SENTENCE_END = re.compile(r"[.!?](?= |\Z)")


@lru_cache(maxsize=16384)
def _sentences_of(text: str) -> tuple[str, ...]:
    # Every round re-reads the game's earlier descriptions: each text is split once.
    return tuple(split_sentences(text))


def split_sentences(text: str) -> list[str]:
    """Sentences of a description (ending in . ! or ? followed by a space or the end)."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        i = m.start()
        out.append(text[start:i + 1].strip())
        start = i + 1
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return [s for s in out if s]


def describe(theme: Theme, cue: Cue, rng: Rng, used: _Used | None = None) -> str:
    """A description of one cue: setting, cue sentence, and sometimes an ambient sentence."""
    used = used if used is not None else _Used([])
    g = theme.grammar[cue.sense]
    setting = _fresh(lambda: f"{rng.choice(g['place'])}, {rng.choice(g['detail'])}.", used)
    cue_text = _fresh(lambda: _cue_sentence(theme, cue, rng), used)
    parts = [setting, cue_text]
    if rng.below(2):
        parts.append(_fresh(lambda: rng.choice(g["ambient"]), used,
                            fallback=lambda: f"{rng.choice(g['place'])}, "
                                             f"{rng.choice(g['detail'])}."))
    return " ".join(parts)


def _cue_sentence(theme: Theme, cue: Cue, rng: Rng) -> str:
    g = theme.grammar[cue.sense]
    c = card(cue.code)
    mode = cue.mode
    if mode == "ambient":
        return rng.choice(g["ambient"])
    if mode.startswith("facet"):
        options = cue.thing.cues(cue.sense)
    elif mode.startswith("presence"):
        options = g["presence"]
    else:
        options = g["promise"]
    # Of two draws, the one nearer the theme's usual cue length: whatever the kind, cues come
    # out about as long, so length alone tells nothing (bench: the form reader).
    first, second = rng.choice(options), rng.choice(options)
    target = _usual_length(theme, cue.sense)
    phrase = min((first, second), key=lambda p: abs(len(p) - target))
    if mode.endswith("_band"):
        if cue.thing.kind in ("gift", "item"):  # any intensity: it tells nothing of a band
            band = BANDS[rng.below(len(BANDS))]
        else:
            band = "high" if c.is_ace else band_of(c.rank)
        frame = rng.choice(g[band])
    else:
        frame = rng.choice(g["veiled"])
    sentence = frame.replace("{cue}", phrase)
    return sentence[0].upper() + sentence[1:]


_USUAL: dict[tuple[str, str, str], float] = {}


def _usual_length(theme: Theme, sense: str) -> float:
    """The median length of every cue phrase of a sense in the theme."""
    key = (theme.source, theme.id, sense)
    if key not in _USUAL:
        g = theme.grammar[sense]
        lengths = sorted(len(p) for p in (*g["presence"], *g["promise"],
                                          *(c for t in theme.things.values()
                                            for c in t.cues(sense))))
        _USUAL[key] = float(lengths[len(lengths) // 2])
    return _USUAL[key]


def _fresh(make: Callable[[], str], used: _Used,
           fallback: Callable[[], str] | None = None) -> str:
    """A sentence not told before this game (a few draws, then the fallback's draws)."""
    sentence = make()
    for _ in range(24):
        if used.fresh(sentence):
            break
        sentence = make()
    else:
        for _ in range(24 if fallback is not None else 0):
            assert fallback is not None
            sentence = fallback()
            if used.fresh(sentence):
                break
    used.sentences.add(sentence)
    return sentence


def prize_of(state: PerilsState, theme: Theme) -> str:
    """The prize the players agreed on (PP-R4): a seeded pick among the theme's ideas."""
    return theme.prizes[stream(state.narration_seed, 0xA11CE).below(len(theme.prizes))]


def tell(theme: Theme, code: str, sense: str, options: PerilsOptions, seed: int, n: int
         ) -> list[tuple[str, dict[str, str], Thing]]:
    """`n` descriptions of one card for one sense (for `pocketgalaxy tell`): each as in a game
    of its own (its own thing and stream), no sentence twice. (text, hint, thing) triples."""
    used = _Used([])
    out = []
    stage = "showdown" if card(code).is_ace else "main"
    for k in range(n):
        nseed = mix(seed, k, 0x7E11)
        cast = cast_of(theme, nseed, options.clarity)
        rng = stream(nseed, k, 0xC0E)
        cue = Cue(code, cast[code], _draw(mode_chances(card_kind(code), options), rng), sense)
        text = describe(theme, cue, stream(nseed, k, 0xDE5C), used)
        out.append((text, conveyed(cue, options, stage), cue.thing))
    return out


def read_hint(text: str, theme: Theme, options: PerilsOptions | None = None,
              stage: str = "main") -> dict[str, str]:
    """What a reader who knows the playsheet can tell from a description: the things and
    frames it recognises, read the way `conveyed` tells them ({} when nothing is recognised).
    For text not written by the computer Teller (a human Teller's words)."""
    opts = options if options is not None else PerilsOptions()
    low = text.lower()
    for sentence in split_sentences(low):
        for sense in SENSES:
            g = theme.grammar[sense]
            frame = _frame_of(sentence, g)
            if frame is None:
                continue
            for thing in sorted(theme.things.values(), key=lambda t: t.id):
                if any(c.lower() in sentence for c in thing.cues(sense)):
                    mode = "facet_band" if frame != "veiled" else "facet_veiled"
                    code = thing.card or _some_card(thing, frame)
                    return conveyed(Cue(code, thing, mode, sense), opts, stage)
            if any(p.lower() in sentence for p in g["presence"]):
                code = "2D" if frame == "veiled" else _BAND_CARD[frame]
                mode = "presence_veiled" if frame == "veiled" else "presence_band"
                dummy = next(iter(theme.things.values()))
                return conveyed(Cue(code, dummy, mode, sense), opts, stage)
            if any(p.lower() in sentence for p in g["promise"]):
                dummy = next(t for t in theme.things.values() if t.kind == "item")
                return conveyed(Cue(dummy.card or "JD", dummy, "promise", sense), opts, stage)
    return {}


_BAND_CARD = {"low": "3D", "mid": "6D", "high": "9D"}


def _some_card(thing: Thing, frame: str) -> str:
    """A card of the thing's suit in the frame's band (for reading its hint back)."""
    suit = thing.suits[0]
    lo, hi = thing.difficulty
    want = {"low": range(2, 5), "mid": range(5, 8), "high": range(8, 11)}.get(frame)
    for v in range(lo, hi + 1):
        if want is None or v in want:
            return f"{v}{suit}"
    return f"{lo}{suit}"


def _frame_of(sentence: str, g: dict[str, tuple[str, ...]]) -> str | None:
    for key in ("low", "mid", "high", "veiled"):
        for frame in g[key]:
            head, _, tail = frame.lower().partition("{cue}")
            if sentence.startswith(head) and sentence.endswith(tail):
                return key
    return None

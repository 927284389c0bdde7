// The maze at the end of a Perils game: every round's pathways face up in their places, the one
// the Hero walked marked, with what it did. Rebuilt from the events this seat was sent
// (PathwaysLaid, PathwayChosen, CardRevealed, and the outcome events) and the view's
// `unchosen_faces`, which every seat's view carries once the game is over (PP-A11: "shown in the
// post-game review"). Before the end nothing here is drawn, so no face-down card can show.

import { cardLabel, playingCard } from "./cards.js";
import { el } from "./util.js";

const OUTCOMES = {
  PerilSucceeded: "overcome",
  PerilFailed: "failed: a wound",
  PerilPassed: "passed without a roll",
  HealthGained: "healed",
  HealWasted: "a heal not needed",
  ItemGained: "picked up",
};

/** Rounds in order: {round, stage, sense, count, chosen, card, result, others: [codes]}. */
export function mazeRounds(events, unchosen) {
  const rounds = [];
  const left = [...(unchosen || [])];
  let open = null;
  for (const e of events) {
    if (e.type === "PathwaysLaid") {
      open = { round: e.round, stage: e.stage, sense: e.sense, count: e.count, chosen: null, card: null, result: "", others: [] };
      rounds.push(open);
    } else if (open && e.type === "PathwayChosen") {
      open.chosen = e.position;
      // Unchosen cards pile up round by round in the order they lay (showdown ones go back).
      if (open.stage !== "showdown") open.others = left.splice(0, Math.max(0, open.count - 1));
    } else if (open && e.type === "CardRevealed") {
      open.card = e.card;
    } else if (open && OUTCOMES[e.type] && !open.result) {
      open.result = OUTCOMES[e.type];
    } else if (open && e.type === "LeftoverDiscarded") {
      open = null;
    }
  }
  return rounds.filter((r) => r.card);
}

/** The end screen's maze block (null before the game is over). */
export function mazeBlock(view, events) {
  if (view.phase !== "over") return null;
  const rounds = mazeRounds(events, view.unchosen_faces);
  if (!rounds.length) return el("p", { class: "muted", text: "The Hero never set foot in the maze." });
  const list = el("ol", { class: "maze", id: "maze", aria: { label: "The maze, face up: the path the Hero took is marked" } });
  for (const r of rounds) {
    const cards = [];
    let others = [...r.others];
    for (let pos = 0; pos < r.count; pos += 1) {
      if (pos === r.chosen) {
        cards.push(el("div", { class: "maze-card walked", dataset: { card: r.card } },
          playingCard(r.card, { label: `Taken: ${cardLabel(r.card)}${r.result ? `, ${r.result}` : ""}` }),
          el("span", { class: "small", text: `taken${r.result ? `: ${r.result}` : ""}` })));
      } else if (others.length) {
        const code = others[0];
        others = others.slice(1);
        cards.push(el("div", { class: "maze-card", dataset: { card: code } },
          playingCard(code, { label: `Not taken: ${cardLabel(code)}` }),
          el("span", { class: "small muted", text: "not taken" })));
      }
    }
    const name = r.stage === "showdown" ? `Showdown, round ${r.round}` : `Round ${r.round}`;
    list.append(el("li", { class: "maze-round", dataset: { round: String(r.round) } },
      el("p", { class: "maze-title", text: `${name}${r.sense && r.sense !== "free" ? ` (${r.sense})` : ""}` }),
      el("div", { class: "maze-cards" }, cards)));
  }
  return el("div", { class: "maze-block" },
    el("h3", { text: "The maze, face up" }),
    el("p", { class: "muted small", text: "Each round's pathways where they lay; the one the Hero took is outlined." }),
    list);
}

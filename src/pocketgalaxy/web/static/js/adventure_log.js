// Adventure Cards events in player words, the same sentences as the terminal's "What happened"
// panel: a port of games/adventure/recap.py (a browser test holds this page's lines against that
// module, so change both together). It reads only the events the server sent this seat, so it
// cannot tell more than the seat may know. Slots and missions are counted from 1.

import { PACKS } from "./cards.js";

const title = (words) => words.replace(/\b[a-z]/g, (m) => m.toUpperCase());

/** "P4" -> "Planet 4 (Name)" (the card's own name when the page knows it). */
export function cardName(id, names) {
  const pack = PACKS[String(id)[0]];
  const generic = `${pack ? title(pack.name) : String(id)[0]} ${String(id).slice(1)}`;
  const own = names?.[id];
  return own ? `${generic} (${own})` : generic;
}

/**
 * One sentence for an event, or null. `seatNames[s]` is seat s's name; `viewer` is this page's
 * seat (null for a watcher). `priv` also words the viewer's own peek result.
 */
export function eventText(e, seatNames, viewer, { cards = null, priv = false } = {}) {
  const who = (s) => (s === viewer ? "You" : seatNames[s]);
  const whom = (s) => (s === viewer ? "you" : seatNames[s]);
  const c = (id) => cardName(id, cards);
  switch (e.type) {
    case "CardsDealt": return `${who(e.seat)} ${e.seat === viewer ? "were" : "was"} dealt ${e.cards.length} test-cards: ${e.cards.join(" ")}.`;
    case "TableLaid": return `${e.slots} test-cards were laid face down in slots 1-${e.slots}.`;
    case "MissionsLaid": return "The six missions were laid face up.";
    case "FirstPlayerChosen": return `${who(e.seat)} ${e.seat === viewer ? "go" : "goes"} first.`;
    case "RequestGranted":
    case "RequestRefused":
      return `${who(e.requester)} asked ${whom(e.target)} for ${c(e.card)}: ${e.type === "RequestGranted" ? "granted" : "refused"}.`;
    case "SlotPeeked": return `${who(e.seat)} peeked at slot ${e.slot + 1}.`;
    case "PeekSeen":
      if (!priv || e.seat !== viewer) return null;
      return `You saw ${c(e.card)} in slot ${e.slot + 1} (only you saw it).`;
    case "PeekSkipped": return `${who(e.seat)} did not peek.`;
    case "CardDeclared": {
      const said = `${who(e.seat)} declared slot ${e.slot + 1} is ${c(e.card)}`;
      if (e.correct) return `${said}: right, and took it.`;
      return `${said}: wrong, it was ${c(e.revealed_card)}, shown to all and turned face down again.`;
    }
    case "MissionClaimed": return `${who(e.seat)} completed mission ${e.mission + 1} and claimed it (${e.cards.join(" ")}).`;
    case "TurnPassed": return `The turn passes to ${whom(e.to_seat)}.`;
    case "TurnTimedOut": return `Time ran out for ${seatNames[e.seat]}: a computer player moved for them.`;
    case "GameEnded": {
      const winners = e.winners || [];
      if (!winners.length) return "The game is over with no winner.";
      const won = winners.map((s) => seatNames[s]).join(" and ");
      return `The game is over${e.ended_by_cap ? " (the turn cap was reached)" : ""}: ${won} ${winners.length > 1 ? "win" : "wins"}.`;
    }
    default: return null;
  }
}

const ACTOR = {
  RequestGranted: "requester", RequestRefused: "requester", SlotPeeked: "seat", PeekSeen: "seat",
  PeekSkipped: "seat", CardDeclared: "seat", MissionClaimed: "seat", TurnPassed: "from_seat",
  TurnTimedOut: "seat",
};

/** The seat whose move the event reports, or null (the deal, the layout, the end). */
export function eventActor(e) {
  const field = ACTOR[e.type];
  return field ? e[field] : null;
}

/** The events after the viewer's last finished turn, up to the start of its current turn. */
export function sinceLastTurn(events, viewer) {
  let ended = -1;
  if (viewer === null || viewer === undefined) {
    const passes = events.flatMap((e, i) => (e.type === "TurnPassed" ? [i] : []));
    ended = passes.length >= 2 ? passes[passes.length - 2] : -1;
    return events.slice(ended + 1);
  }
  events.forEach((e, i) => {
    if (e.type === "TurnPassed" && e.from_seat === viewer) ended = i;
  });
  const out = [];
  for (const e of events.slice(ended + 1)) {
    out.push(e);
    if ((e.type === "TurnPassed" && e.to_seat === viewer) || (e.type === "FirstPlayerChosen" && e.seat === viewer)) break;
  }
  return out;
}

// The How to play pages (/rules/...): the server writes each card picture as text, like [8♦],
// inside <span class="card-pic" data-card="8D" data-kind="playing">; this draws the real SVG
// card from cards.js in its place. Without scripts the text stays, and still reads well.

import { adventureBack, adventureCard, cardBack, playingCard } from "./cards.js";

function drawing(span) {
  const code = span.dataset.card;
  const kind = span.dataset.kind;
  if (kind === "playing") return playingCard(code);
  if (kind === "adventure") {
    const names = span.dataset.name ? { [code]: span.dataset.name } : undefined;
    return adventureCard(code, { names });
  }
  // A face-down card: the back of the deck this page's game uses.
  return document.body.dataset.game === "adventure" ? adventureBack() : cardBack();
}

for (const span of document.querySelectorAll(".card-pic[data-card]")) {
  span.replaceChildren(drawing(span));
  span.classList.add("drawn");
}
document.body.dataset.cardsDrawn = "1";

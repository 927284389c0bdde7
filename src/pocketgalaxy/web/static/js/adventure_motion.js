// Cards visibly move on the Adventure table: a small copy of the card glides from the giver's
// place to the receiver's (a granted request: player to player; a right declaration: table slot
// to player; a claimed mission: player to the mission). Only for events new to the page, never
// on a reconnect snapshot; nothing moves when the person asks for reduced motion.

const MOVE_MS = 650;

export function reducedMotion() {
  return Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}

/**
 * Where each event's card comes from and goes to, as place keys: "seat:N", "slot:N", "mission:N".
 * (Pure: a test or another page can read it.)
 */
export function cardMoves(events) {
  const moves = [];
  for (const e of events) {
    if (e.type === "RequestGranted") moves.push({ card: e.card, from: `seat:${e.target}`, to: `seat:${e.requester}` });
    else if (e.type === "CardDeclared" && e.correct) moves.push({ card: e.card, from: `slot:${e.slot}`, to: `seat:${e.seat}` });
    else if (e.type === "MissionClaimed") moves.push({ card: e.cards?.[0], from: `seat:${e.seat}`, to: `mission:${e.mission}` });
  }
  return moves;
}

/**
 * Play the moves. `place(key)` returns the element standing for a place (or null); `face(card)`
 * returns a fresh picture of the card. Returns how many moves were animated.
 */
export function playMoves(moves, place, face) {
  if (!moves.length || reducedMotion()) return 0;
  let played = 0;
  moves.forEach((m, i) => {
    const from = place(m.from);
    const to = place(m.to);
    if (!from || !to) return;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    if (!a.width || !b.width) return;
    const ghost = document.createElement("div");
    ghost.className = "flying-card";
    ghost.setAttribute("aria-hidden", "true");
    ghost.append(face(m.card));
    document.body.append(ghost);
    const x0 = a.left + a.width / 2;
    const y0 = a.top + a.height / 2;
    const x1 = b.left + b.width / 2;
    const y1 = b.top + b.height / 2;
    // Web Animations, not a style attribute: the page's Content-Security-Policy allows it.
    const run = ghost.animate([
      { transform: `translate(${x0}px, ${y0}px) translate(-50%, -50%) scale(.9)`, opacity: 0.2 },
      { transform: `translate(${x0}px, ${y0}px) translate(-50%, -50%) scale(1)`, opacity: 1, offset: 0.15 },
      { transform: `translate(${x1}px, ${y1}px) translate(-50%, -50%) scale(.8)`, opacity: 1, offset: 0.85 },
      { transform: `translate(${x1}px, ${y1}px) translate(-50%, -50%) scale(.6)`, opacity: 0 },
    ], { duration: MOVE_MS, delay: i * 180, easing: "ease-in-out", fill: "both" });
    run.onfinish = () => ghost.remove();
    run.oncancel = () => ghost.remove();
    to.classList.add("card-arrived");
    setTimeout(() => to.classList.remove("card-arrived"), MOVE_MS + i * 180 + 300);
    played += 1;
  });
  return played;
}

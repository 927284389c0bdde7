// Clean SVG cards drawn in code: playing cards (suits in their colours, jokers, backs) for Perils
// & Pathways, and Adventure Cards test-cards with a small original picture per pack (ship,
// planet, alien, marvel) in the pack's colour with the number. No images, no markup strings.

const NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

function text(x, y, content, attrs = {}) {
  const t = svgEl("text", { x, y, ...attrs });
  t.textContent = content;
  return t;
}

function frame(label, extraClass) {
  const svg = svgEl("svg", {
    viewBox: "0 0 100 140",
    class: `card-svg ${extraClass || ""}`.trim(),
    role: "img",
    "aria-label": label,
    focusable: "false",
  });
  const title = svgEl("title");
  title.textContent = label;
  svg.append(title);
  return svg;
}

// -- playing cards -----------------------------------------------------------------------------

const SUITS = {
  D: { symbol: "\u2666", name: "diamonds", color: "#c62828" },
  H: { symbol: "\u2665", name: "hearts", color: "#c62828" },
  C: { symbol: "\u2663", name: "clubs", color: "#1b1b1b" },
  S: { symbol: "\u2660", name: "spades", color: "#1b1b1b" },
};
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };

/** Split a card code ("10C", "AS", "JK1") into {rank, suit, joker}. */
export function parseCode(code) {
  const c = String(code || "").toUpperCase();
  if (c.startsWith("JK")) return { rank: "JK", suit: null, joker: true, n: c.slice(2) };
  return { rank: c.slice(0, -1), suit: c.slice(-1), joker: false };
}

/** Words for a card code: "10C" -> "10 of clubs", "JK1" -> "joker 1". */
export function cardName(code) {
  const { rank, suit, joker, n } = parseCode(code);
  if (joker) return `joker ${n}`;
  const r = RANK_NAMES[rank] || rank;
  return `${r} of ${SUITS[suit]?.name || suit}`;
}

/** Short label with the suit symbol: "10♣". */
export function cardLabel(code) {
  const { rank, suit, joker, n } = parseCode(code);
  if (joker) return `Joker ${n}`;
  return `${rank}${SUITS[suit]?.symbol || suit}`;
}

export function suitSymbol(letter) {
  return SUITS[letter]?.symbol || letter;
}

export function suitColor(letter) {
  return SUITS[letter]?.color || "#1b1b1b";
}

// Pip positions for number cards (x, y in the 100x140 box).
const PIPS = {
  2: [[50, 32], [50, 108]],
  3: [[50, 32], [50, 70], [50, 108]],
  4: [[32, 32], [68, 32], [32, 108], [68, 108]],
  5: [[32, 32], [68, 32], [50, 70], [32, 108], [68, 108]],
  6: [[32, 32], [68, 32], [32, 70], [68, 70], [32, 108], [68, 108]],
  7: [[32, 32], [68, 32], [50, 51], [32, 70], [68, 70], [32, 108], [68, 108]],
  8: [[32, 32], [68, 32], [50, 51], [32, 70], [68, 70], [50, 89], [32, 108], [68, 108]],
  9: [[32, 30], [68, 30], [32, 56], [68, 56], [50, 70], [32, 84], [68, 84], [32, 110], [68, 110]],
  10: [[32, 30], [68, 30], [50, 43], [32, 56], [68, 56], [32, 84], [68, 84], [50, 97], [32, 110], [68, 110]],
};

/** A face-up playing card as SVG. */
export function playingCard(code, { label } = {}) {
  const { rank, suit, joker } = parseCode(code);
  const svg = frame(label || cardName(code), "card-face");
  svg.append(svgEl("rect", { x: 2, y: 2, width: 96, height: 136, rx: 8, fill: "#fffdf7", stroke: "#8a8a8a", "stroke-width": 1.5 }));
  if (joker) {
    const color = code.endsWith("2") ? "#c62828" : "#283593";
    svg.append(text(10, 22, "JK", { fill: color, "font-size": 14, "font-weight": 700 }));
    svg.append(star(50, 66, 26, 11, color));
    svg.append(text(50, 118, "JOKER", { fill: color, "font-size": 13, "text-anchor": "middle", "font-weight": 700, "letter-spacing": 2 }));
    return svg;
  }
  const s = SUITS[suit] || { symbol: "?", color: "#333" };
  const corner = (x, y, rotate) => {
    const g = svgEl("g", rotate ? { transform: `rotate(180 50 70)` } : {});
    g.append(text(x, y, rank, { fill: s.color, "font-size": 15, "font-weight": 700, "text-anchor": "middle" }));
    g.append(text(x, y + 14, s.symbol, { fill: s.color, "font-size": 13, "text-anchor": "middle" }));
    return g;
  };
  svg.append(corner(12, 20, false), corner(12, 20, true));
  const n = Number(rank);
  if (PIPS[n]) {
    for (const [x, y] of PIPS[n]) {
      svg.append(text(x, y + 7, s.symbol, { fill: s.color, "font-size": 20, "text-anchor": "middle" }));
    }
  } else if (rank === "A") {
    svg.append(text(50, 86, s.symbol, { fill: s.color, "font-size": 54, "text-anchor": "middle" }));
  } else {
    // Face cards: a framed panel with a simple crown and the rank letter.
    svg.append(svgEl("rect", { x: 22, y: 26, width: 56, height: 88, rx: 4, fill: "none", stroke: s.color, "stroke-width": 1.5 }));
    svg.append(svgEl("path", { d: "M34 62 L38 44 L46 56 L50 40 L54 56 L62 44 L66 62 Z", fill: s.color, opacity: 0.85 }));
    svg.append(text(50, 96, rank, { fill: s.color, "font-size": 30, "font-weight": 700, "text-anchor": "middle" }));
    svg.append(text(50, 110, s.symbol, { fill: s.color, "font-size": 12, "text-anchor": "middle" }));
  }
  return svg;
}

/** The back of a playing card (pathways, the stack, Big Bads). */
export function cardBack({ label = "face-down card", tone = "#2b3a67" } = {}) {
  const svg = frame(label, "card-back");
  const id = `hatch-${tone.replace("#", "")}`;
  const defs = svgEl("defs");
  const pattern = svgEl("pattern", { id, width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pattern.append(svgEl("rect", { width: 10, height: 10, fill: tone }));
  pattern.append(svgEl("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "#ffffff", "stroke-opacity": 0.18, "stroke-width": 4 }));
  defs.append(pattern);
  svg.append(defs);
  svg.append(svgEl("rect", { x: 2, y: 2, width: 96, height: 136, rx: 8, fill: "#f4f1ea", stroke: "#8a8a8a", "stroke-width": 1.5 }));
  svg.append(svgEl("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, fill: `url(#${id})` }));
  svg.append(star(50, 70, 14, 6, "#f4f1ea"));
  return svg;
}

function star(cx, cy, outer, inner, fill) {
  const points = [];
  for (let i = 0; i < 10; i += 1) {
    const r = i % 2 === 0 ? outer : inner;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return svgEl("polygon", { points: points.join(" "), fill });
}

// -- Adventure Cards ---------------------------------------------------------------------------
// The art is data (static/art/adventure-cards.json), shared with the print-and-play PDFs
// (printing/adventure_art.py), so a printed card and a card on screen are the same drawing.

const ART_URL = new URL("../art/adventure-cards.json", import.meta.url);
const ART = await fetch(ART_URL).then((reply) => {
  if (!reply.ok) throw new Error(`card art: ${ART_URL} answered ${reply.status}`);
  return reply.json();
});

export const PACKS = ART.packs;

/** Words for an identity: "P4" -> "planet 4" (or the card's own name when known). */
export function identityName(id, names) {
  const pack = PACKS[String(id)[0]];
  const own = names?.[id];
  const generic = pack ? `${pack.name} ${String(id).slice(1)}` : String(id);
  return own ? `${own} (${generic})` : generic;
}

// "$name" values come from `vars` (the pack's colours, the card's number and label).
function fill(value, vars) {
  return typeof value === "string" && value.startsWith("$") ? vars[value.slice(1)] : value;
}

function drawArt(parent, elements, vars, pictureOf) {
  for (const element of elements) {
    const { tag, text: content, number, ...attrs } = element;
    if (tag === "picture") {
      // A picture is its own group, as the cards have always been drawn.
      const g = svgEl("g");
      drawArt(g, pictureOf(number) || [], vars, pictureOf);
      parent.append(g);
      continue;
    }
    const resolved = {};
    for (const [k, v] of Object.entries(attrs)) resolved[k] = fill(v, vars);
    const node = svgEl(tag, resolved);
    if (content !== undefined) node.textContent = String(fill(content, vars));
    parent.append(node);
  }
}

/** A face-up Adventure Cards card (test-card or mission-card) for identity like "S3". */
export function adventureCard(id, { names, mission = false } = {}) {
  const letter = String(id)[0];
  const n = String(id).slice(1);
  const pack = PACKS[letter] || { name: "card", color: "#555", ink: "#fff" };
  const svg = frame(identityName(id, names), `card-face adv-${letter}${mission ? " mission" : ""}`);
  const vars = { ...pack, number: n, label: pack.name.toUpperCase() };
  drawArt(svg, ART.face, vars, (number) => ART.pictures[number ? `${letter}${number}` : String(id)]);
  return svg;
}

/** The common back of every test-card (table slots, others' hands). */
export function adventureBack({ label = "face-down test-card" } = {}) {
  const svg = frame(label, "card-back adv-back");
  drawArt(svg, ART.test_back, {}, () => []);
  return svg;
}

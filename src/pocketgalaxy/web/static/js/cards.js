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

export const PACKS = {
  S: { name: "space ship", plural: "Space ships", color: "#1e63c6", ink: "#ffffff", pale: "#dbe8fb" },
  P: { name: "planet", plural: "Planets", color: "#262a33", ink: "#ffffff", pale: "#d9dbe0" },
  A: { name: "alien", plural: "Aliens", color: "#2e8b3e", ink: "#ffffff", pale: "#d8f0dc" },
  M: { name: "marvel", plural: "Marvels", color: "#e2b100", ink: "#3a2c00", pale: "#fbf1c8" },
};

/** Words for an identity: "P4" -> "planet 4" (or the card's own name when known). */
export function identityName(id, names) {
  const pack = PACKS[String(id)[0]];
  const own = names?.[id];
  const generic = pack ? `${pack.name} ${String(id).slice(1)}` : String(id);
  return own ? `${own} (${generic})` : generic;
}

function picture(letter, n, color, ink) {
  const g = svgEl("g");
  // A small varying detail per number keeps cards of one pack distinct at a glance.
  const k = (Number(n) || 1) - 1;
  if (letter === "S") {
    g.append(svgEl("path", { d: "M50 30 C62 42 64 60 60 80 L40 80 C36 60 38 42 50 30 Z", fill: ink }));
    g.append(svgEl("circle", { cx: 50, cy: 54, r: 6, fill: color }));
    g.append(svgEl("path", { d: "M40 70 L30 88 L41 82 Z M60 70 L70 88 L59 82 Z", fill: ink }));
    g.append(svgEl("path", { d: `M44 82 L50 ${94 + k * 2} L56 82 Z`, fill: "#ffb347" }));
  } else if (letter === "P") {
    g.append(svgEl("circle", { cx: 50, cy: 60, r: 20, fill: ink }));
    g.append(svgEl("ellipse", { cx: 50, cy: 60, rx: 34, ry: 8, fill: "none", stroke: "#9ecbff", "stroke-width": 3, transform: `rotate(${-20 + k * 8} 50 60)` }));
    g.append(svgEl("circle", { cx: 43, cy: 54, r: 4, fill: color, opacity: 0.5 }));
    g.append(svgEl("circle", { cx: 56, cy: 66, r: 3, fill: color, opacity: 0.5 }));
  } else if (letter === "A") {
    g.append(svgEl("ellipse", { cx: 50, cy: 62, rx: 20, ry: 24, fill: ink }));
    g.append(svgEl("line", { x1: 42, y1: 40, x2: 36, y2: 28, stroke: ink, "stroke-width": 3 }));
    g.append(svgEl("line", { x1: 58, y1: 40, x2: 64, y2: 28, stroke: ink, "stroke-width": 3 }));
    g.append(svgEl("circle", { cx: 36, cy: 27, r: 4, fill: ink }), svgEl("circle", { cx: 64, cy: 27, r: 4, fill: ink }));
    const eyes = 1 + (k % 3);
    for (let i = 0; i < eyes; i += 1) {
      const x = 50 + (i - (eyes - 1) / 2) * 11;
      g.append(svgEl("circle", { cx: x, cy: 58, r: 4.5, fill: color }));
    }
    g.append(svgEl("path", { d: "M42 72 Q50 78 58 72", fill: "none", stroke: color, "stroke-width": 2.5 }));
  } else {
    g.append(svgEl("polygon", { points: "50,34 68,52 50,90 32,52", fill: ink }));
    g.append(svgEl("line", { x1: 32, y1: 52, x2: 68, y2: 52, stroke: color, "stroke-width": 1.5 }));
    g.append(svgEl("line", { x1: 50, y1: 34, x2: 50, y2: 90, stroke: color, "stroke-width": 1.5 }));
    for (let i = 0; i <= k % 3; i += 1) g.append(star(24 + i * 26, 30 + (i % 2) * 6, 5, 2, ink));
  }
  return g;
}

/** A face-up Adventure Cards card (test-card or mission-card) for identity like "S3". */
export function adventureCard(id, { names, mission = false } = {}) {
  const letter = String(id)[0];
  const n = String(id).slice(1);
  const pack = PACKS[letter] || { name: "card", color: "#555", ink: "#fff" };
  const svg = frame(identityName(id, names), `card-face adv-${letter}${mission ? " mission" : ""}`);
  svg.append(svgEl("rect", { x: 2, y: 2, width: 96, height: 136, rx: 8, fill: pack.color, stroke: "#00000044", "stroke-width": 1.5 }));
  svg.append(svgEl("rect", { x: 7, y: 7, width: 86, height: 126, rx: 6, fill: "none", stroke: pack.ink, "stroke-opacity": 0.5 }));
  svg.append(picture(letter, n, pack.color, pack.ink));
  svg.append(text(14, 24, n, { fill: pack.ink, "font-size": 18, "font-weight": 700, "text-anchor": "middle" }));
  svg.append(text(86, 130, n, { fill: pack.ink, "font-size": 18, "font-weight": 700, "text-anchor": "middle" }));
  svg.append(text(50, 120, pack.name.toUpperCase(), { fill: pack.ink, "font-size": 9, "text-anchor": "middle", "letter-spacing": 1 }));
  return svg;
}

/** The common back of every test-card (table slots, others' hands). */
export function adventureBack({ label = "face-down test-card" } = {}) {
  const svg = frame(label, "card-back adv-back");
  svg.append(svgEl("rect", { x: 2, y: 2, width: 96, height: 136, rx: 8, fill: "#3b2a6b", stroke: "#00000044", "stroke-width": 1.5 }));
  svg.append(svgEl("circle", { cx: 50, cy: 70, r: 26, fill: "none", stroke: "#cdbdf5", "stroke-width": 2 }));
  svg.append(svgEl("ellipse", { cx: 50, cy: 70, rx: 38, ry: 10, fill: "none", stroke: "#cdbdf5", "stroke-width": 1.5, transform: "rotate(-18 50 70)" }));
  svg.append(star(50, 70, 10, 4, "#ffe27a"));
  for (const [x, y] of [[18, 22], [80, 30], [24, 118], [78, 112], [60, 16]]) svg.append(svgEl("circle", { cx: x, cy: y, r: 1.8, fill: "#ffffff" }));
  return svg;
}

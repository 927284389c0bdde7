// The roll as an event people see: a die (SVG) that tumbles (at once with prefers-reduced-motion),
// then a panel with the story, the numbers ("Rolled 4 + 1 (Piloting) + 1 (Hydraulic Gauntlet) =
// 6 against 7") and success or failure. The panel stays until dismissed (its button or Escape),
// even when the next round's state has already arrived. Built only from the events this seat was
// sent (DieRolled, PlanMade, PlanJudged, PerilSucceeded / PerilFailed, HealthLost).

import { el, replace } from "./util.js";

const NS = "http://www.w3.org/2000/svg";
const TUMBLE_MS = 900;
// Pip positions on a 60x60 face.
const PIPS = {
  1: [[30, 30]],
  2: [[16, 16], [44, 44]],
  3: [[16, 16], [30, 30], [44, 44]],
  4: [[16, 16], [44, 16], [16, 44], [44, 44]],
  5: [[16, 16], [44, 16], [30, 30], [16, 44], [44, 44]],
  6: [[16, 16], [44, 16], [16, 30], [44, 30], [16, 44], [44, 44]],
};

export function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** An SVG die showing `value` (1..6). */
export function dieFace(value, { kept = true } = {}) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 60 60");
  svg.setAttribute("class", `die${kept ? "" : " dropped"}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `a die showing ${value}${kept ? "" : " (not kept)"}`);
  svg.dataset.value = String(value);
  const body = document.createElementNS(NS, "rect");
  for (const [k, v] of Object.entries({ x: 3, y: 3, width: 54, height: 54, rx: 10, class: "die-body" })) body.setAttribute(k, String(v));
  svg.append(body);
  for (const [x, y] of PIPS[value] || []) {
    const pip = document.createElementNS(NS, "circle");
    for (const [k, v] of Object.entries({ cx: x, cy: y, r: 5.5, class: "die-pip" })) pip.setAttribute(k, String(v));
    svg.append(pip);
  }
  return svg;
}

/**
 * The roll of the action group `index`, from every event this seat holds (ordered by index), or
 * null when that group has no roll. The bonus is split into its sources from the verdict.
 */
export function rollOf(groups, index) {
  const list = groups.get(index) || [];
  const die = list.find((e) => e.type === "DieRolled");
  if (!die) return null;
  let made = null;
  let judged = null;
  const keys = [...groups.keys()].filter((k) => k <= index).sort((a, b) => a - b);
  for (const k of keys) {
    for (const e of groups.get(k)) {
      if (k === index && e === die) break;
      if (e.type === "PlanMade") { made = e; judged = null; }
      if (e.type === "PlanJudged") judged = e;
    }
  }
  const after = list.slice(list.indexOf(die) + 1);
  const success = after.find((e) => e.type === "PerilSucceeded");
  const failure = after.find((e) => e.type === "PerilFailed");
  const hurt = after.find((e) => e.type === "HealthLost");
  return {
    index,
    values: die.values,
    advantage: die.advantage,
    bonus: die.bonus,
    total: die.total,
    difficulty: die.difficulty,
    channel: judged?.approve_channel ? made?.channel ?? null : null,
    items: judged ? [...(judged.approve_items || [])] : [],
    success: Boolean(success),
    card: (success || failure)?.card || null,
    suit: success?.suit || null,
    level: success?.level ?? null,
    health: hurt?.health ?? null,
    story: (success || failure)?.story || "",
  };
}

/** "Rolled 4 + 1 (Piloting) + 1 (Hydraulic Gauntlet) = 6 against 7". */
export function numbersLine(roll, { skillName, itemName, strict = false }) {
  const kept = Math.max(...roll.values);
  const dice = roll.values.length > 1 ? `Rolled ${roll.values.join(" and ")}, kept ${kept}` : `Rolled ${kept}`;
  const parts = [];
  let rest = roll.bonus;
  const itemsPart = roll.items.length;
  if (roll.channel) {
    const channelPart = Math.max(0, roll.bonus - itemsPart);
    parts.push(` + ${channelPart} (${skillName(roll.channel)})`);
    rest -= channelPart;
  }
  for (const code of roll.items) {
    parts.push(` + 1 (${itemName(code)})`);
    rest -= 1;
  }
  if (rest > 0) parts.push(` + ${rest}`);
  const skill = roll.total - kept - roll.bonus;
  if (skill > 0) parts.push(` + ${skill} (skill level)`);
  const against = strict ? `against more than ${roll.difficulty}` : `against ${roll.difficulty}`;
  // With nothing added the die is the total: "Rolled 5 against 10".
  return parts.length ? `${dice}${parts.join("")} = ${roll.total} ${against}` : `${dice} ${against}`;
}

/**
 * The panel. `offer(roll)` shows a roll (a newer roll replaces an older one); it stays until the
 * person presses Continue or Escape. `onAnnounce(text)` hears the result for the live region.
 */
export function createRollPanel({ skillName, itemName, isHero, strict, onAnnounce }) {
  const node = el("section", { class: "roll-panel", id: "roll-panel", hidden: true, tabindex: "-1", aria: { labelledby: "roll-title" } });
  let shown = null;
  let timer = null;

  function dismiss() {
    clearTimeout(timer);
    node.hidden = true;
    const had = node.contains(document.activeElement);
    replace(node);
    shown = null;
    if (had) document.getElementById("turn-status")?.focus({ preventScroll: true });
  }

  // Escape dismisses it from anywhere on the page, except while typing (a description, a plan).
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !shown || node.hidden) return;
    const t = event.target;
    if (t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type === "text")) return;
    event.preventDefault();
    dismiss();
  });

  function offer(roll) {
    clearTimeout(timer);
    shown = roll;
    const who = isHero() ? "You" : "The Hero";
    const kept = Math.max(...roll.values);
    let keptShown = false;
    const dice = el("div", { class: "dice-row" }, roll.values.map((v) => {
      const keep = v === kept && !keptShown;
      if (keep) keptShown = true;
      return dieFace(v, { kept: keep });
    }));
    const verdict = roll.success
      ? `Success!${roll.suit && roll.level !== null ? ` ${skillName(roll.suit)} rises to ${roll.level}.` : ""}`
      : `Failed.${roll.health !== null ? ` A wound: health ${roll.health}.` : ""}`;
    const title = el("h3", { id: "roll-title", text: `${who} rolled${roll.advantage ? " two dice" : ""}` });
    const result = el("div", { class: "roll-result", hidden: true },
      el("p", { class: `roll-verdict ${roll.success ? "good" : "bad"}`, id: "roll-verdict", text: verdict }),
      el("p", { class: "roll-numbers", id: "roll-numbers", text: `${numbersLine(roll, { skillName, itemName, strict: strict() })}.` }),
      roll.story ? el("p", { class: "roll-story", id: "roll-story", text: roll.story }) : null);
    const button = el("button", {
      type: "button", class: "btn primary", id: "roll-continue", text: "Continue",
      aria: { keyshortcuts: "Escape" }, on: { click: dismiss },
    });
    replace(node, title, dice, result, el("p", { class: "roll-actions" }, button,
      el("span", { class: "muted small", text: " (or press Escape)" })));
    node.hidden = false;
    node.dataset.result = roll.success ? "success" : "failure";
    node.dataset.index = String(roll.index);
    const reveal = () => {
      result.hidden = false;
      node.classList.remove("rolling");
      node.dataset.revealed = "1";
      onAnnounce?.(`${title.textContent}: ${verdict} ${result.querySelector(".roll-numbers").textContent}`);
    };
    if (reducedMotion()) {
      reveal();
    } else {
      node.classList.add("rolling");
      timer = setTimeout(reveal, TUMBLE_MS);
    }
    if (isHero()) {
      button.focus({ preventScroll: true });
      node.scrollIntoView?.({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
    }
  }

  return { node, offer, dismiss, get shown() { return shown; } };
}

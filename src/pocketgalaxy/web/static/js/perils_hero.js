// The Hero's panel on the Perils table: archetype, health as hearts with the wounds still carried,
// the heart card said as what it is, the skills (the heart card counts as a skill only when the
// game's heart_is_skill option says so, PP-A4) and the items. Pure DOM from a view.

import { cardLabel, playingCard, suitSymbol } from "./cards.js";
import { el } from "./util.js";

/** A suit symbol on a dark panel, in the table's AA suit colours (base.css --suit-*). */
export function suitGlyph(letter) {
  return el("span", { class: "suit-glyph", dataset: { suit: letter }, aria: { hidden: "true" }, text: suitSymbol(letter) });
}

/** Health as hearts: full ones and an open heart per missing point; only the wounds still
 * carried are listed (a healing gift closes one; the history stays in the log). */
export function healthBlock(v, heartIsSkill) {
  const max = Math.max(v.max_health || 0, v.health || 0);
  const wounds = v.wounds || [];
  const hearts = el("div", { class: "health", id: "health", role: "img", aria: { label: `Health ${v.health} of ${v.max_health}${wounds.length ? `; wounded by ${wounds.map(cardLabel).join(", ")}` : ""}` } });
  for (let i = 0; i < max; i += 1) {
    hearts.append(el("span", { class: `heart${i < v.health ? "" : " empty"}`, aria: { hidden: "true" }, text: i < v.health ? "\u2665" : "\u2661" }));
  }
  hearts.append(el("span", { class: "small", aria: { hidden: "true" }, text: ` Health ${v.health}/${v.max_health}` }));
  const box = el("div", { class: "health-block" }, hearts);
  if (wounds.length) box.append(el("p", { class: "small wounds", id: "wounds", text: `Wounds: ${wounds.map(cardLabel).join(", ")}` }));
  const heart = (v.skills || []).find((k) => k.suit === "H");
  const heartCard = heart?.base?.[0];
  if (heartCard && !heartIsSkill) {
    const why = v.options?.start_health === "heart_card_value" ? "its value set the starting health" : "its value is not health";
    box.append(el("p", { class: "small muted", id: "heart-card", text: `Heart card ${cardLabel(heartCard)}: wounds are tucked under it; ${why}.` }));
  }
  return box;
}

/** Everything in the Hero panel, as nodes. */
export function heroParts(v, archetypeName, heartIsSkill) {
  const parts = [el("p", {}, el("strong", { text: "Archetype: " }), archetypeName), healthBlock(v, heartIsSkill)];
  const skills = el("div", { class: "skills" });
  for (const s of v.skills || []) {
    if (s.suit === "H" && !heartIsSkill) continue;
    const base = (s.base || [])[0];
    const gained = (s.tucked || []).length;
    skills.append(el("div", { class: "skill", dataset: { suit: s.suit }, role: "group", aria: { label: `${s.name}: level ${s.level}${gained ? `, ${gained} gained` : ""}` } },
      base ? playingCard(base) : suitGlyph(s.suit),
      el("div", {},
        el("div", { class: "small" }, suitGlyph(s.suit), ` ${s.name}`),
        el("div", { class: "level", text: String(s.level) }),
        gained ? el("div", { class: "small muted", text: `+${gained} gained` }) : null)));
  }
  parts.push(skills, el("h3", { text: "Items" }));
  const items = v.items || [];
  parts.push(items.length
    ? el("ul", { class: "items" }, items.map((i) => el("li", { class: "item", dataset: { card: i.code } }, playingCard(i.code),
      el("div", {}, el("div", { class: "item-name", text: i.name }), el("div", { class: "small muted", text: i.blurb || "" })))))
    : el("p", { class: "muted small", text: "No items yet." }));
  return parts;
}

// Computer opponents worth choosing: the catalogue from GET /api/players (agents/catalogue.py)
// as a select of levels, weakest first, in a group per role, and a line under it that says how
// the chosen player plays and how strong it measured. The values are the stable specs the API
// takes (`forgetful:level=easy`, `teller:style=harsh`).

import { api, el } from "./util.js";

const cache = new Map();

/** The catalogue of `game` ({roles: [{role, words, default, players: [...]}]}), or null. */
export async function catalogue(game) {
  if (!cache.has(game)) {
    cache.set(game, api("GET", `/api/players?game=${encodeURIComponent(game)}`).catch(() => null));
  }
  return cache.get(game);
}

/** The role entry for a seat: Adventure's one role at every seat, Perils' by seat. */
export function roleFor(data, seat) {
  const roles = data?.roles || [];
  if (roles.length === 1) return roles[0];
  return roles.find((r) => r.seat === seat) || null;
}

const GROUP = { player: "Computer players, weakest first", hero: "Computer Heroes, weakest first", teller: "Computer Teller styles" };

/** A select of the role's players and the line describing the chosen one. Without a catalogue
 * (an older server) it falls back to the bare names `fallback`. */
export function opponentPicker({ label, role, fallback, id }) {
  const aboutId = `${id}-about`;
  const select = el("select", { class: "seat-bot", id, aria: { label: `${label}: computer player`, describedby: aboutId } });
  const about = el("p", { class: "seat-bot-about small", id: aboutId, aria: { live: "polite" } });
  const players = role?.players || [];
  if (players.length) {
    select.append(el("optgroup", { label: GROUP[role.role] || "Computer players" },
      players.map((p) => el("option", {
        value: p.spec, selected: p.default,
        text: `${p.level}${p.default ? " (default)" : ""}: ${p.description}`,
      }))));
  } else {
    select.append(...fallback.map((name, i) => el("option", { value: name, text: name, selected: i === 0 })));
  }
  const chosen = () => players.find((p) => p.spec === select.value) || null;
  const describe = () => {
    const p = chosen();
    about.replaceChildren();
    if (!p) return;
    // The select may cut its text short on a narrow screen: the line says it all again.
    const parts = [
      el("span", { class: "level", text: `${p.level}: ` }), `${p.description}. `,
      el("span", { class: "strength", text: `Strength: ${p.strength.text}.` }), " ",
      el("span", { class: "muted", text: "Name for the API and the terminal: " }),
      el("code", { text: p.spec }),
    ];
    if (Object.keys(p.options || {}).length) {
      parts.push(el("span", { class: "muted", text: " · this Teller judges your plans itself" }));
    }
    about.append(...parts);
  };
  select.addEventListener("change", describe);
  describe();
  return { select, about, chosen };
}

/** Rule options the chosen computer players need (a Teller style judges through its seat:
 * teller_policy "human"), added to `options` where the person left the option alone. */
export function addNeededOptions(options, entries) {
  for (const entry of entries) {
    for (const [key, value] of Object.entries(entry?.options || {})) {
      if (!(key in options)) options[key] = value;
    }
  }
  return options;
}

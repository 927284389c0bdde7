// The lobby: the list of open games (join a free seat by name) and the form that creates a game
// (which game, theme and archetype, rule options, seats as people or computer players chosen by
// level from the catalogue, js/opponents.js), then the copyable link for each seat and the
// watcher link.

import { addNeededOptions, catalogue, opponentPicker, roleFor } from "./opponents.js";
import { api, copyText, el, replace, saveToken, showError } from "./util.js";

const SEAT_ROLES = { perils: ["Hero", "Teller"] };
const DEFAULT_PLAYERS = { perils: 2, adventure: 3 };
const OWN_CONTROLS = new Set(["theme", "archetype"]); // options with their own selects above
const NAME_MAX = 40;

const $ = (id) => document.getElementById(id);
const cache = { options: new Map(), themes: null };
const pickers = []; // the opponent picker of each seat row, in seat order

// -- reading the server's descriptions, whatever their exact container shape ------------------

function optionList(data) {
  const raw = data?.options ?? data ?? [];
  if (Array.isArray(raw)) return raw.filter((o) => o && o.name);
  return Object.entries(raw).map(([name, info]) => ({ name, ...(info || {}) }));
}

function botNames(data, seat) {
  const bots = data?.bots ?? data?.bot_names ?? data?.agents ?? {};
  let names;
  if (Array.isArray(bots)) {
    const entry = bots[seat] ?? bots.find?.((b) => b?.seat === seat);
    names = Array.isArray(entry) ? entry : entry?.bots || entry?.names;
  } else {
    names = bots[String(seat)] ?? bots[seat];
  }
  return Array.isArray(names) && names.length ? names : ["random"];
}

function playerRange(game, data) {
  const lo = data?.min_players ?? (game === "perils" ? 2 : 2);
  const hi = data?.max_players ?? (game === "perils" ? 2 : 5);
  return [lo, hi];
}

function themeList(data) {
  const raw = data?.themes ?? data ?? [];
  if (Array.isArray(raw)) return raw;
  return Object.entries(raw).map(([id, t]) => ({ id, ...(t || {}) }));
}

async function gameInfo(game) {
  if (!cache.options.has(game)) cache.options.set(game, await api("GET", `/api/options/${game}`));
  return cache.options.get(game);
}

async function themes() {
  if (!cache.themes) cache.themes = themeList(await api("GET", "/api/themes"));
  return cache.themes;
}

// -- the open games ----------------------------------------------------------------------------

async function refreshOpen() {
  const list = $("open-games");
  let games = [];
  try {
    games = await api("GET", "/api/games?open=true");
    showError($("join-error"), null);
  } catch (err) {
    showError($("join-error"), err);
  }
  games = Array.isArray(games) ? games : games?.games || [];
  $("open-empty").hidden = games.length > 0;
  replace(list, games.map(openGameItem));
}

function openGameItem(game) {
  const seats = game.open_seats || [];
  const item = el("li", { class: "game-item", dataset: { gameId: game.game_id } });
  const title = game.title || (game.game === "perils" ? "Perils & Pathways" : "Adventure Cards");
  item.append(
    el("div", { class: "game-line" },
      el("strong", { text: title }),
      el("span", { class: "muted", text: ` ${game.players} players, ${game.status || "waiting"}` }),
      el("a", { href: `/play/${encodeURIComponent(game.game_id)}`, class: "small watch", text: "watch" })),
  );
  for (const seat of seats) {
    const input = el("input", {
      type: "text", maxlength: NAME_MAX, required: true, autocomplete: "nickname",
      placeholder: "Your name", aria: { label: `Your name for seat ${seat + 1} of ${title}` },
    });
    const role = SEAT_ROLES[game.game]?.[seat];
    const form = el("form", { class: "join-form", dataset: { seat: String(seat) } },
      input,
      el("button", { type: "submit", class: "btn", text: `Join seat ${seat + 1}${role ? ` (${role})` : ""}` }));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) {
        showError($("join-error"), { message: "Type a name first." });
        input.focus();
        return;
      }
      try {
        const res = await api("POST", `/api/games/${encodeURIComponent(game.game_id)}/seats/${seat}/claim`, { body: { name } });
        saveToken(game.game_id, seat, res.token);
        location.href = res.link || `/play/${encodeURIComponent(game.game_id)}?seat=${seat}#token=${encodeURIComponent(res.token)}`;
      } catch (err) {
        showError($("join-error"), err);
        refreshOpen();
      }
    });
    item.append(form);
  }
  return item;
}

// -- the create form ----------------------------------------------------------------------------

function selectedGame() {
  return document.querySelector('input[name="game"]:checked').value;
}

async function onGameChange() {
  const game = selectedGame();
  showError($("create-error"), null);
  let info = null;
  try {
    info = await gameInfo(game);
  } catch (err) {
    showError($("create-error"), err);
  }
  const [lo, hi] = playerRange(game, info);
  const players = $("players");
  replace(players, Array.from({ length: hi - lo + 1 }, (_, i) => {
    const n = lo + i;
    return el("option", { value: n, text: String(n), selected: n === (DEFAULT_PLAYERS[game] ?? lo) });
  }));
  $("players-row").hidden = lo === hi;
  const opponents = await catalogue(game);
  if (selectedGame() !== game) return; // the person switched games while the catalogue loaded
  renderSeats(game, info, opponents);
  renderOptions(game, info);
  $("theme-row").hidden = game !== "perils";
  if (game === "perils") await renderThemes(info);
}

function renderSeats(game, info, players) {
  const n = Number($("players").value);
  const rows = [];
  pickers.length = 0;
  for (let seat = 0; seat < n; seat += 1) {
    const role = SEAT_ROLES[game]?.[seat];
    const names = botNames(info, seat);
    const suggested = info?.default_bots?.[String(seat)];
    const defaultBot = names.includes(suggested) ? suggested : names[0];
    const fallback = [defaultBot, ...names.filter((b) => b !== defaultBot)];
    const isBot = game === "perils" ? seat === 1 : seat === n - 1 && n > 2;
    const label = `Seat ${seat + 1}${role ? ` (${role})` : ""}`;
    const kind = el("select", { class: "seat-kind", aria: { label: `${label}: who plays` } },
      el("option", { value: "human", text: "a person", selected: !isBot }),
      el("option", { value: "bot", text: "a computer player", selected: isBot }));
    const name = el("input", {
      type: "text", class: "seat-name", maxlength: NAME_MAX,
      placeholder: "Name (optional)", aria: { label: `${label}: name` },
    });
    const picker = opponentPicker({ label, role: roleFor(players, seat), fallback, id: `seat-${seat}-bot` });
    pickers.push(picker);
    const bot = picker.select;
    const sync = () => {
      bot.hidden = kind.value !== "bot";
      picker.about.hidden = kind.value !== "bot";
      // A person's seat with a name is kept for that person's link; an empty one goes to the lobby.
      name.placeholder = kind.value === "bot" ? "Name (optional)" : "Name: keeps the seat for its link (empty: open in the lobby)";
      name.title = kind.value === "bot" ? "" : "With a name, only this seat's link can sit here. Leave it empty to let anyone take the seat from the lobby.";
    };
    kind.addEventListener("change", sync);
    sync();
    rows.push(el("div", { class: "seat-row", dataset: { seat: String(seat) } },
      el("span", { class: "seat-label", text: label }), kind, bot, name, picker.about));
  }
  replace($("seat-rows"), rows);
}

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  const doc = opt.doc || "";
  const choices = opt.choices;
  let input;
  if (Array.isArray(choices) && choices.length) {
    input = el("select", { id, dataset: { option: opt.name, kind: "choice" } },
      choices.map((c) => el("option", { value: JSON.stringify(c), text: c === null ? "none" : String(c), selected: c === opt.default })));
  } else if (typeof opt.default === "boolean") {
    input = el("input", { id, type: "checkbox", checked: opt.default, dataset: { option: opt.name, kind: "bool" } });
  } else if (typeof opt.default === "number" && (!opt.type || opt.type === "int" || opt.type === "float")) {
    input = el("input", { id, type: "number", value: opt.default, step: 1, dataset: { option: opt.name, kind: "number" } });
  } else {
    // Mixed types (a number or a word, a number or none): free text, read by typed().
    input = el("input", { id, type: "text", value: opt.default ?? "", placeholder: opt.default === null ? "none (default)" : "", dataset: { option: opt.name, kind: "text" } });
  }
  input.dataset.default = JSON.stringify(opt.default ?? null);
  const rule = opt.rule ? ` (${opt.rule})` : "";
  return el("div", { class: `option ${typeof opt.default === "boolean" ? "option-bool" : ""}` },
    el("label", { for: id, text: opt.name.replaceAll("_", " ") }),
    input,
    el("p", { class: "muted small", text: `${doc}${rule}` }));
}

function renderOptions(game, info) {
  replace($("options"), optionList(info).filter((o) => !OWN_CONTROLS.has(o.name)).map(optionInput));
}

async function renderThemes(info) {
  let list = [];
  try {
    list = await themes();
  } catch (err) {
    showError($("create-error"), err);
  }
  const themeOpt = optionList(info).find((o) => o.name === "theme");
  const fallback = themeOpt?.choices || [themeOpt?.default || "cosmic"];
  if (!list.length) list = fallback.map((id) => ({ id, title: id, archetypes: [] }));
  const select = $("theme");
  replace(select, list.map((t) => el("option", { value: t.id, text: t.title || t.name || t.id, selected: t.id === (themeOpt?.default || "cosmic") })));
  const fill = () => {
    const theme = list.find((t) => t.id === select.value) || list[0];
    const arch = theme?.archetypes || [];
    replace($("archetype"),
      el("option", { value: "", text: "the Hero chooses at the table" }),
      arch.map((a) => el("option", { value: a.id, text: a.name || a.id })));
    $("theme-blurb").textContent = theme?.intro || theme?.blurb || "";
  };
  select.onchange = fill;
  fill();
}

function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const name = input.dataset.option;
    const def = JSON.parse(input.dataset.default);
    let value;
    if (input.dataset.kind === "choice") value = JSON.parse(input.value);
    else if (input.dataset.kind === "bool") value = input.checked;
    else if (input.dataset.kind === "number") value = input.value === "" ? def : Number(input.value);
    else value = input.value.trim() === "" ? def : typed(input.value.trim());
    if (JSON.stringify(value) !== JSON.stringify(def)) options[name] = value;
  }
  if (selectedGame() === "perils") {
    if ($("theme").value) options.theme = $("theme").value;
    if ($("archetype").value) options.archetype = $("archetype").value;
  }
  return options;
}

// A free-form option value: a number or true/false/null when it reads as one, else the text.
function typed(text) {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  if (text === "null" || text === "none") return null;
  return text;
}

function readSeats() {
  return [...document.querySelectorAll("#seat-rows .seat-row")].map((row, i) => {
    const kind = row.querySelector(".seat-kind").value;
    const seat = { kind };
    const name = row.querySelector(".seat-name").value.trim();
    if (name) seat.name = name;
    if (kind === "bot") {
      seat.bot = row.querySelector(".seat-bot").value;
      // Named by level ("Easy (computer)"): the spec's bare name would call every level alike.
      const level = pickers[i]?.chosen()?.level;
      if (!name && level) seat.name = `${level} (computer)`;
    }
    return seat;
  });
}

function secondsOrNull(id) {
  const v = $(id).value.trim();
  return v === "" ? null : Number(v);
}

async function onCreate(ev) {
  ev.preventDefault();
  const button = $("create");
  button.disabled = true;
  showError($("create-error"), null);
  const body = {
    game: selectedGame(),
    players: Number($("players").value),
    options: readOptions(),
    seats: readSeats(),
    takeover_after_s: secondsOrNull("takeover"),
    turn_clock_s: secondsOrNull("clock"),
    rematch_absent: $("rematch-absent")?.value || "open",
  };
  // The computer players' needs (a Teller style judges through its seat), unless set by hand.
  addNeededOptions(body.options, body.seats.map((seat, i) => (seat.kind === "bot" ? pickers[i]?.chosen() : null)));
  try {
    const res = await api("POST", "/api/games", { body });
    showCreated(res, body);
    refreshOpen();
  } catch (err) {
    showError($("create-error"), err);
  } finally {
    button.disabled = false;
  }
}

function linkRow(label, href, { testid } = {}) {
  const url = new URL(href, location.origin).href;
  const input = el("input", { type: "text", readonly: true, value: url, class: "link-input", aria: { label: `${label} link` } });
  const status = el("span", { class: "copy-status small", role: "status" });
  const copy = el("button", { type: "button", class: "btn secondary", text: "Copy", aria: { label: `Copy the ${label} link` } });
  copy.addEventListener("click", async () => {
    status.textContent = (await copyText(url, input)) ? "copied" : "select and copy";
  });
  return el("li", { class: "link-row", dataset: { link: testid || label } },
    el("span", { class: "link-label", text: label }), input, copy,
    el("a", { href: url, class: "btn", target: "_blank", rel: "noopener", text: "Open" }), status);
}

function showCreated(res, body) {
  try {
    localStorage.setItem(`pocketgalaxy.creator.${res.game_id}`, res.creator_token);
  } catch (err) {
    /* no storage: the creator can still play from the seat links */
  }
  const roles = SEAT_ROLES[body.game] || [];
  const rows = (res.seats || []).map((s) => {
    const role = roles[s.seat] ? ` ${roles[s.seat]}` : "";
    const botName = s.name || "bot";
    const who = s.kind === "bot" ? (botName.includes("computer") ? botName : `computer (${botName})`) : s.name || "a person";
    if (s.kind === "bot" || !s.link) {
      return el("li", { class: "link-row", dataset: { link: `seat-${s.seat}` } },
        el("span", { class: "link-label", text: `Seat ${s.seat + 1}${role}: ${who}` }));
    }
    if (s.token) saveToken(res.game_id, s.seat, s.token);
    return linkRow(`Seat ${s.seat + 1}${role}: ${who}`, s.link, { testid: `seat-${s.seat}` });
  });
  rows.push(linkRow("Watcher", res.watch_link || `/play/${res.game_id}`, { testid: "watch" }));
  replace($("seat-links"), rows);
  $("created").hidden = false;
  $("created").dataset.gameId = res.game_id;
  $("created-title").focus();
}

async function start() {
  for (const radio of document.querySelectorAll('input[name="game"]')) radio.addEventListener("change", onGameChange);
  $("players").addEventListener("change", async () => {
    const game = selectedGame();
    renderSeats(game, await gameInfo(game).catch(() => null), await catalogue(game));
  });
  $("create-form").addEventListener("submit", onCreate);
  $("refresh").addEventListener("click", refreshOpen);
  await Promise.all([refreshOpen(), onGameChange()]);
  document.body.dataset.ready = "1";
}

start();

// The table page: works out the game, the seat and its token from the link, keeps a live
// connection (with a reconnecting banner), loads the game's own module from the first snapshot,
// and hands it every snapshot and update. Also: seat takeover by computer players for the creator.

import { GameSocket } from "./net.js";
import { createRematch } from "./rematch.js";
import { createTurnAlert } from "./turn_alert.js";
import { api, el, fragmentParams, loadToken, replace, saveToken, seatName, showError } from "./util.js";

const TITLES = { perils: "Perils & Pathways", adventure: "Adventure Cards" };
const $ = (id) => document.getElementById(id);

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const query = new URLSearchParams(location.search);
const seatParam = query.get("seat");
const seat = seatParam === null || seatParam === "" ? null : Number(seatParam);

// The token travels in the #fragment (never sent to the server by the browser); keep it per game
// and seat, then take it out of the address bar so it is not shared by accident.
let token = null;
if (seat !== null) {
  const fromLink = fragmentParams().token;
  if (fromLink) {
    saveToken(gameId, seat, fromLink);
    history.replaceState(null, "", location.pathname + location.search);
  }
  token = fromLink || loadToken(gameId, seat);
}

let table = null;
let loading = null;
let last = null;
let clockTimer = null;
const seen = new Map();

const ctx = {
  gameId,
  seat,
  readonly: false,
  act(action) {
    showError(ctx.errorBox, null);
    if (!socket.act(action, last?.index ?? 0)) {
      showError(ctx.errorBox, { code: "net/offline", message: "Not connected right now: wait for the connection to come back, then try again." });
      return false;
    }
    document.body.dataset.pending = "1";
    return true;
  },
  seatName: (s) => seatName(last?.seats, s),
  errorBox: null, // the module sets this to a box near its controls
};

const turnAlert = createTurnAlert({ root: $("turn-alerts"), seat, gameId });
const rematch = createRematch({ root: $("end-actions"), gameId, seat, token: () => token });

const socket = new GameSocket(gameId, {
  seat,
  token,
  onMessage: handle,
  onStatus: (state, info) => banner(state, info),
});

function banner(state, info = {}) {
  const node = $("banner");
  node.dataset.state = state;
  document.body.dataset.connection = state;
  if (state === "open") node.textContent = "Connected";
  else if (state === "connecting") node.textContent = "Connecting\u2026";
  else if (state === "reconnecting") node.textContent = `Connection lost: reconnecting\u2026${info.attempt > 1 ? ` (attempt ${info.attempt})` : ""}`;
  else node.textContent = "Disconnected.";
}

async function handle(msg) {
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "pong") return;
  if (msg.type === "error") {
    delete document.body.dataset.pending;
    const err = msg.error || {};
    // A refused hello (bad token) is shown at the top: without the token the seat cannot play.
    document.body.dataset.lastError = err.code || "error";
    if (table) {
      showError(ctx.errorBox, err);
    } else {
      // No table yet (a refused hello: unknown game, wrong key): say so where the table goes.
      const what = err.code === "auth/bad_token" && seat !== null ? `This link's key is not valid for seat ${seat + 1}` : "This table cannot be shown";
      replace($("table"), el("div", { class: "error-box", role: "alert", text: `${what}: ${err.message || err.code || "refused"}` }));
    }
    return;
  }
  if (msg.type === "rematch") {
    rematch.moved(msg); // a player started the rematch: this page follows
    return;
  }
  if (msg.type === "presence") {
    // Someone came or went: only the seats' connected flags changed (no new position).
    if (!last) return;
    const connected = new Map((msg.seats || []).map((s) => [s.seat, Boolean(s.connected)]));
    for (const s of last.seats || []) if (connected.has(s.seat)) s.connected = connected.get(s.seat);
    renderSeats(last.seats || []);
    return;
  }
  if (msg.type !== "snapshot" && msg.type !== "update") return;
  delete document.body.dataset.pending;
  last = msg;
  // Every event this seat has been sent, grouped by action index (re-sent groups replace).
  const groups = new Map();
  for (const e of msg.events || []) {
    const k = e.index ?? -1;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(e);
  }
  for (const [k, list] of groups) seen.set(k, list);
  await ensureTable(msg.game);
  renderFrame(msg);
  table.render(msg);
  turnAlert.update(msg);
  rematch.render(msg);
  const legal = $("legal");
  legal.dataset.legal = JSON.stringify(msg.legal || []);
  legal.dataset.index = String(msg.index ?? 0);
  legal.dataset.status = msg.status || "";
  document.body.dataset.index = String(msg.index ?? 0);
  document.body.dataset.status = msg.status || "";
  document.body.dataset.myTurn = msg.legal && msg.legal.length ? "1" : "0";
}

async function ensureTable(game) {
  if (table) return;
  if (!loading) {
    loading = (async () => {
      if (!TITLES[game]) throw new Error(`unknown game ${game}`);
      const module = await import(`./${game}.js`);
      document.body.dataset.game = game;
      $("game-title").textContent = TITLES[game];
      $("rules-link").href = `/rules/${game}`;
      document.title = `${TITLES[game]}: Pocket Galaxy`;
      table = module.createTable($("table"), ctx);
    })();
  }
  await loading;
}

function renderFrame(msg) {
  const seats = msg.seats || [];
  const me = seats.find((s) => s.seat === seat);
  $("who").textContent = seat === null ? "watching" : `you are ${me?.name || `seat ${seat + 1}`}`;
  renderSeats(seats);
  renderClock(msg.clock);
  renderOutcome(msg);
  renderAdmin(msg);
}

function renderSeats(seats) {
  // A computer player is always at the table, and so is this page while its socket is open.
  const online = (s) => s.connected || s.kind === "bot" || (s.seat === seat && socket.isOpen);
  replace($("seat-bar"), seats.map((s) => el("li", {
    class: `seat-chip ${online(s) ? "online" : "offline"} ${s.seat === seat ? "me" : ""}`,
    dataset: { seat: String(s.seat), kind: s.kind || "" },
  },
  el("span", { class: "dot", aria: { hidden: "true" } }),
  el("span", { text: s.name || `Seat ${s.seat + 1}` }),
  el("span", { class: "visually-hidden", text: online(s) ? " (connected)" : " (not connected)" }),
  s.kind === "bot" || s.taken_over ? el("span", { class: "tag", text: s.taken_over ? "computer for now" : "computer" }) : null)));
}

function renderClock(clock) {
  clearInterval(clockTimer);
  const node = $("clock");
  if (!clock || clock.deadline_s === null || clock.deadline_s === undefined) {
    node.hidden = true;
    return;
  }
  // deadline_s: seconds left when the message was built.
  const end = Date.now() + Number(clock.deadline_s) * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    node.textContent = `${seatName(last?.seats, clock.seat)} has ${left} s to move; then a computer player moves for them.`;
  };
  tick();
  node.hidden = false;
  clockTimer = setInterval(tick, 1000);
}

function renderOutcome(msg) {
  const box = $("outcome");
  if (msg.status === "abandoned") {
    replace(box, el("strong", { text: "This game was abandoned. " }),
      "Nobody came back to it for a long time, so no more moves can be made. ",
      el("a", { href: `/replay/${encodeURIComponent(gameId)}`, text: "Watch the replay" }));
    box.hidden = false;
    return;
  }
  if (msg.status !== "over") {
    box.hidden = true;
    return;
  }
  const outcome = msg.outcome || {};
  const winners = (outcome.winners || []).map((w) => seatName(msg.seats, w));
  let line;
  if (msg.game === "perils") line = winners.length ? "The Hero won the Prize!" : "The Hero did not make it this time.";
  else if (winners.length > 1) line = `Shared win: ${winners.join(", ")}.`;
  else if (winners.length === 1) line = `${winners[0]} wins.`;
  else line = "Nobody won.";
  replace(box, el("strong", { text: "Game over. " }), line, outcome.ended_by_cap ? " (ended by the turn cap)" : "", " ",
    el("a", { href: `/replay/${encodeURIComponent(gameId)}`, text: "Watch the replay" }));
  box.hidden = false;
}

// -- seats handed to computer players and back -------------------------------------------------

function creatorToken() {
  try {
    return localStorage.getItem(`pocketgalaxy.creator.${gameId}`);
  } catch (err) {
    return null;
  }
}

function renderAdmin(msg) {
  const creator = creatorToken();
  const details = $("seat-admin");
  const mine = (msg.seats || []).find((s) => s.seat === seat);
  const canReturn = seat !== null && token && mine && mine.kind === "human" && mine.taken_over;
  if ((!creator && !canReturn) || msg.status === "over") {
    details.hidden = true;
    return;
  }
  details.hidden = false;
  const rows = [];
  if (canReturn) {
    rows.push(el("p", {}, "A computer player is playing your seat. ",
      el("button", { type: "button", class: "btn primary", text: "Take my seat back", on: { click: () => giveBack() } })));
  }
  if (creator) {
    for (const s of msg.seats || []) {
      if (s.kind !== "human" || s.taken_over) continue;
      rows.push(el("p", {}, `${s.name || `Seat ${s.seat + 1}`}: `,
        el("button", { type: "button", class: "btn", text: `Let a computer play seat ${s.seat + 1}`, on: { click: () => takeover(s.seat, creator) } })));
    }
  }
  replace($("admin-body"), rows);
}

async function takeover(target, creator) {
  try {
    await api("POST", `/api/games/${encodeURIComponent(gameId)}/seats/${target}/takeover`, { body: { bot: msgBotFor(target) }, token: creator });
    showError($("admin-error"), null);
  } catch (err) {
    showError($("admin-error"), err);
  }
}

function msgBotFor(target) {
  if (last?.game === "perils") return target === 1 ? "teller" : "rulebased";
  return "memory";
}
// (The server's /api/options/{game} lists default_bots too; these match its defaults.)

async function giveBack() {
  try {
    await api("POST", `/api/games/${encodeURIComponent(gameId)}/seats/${seat}/return`, { body: {}, token });
    showError($("admin-error"), null);
  } catch (err) {
    showError($("admin-error"), err);
  }
}

socket.connect();
// For tests and curious people: what this page knows (its own seat's payloads only).
window.__pocketgalaxy = {
  socket,
  ctx,
  alerts: turnAlert.state,
  get last() { return last; },
  get events() { return [...seen.keys()].sort((a, b) => a - b).flatMap((k) => seen.get(k)); },
};

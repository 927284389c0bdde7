// The replay page: a finished game step by step (GET /api/games/{id}/replay), seen by any seat
// or by a watcher, drawn by the same game module as the live table (read-only).

import { api, el, replace, seatName, showError } from "./util.js";

const TITLES = { perils: "Perils & Pathways", adventure: "Adventure Cards" };
const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

let steps = [];
let summary = null;
let module = null;
let table = null;
let current = 0;
let viewpoint = "watch";

function seatOf(vp) {
  return vp === "watch" ? null : Number(vp);
}

function visible(event, seat) {
  const audience = event.audience;
  return audience === null || audience === undefined || (seat !== null && audience.includes(seat));
}

function messageAt(i) {
  const seat = seatOf(viewpoint);
  const events = [];
  for (let k = 0; k <= i; k += 1) {
    for (const e of steps[k].events || []) if (visible(e, seat)) events.push({ ...e, index: steps[k].index ?? k });
  }
  const step = steps[i];
  const views = step.views || {};
  return {
    type: i === 0 ? "snapshot" : "update",
    game: summary.game,
    seat,
    index: step.index ?? i,
    status: i === steps.length - 1 ? (summary.status === "abandoned" ? "abandoned" : "over") : "running",
    view: views[viewpoint] ?? views[String(viewpoint)] ?? views.watch,
    legal: [],
    events,
    seats: summary.seats || [],
    outcome: i === steps.length - 1 ? summary.outcome ?? null : null,
    clock: null,
  };
}

function build() {
  const ctx = {
    gameId,
    seat: seatOf(viewpoint),
    readonly: true,
    act: () => false,
    seatName: (s) => seatName(summary.seats, s),
    errorBox: null,
  };
  table = module.createTable($("table"), ctx);
  // Feed the steps up to the current one in order so logs and animations line up.
  table.render(messageAt(current));
}

function describeStep(i) {
  const step = steps[i];
  if (i === 0 || !step.action) return "The start of the game.";
  const who = seatName(summary.seats, step.seat);
  const fields = Object.entries(step.action).filter(([k]) => k !== "type").map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(", ") || "none" : v ?? "none"}`);
  return `Step ${i}: ${who} ${step.action.type}${fields.length ? ` (${fields.join("; ")})` : ""}.`;
}

function show(i) {
  current = Math.max(0, Math.min(steps.length - 1, i));
  $("step").value = String(current);
  $("step-label").textContent = `${current} / ${steps.length - 1}`;
  $("step-action").textContent = describeStep(current);
  table.render(messageAt(current));
  document.body.dataset.step = String(current);
}

async function start() {
  $("back-to-game").href = `/play/${encodeURIComponent(gameId)}`;
  try {
    summary = await api("GET", `/api/games/${encodeURIComponent(gameId)}`);
    const data = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
    steps = data.steps || [];
  } catch (err) {
    showError($("replay-error"), err);
    return;
  }
  if (!steps.length) {
    showError($("replay-error"), { message: "This game has no steps to show." });
    return;
  }
  $("game-title").textContent = `Replay: ${TITLES[summary.game] || summary.game}`;
  if (TITLES[summary.game]) $("rules-link").href = `/rules/${summary.game}`;
  module = await import(`./${summary.game}.js`);
  const seats = summary.seats || [];
  const viewKeys = Object.keys(steps[0].views || { watch: null });
  replace($("viewpoint"), viewKeys.map((k) => el("option", {
    value: k, selected: k === "watch",
    text: k === "watch" ? "a watcher" : seatName(seats, Number(k)),
  })));
  $("step").max = String(steps.length - 1);
  current = 0;
  build();
  show(0);
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(current - 1));
  $("next").addEventListener("click", () => show(current + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  $("step").addEventListener("input", () => show(Number($("step").value)));
  $("viewpoint").addEventListener("change", () => {
    viewpoint = $("viewpoint").value;
    build();
    show(current);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
    if (ev.target instanceof HTMLTextAreaElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.key === "ArrowRight" && ev.target.id !== "step") show(current + 1);
    if (ev.key === "ArrowLeft" && ev.target.id !== "step") show(current - 1);
    if (ev.key === "Home" && ev.target.id !== "step") show(0);
    if (ev.key === "End" && ev.target.id !== "step") show(steps.length - 1);
  });
  document.body.dataset.ready = "1";
}

start();

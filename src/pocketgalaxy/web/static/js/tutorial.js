// Guided first games. In the lobby: the "Learn" buttons start a lesson (POST /api/lessons/GAME)
// and open the learner's seat with ?lesson=GAME. On the table page with ?lesson: the coach panel,
// refreshed after every move from GET /api/games/ID/lesson (the learner's seat and token only),
// with "Do it for me", "Leave the lesson" and "Play a real game". The lesson itself is a normal
// game: the table module draws it and takes the learner's moves as usual.

import { api, el, loadToken, replace, showError } from "./util.js";

const $ = (id) => document.getElementById(id);
const REAL_GAMES = {
  perils: { game: "perils", players: 2, seats: [{ kind: "human" }, { kind: "bot", bot: "teller" }] },
  adventure: { game: "adventure", players: 2, seats: [{ kind: "human" }, { kind: "bot", bot: "memory" }] },
};

/** Open the learner's seat link of a freshly made game, marked as a lesson when `lesson`. */
function openSeat(made, seatNo, lesson) {
  const seat = made.seats.find((s) => s.seat === seatNo);
  const [path, fragment] = seat.link.split("#");
  try {
    localStorage.setItem(`pocketgalaxy.creator.${made.game_id}`, made.creator_token);
  } catch (err) {
    // Private mode: the game still plays; only seat takeover needs the creator key.
  }
  location.assign(`${path}${lesson ? `&lesson=${encodeURIComponent(lesson)}` : ""}#${fragment}`);
}

function learnButtons() {
  for (const button of document.querySelectorAll("button[data-learn]")) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const made = await api("POST", `/api/lessons/${encodeURIComponent(button.dataset.learn)}`);
        openSeat(made, made.learner, made.lesson);
      } catch (err) {
        showError($("learn-error"), err);
        button.disabled = false;
      }
    });
  }
}

// -- the coach on the table page -----------------------------------------------------------

function coachPanel(lesson) {
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const seat = Number(new URLSearchParams(location.search).get("seat"));
  const token = loadToken(gameId, seat);
  const panel = $("coach");
  let advice = null;
  let busy = false;
  let again = false;

  const lines = el("ol", { id: "coach-lines", class: "coach-lines", aria: { live: "polite" } });
  const now = el("p", { id: "coach-advice", class: "coach-advice" });
  const doIt = el("button", { type: "button", id: "coach-do", class: "btn primary", text: "Do it for me", on: { click: () => makeMove() } });
  const leave = el("a", { id: "coach-leave", class: "btn secondary", href: "/", text: "Leave the lesson" });
  const real = el("button", { type: "button", id: "coach-real", class: "btn", text: "Play a real game", on: { click: () => realGame() } });
  const goals = el("ul", { id: "coach-goals", class: "coach-goals", aria: { label: "What this lesson shows" } });
  const error = el("div", { id: "coach-error", class: "error-box", role: "alert", hidden: true });
  replace(panel,
    el("h2", { id: "coach-title", text: "Coach" }),
    now,
    el("div", { class: "coach-actions" }, doIt, leave, real),
    error,
    el("h3", { text: "What happened" }),
    lines,
    el("h3", { text: "This lesson shows" }),
    goals);
  panel.hidden = false;
  document.body.dataset.lesson = lesson;

  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const body = await api("GET", `/api/games/${encodeURIComponent(gameId)}/lesson?seat=${seat}`, { token });
      show(body);
      showError(error, null);
    } catch (err) {
      showError(error, err);
    } finally {
      busy = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  function show(body) {
    advice = body.advice;
    replace(lines, body.lines.slice(-12).map((text) => el("li", { text })));
    lines.scrollTop = lines.scrollHeight;
    now.textContent = advice.line || "Wait for the other player\u2026";
    doIt.disabled = !advice.expected;
    replace(goals, body.goals.map((g) => el("li", { class: g.done ? "done" : "", dataset: { goal: g.id } },
      el("span", { aria: { hidden: "true" }, text: g.done ? "\u2713 " : "\u25cb " }),
      g.title,
      el("span", { class: "visually-hidden", text: g.done ? " (shown)" : " (not yet)" }))));
    panel.dataset.index = String(body.index);
    panel.dataset.over = body.over ? "1" : "0";
    panel.dataset.goalsDone = String(body.goals.filter((g) => g.done).length);
  }

  function makeMove() {
    if (!advice || !advice.expected) return;
    doIt.disabled = true;
    window.__pocketgalaxy.ctx.act(advice.expected);
  }

  async function realGame() {
    real.disabled = true;
    try {
      const made = await api("POST", "/api/games", { body: REAL_GAMES[lesson] });
      openSeat(made, 0, null);
    } catch (err) {
      showError(error, err);
      real.disabled = false;
    }
  }

  // The table page marks every new position on <body data-index>: ask the coach again then.
  new MutationObserver(() => refresh()).observe(document.body, { attributes: true, attributeFilter: ["data-index", "data-status"] });
  refresh();
}

if (document.querySelector("button[data-learn]")) learnButtons();
const lessonParam = new URLSearchParams(location.search).get("lesson");
if ($("coach") && (lessonParam === "perils" || lessonParam === "adventure")) coachPanel(lessonParam);

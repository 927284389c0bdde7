// Rematch: the "Play again" button at the end of a game (both games share the #end-actions box)
// and the move to the new game. The server sends every page of the old game one public
// {"type": "rematch"} message (no token in it); a seat's page then asks for its own seat with its
// own token (POST /api/games/{id}/rematch, idempotent) and opens the link it is given. Watchers
// follow the watch link. See docs/web.md ("Rematch").

import { api, el, replace, showError } from "./util.js";

const CREATOR_PREFIX = "pocketgalaxy.creator";

function creatorToken(gameId) {
  try {
    return localStorage.getItem(`${CREATOR_PREFIX}.${gameId}`);
  } catch (err) {
    return null;
  }
}

function saveCreator(gameId, token) {
  try {
    localStorage.setItem(`${CREATOR_PREFIX}.${gameId}`, token);
  } catch (err) {
    /* no storage: the seat still plays; only the creator's seat controls are lost */
  }
}

/**
 * createRematch({root, gameId, seat, token}) -> {render(msg), moved(msg)}.
 * `token()` gives this page's seat token (null for a watcher).
 */
export function createRematch({ root, gameId, seat, token }) {
  let asking = false;
  let movedTo = null;
  const status = el("p", { class: "rematch-status small", role: "status" });
  const error = el("div", { class: "error-box", role: "alert", hidden: true });

  async function ask(auto) {
    if (asking || seat === null || !token()) return;
    asking = true;
    document.body.dataset.rematch = "asking";
    const button = root.querySelector("#rematch");
    if (button) {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
    }
    status.textContent = auto ? "A rematch has started: taking you to your seat\u2026" : "Starting the rematch\u2026";
    showError(error, null);
    const body = { seat };
    const creator = creatorToken(gameId);
    if (creator) body.creator_token = creator;
    try {
      const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/rematch`, { body, token: token() });
      if (reply.creator_token) saveCreator(reply.game_id, reply.creator_token);
      document.body.dataset.rematch = "moving";
      // The link carries the new seat's token in its #fragment; the new page stores it and
      // takes it out of the address bar, as for any seat link.
      location.assign(reply.link);
    } catch (err) {
      asking = false;
      document.body.dataset.rematch = "refused";
      status.textContent = "";
      showError(error, err);
      if (movedTo) {
        error.append(" ", el("a", { href: movedTo.watch_link, text: "Watch the rematch" }));
      }
      if (button) {
        button.disabled = false;
        button.removeAttribute("aria-busy");
      }
    }
  }

  function render(msg) {
    if (msg.status !== "over") {
      root.hidden = true;
      return;
    }
    const next = msg.rematch || movedTo;
    const children = [];
    if (seat !== null && token()) {
      children.push(el("button", {
        type: "button", id: "rematch", class: "btn primary", disabled: asking,
        text: next ? "Join the rematch" : "Play again",
        aria: { describedby: "rematch-hint" },
        on: { click: () => ask(false) },
      }));
      children.push(el("span", { id: "rematch-hint", class: "muted small", text: next
        ? " A rematch of this game has started: same players and options, a new deal."
        : " A new game with the same players and options, and a new deal. Everyone here moves to it." }));
    } else if (next) {
      children.push(el("a", { class: "btn", id: "watch-rematch", href: next.watch_link, text: "Watch the rematch" }));
    } else {
      children.push(el("span", { class: "muted small", text: "If a player starts a rematch, this page follows them to it." }));
    }
    replace(root, el("div", { class: "rematch-row" }, children), status, error);
    root.hidden = false;
  }

  function moved(msg) {
    const next = msg.rematch;
    if (!next || !next.game_id) return;
    movedTo = next;
    if (seat !== null && token()) {
      ask(true);
    } else {
      document.body.dataset.rematch = "moving";
      location.assign(next.watch_link);
    }
  }

  return { render, moved };
}

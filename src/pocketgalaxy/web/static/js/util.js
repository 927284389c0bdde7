// Small shared helpers for every page: DOM building without innerHTML, the REST client,
// token storage and a few formatting functions. Everything people type is inserted as text.

/**
 * Build an element. `attrs` keys: `class`, `text` (textContent), `dataset` (object),
 * `on` (object of event handlers), `aria` (object: aria-* attributes), booleans for properties
 * like `disabled`/`checked`, anything else as an attribute. Children are nodes or strings
 * (strings become text nodes, never markup).
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  applyAttrs(node, attrs);
  append(node, children);
  return node;
}

function applyAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else if (key === "aria") for (const [k, v] of Object.entries(value)) node.setAttribute(`aria-${k}`, String(v));
    else if (key === "disabled" || key === "checked" || key === "selected" || key === "hidden") node[key] = Boolean(value);
    else if (key === "value") node.value = String(value);
    // Through the CSSOM: a style attribute would be refused by the Content-Security-Policy.
    else if (key === "style") node.style.cssText = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
}

/** Append nodes or text (arrays are flattened, null/undefined/false skipped). */
export function append(node, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace every child of `node` with `children`. */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/** An error from the server, with the protocol's code, message and legal list. */
export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `request failed (${status})`);
    this.status = status;
    this.code = error?.code || "http/error";
    this.legal = error?.legal || [];
    this.explanation = error?.explanation || null; // the sentence for people (docs/web.md)
    this.rule = error?.rule || null;
  }
}

/** Call the REST API; resolves to the JSON body or throws ApiError. */
export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, { code: "net/unreachable", message: "The server cannot be reached." });
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data?.error || data?.detail && { message: String(data.detail) });
  return data;
}

// -- tokens ------------------------------------------------------------------------------------
// A seat's token arrives in the link's #fragment (never sent to the server in a URL) and is kept
// in localStorage per game and seat, so a reload or a reconnect can say hello again.

const TOKEN_PREFIX = "pocketgalaxy.token";

export function tokenKey(gameId, seat) {
  return `${TOKEN_PREFIX}.${gameId}.${seat}`;
}

export function saveToken(gameId, seat, token) {
  try {
    localStorage.setItem(tokenKey(gameId, seat), token);
  } catch (err) {
    /* storage may be disabled: the token then lives only in the page */
  }
}

export function loadToken(gameId, seat) {
  try {
    return localStorage.getItem(tokenKey(gameId, seat));
  } catch (err) {
    return null;
  }
}

/** Parse `#token=...&x=y` into an object. */
export function fragmentParams(hash = location.hash) {
  return Object.fromEntries(new URLSearchParams(hash.replace(/^#/, "")));
}

/** Copy text to the clipboard, falling back to selecting an input. Resolves to true on success. */
export async function copyText(text, fallbackInput) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    if (fallbackInput) {
      fallbackInput.select();
      try {
        return document.execCommand("copy");
      } catch (err2) {
        return false;
      }
    }
    return false;
  }
}

/** Make a clickable non-button element keyboard-friendly: focusable, Enter/Space activate. */
export function activatable(node, handler, label) {
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  if (label) node.setAttribute("aria-label", label);
  node.addEventListener("click", handler);
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      handler(ev);
    }
  });
  return node;
}

/** Stable JSON of an action (sorted keys), used for data-action attributes and comparisons. */
export function actionKey(action) {
  return JSON.stringify(sortKeys(action));
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  }
  return value;
}

/** Words for a list: ["a", "b", "c"] -> "a, b and c". */
export function listWords(items) {
  const list = [...items];
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** Seat name from the snapshot's seats list. */
export function seatName(seats, seat) {
  if (seat === null || seat === undefined) return "someone";
  const found = (seats || []).find((s) => s.seat === seat);
  return found?.name || `Seat ${seat + 1}`;
}

/** Group events (each with an `index`) by action index. */
export function groupByIndex(events) {
  const groups = new Map();
  for (const event of events || []) {
    const key = event.index ?? -1;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(event);
  }
  return groups;
}

/**
 * The words a person is shown for an error: the server's `explanation` (a refused move in the
 * player's words, with the rule number) or, from older servers and the page itself, `message`.
 */
export function errorWords(error) {
  return error?.explanation || error?.message || "refused";
}

/** A live region + message box near the controls for server errors. */
export function showError(box, error) {
  if (!box) return;
  if (!error) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.code;
    delete box.dataset.rule;
    return;
  }
  // The sentence carries the rule number; the code stays on the box for tests and tools.
  const code = error.code && !error.explanation ? ` (${error.code})` : "";
  if (error.code) box.dataset.code = error.code;
  else delete box.dataset.code;
  if (error.rule) box.dataset.rule = error.rule;
  else delete box.dataset.rule;
  replace(box, el("strong", { text: "Not allowed" }), `: ${errorWords(error)}${code}`);
  box.hidden = false;
}

/**
 * Run `fn` (which rebuilds part of `root`) and put the keyboard focus back on the equivalent
 * element afterwards: same id, or same data-focus-key / data-slot / data-card / data-seat.
 */
export function keepFocus(root, fn, fallback) {
  const active = document.activeElement;
  const hadFocus = Boolean(active && root.contains(active) && active !== root);
  let selector = null;
  if (active && root.contains(active) && active !== root) {
    if (active.id) selector = `#${CSS.escape(active.id)}`;
    else {
      const keys = ["focusKey", "slot", "card", "seat", "position", "mode"];
      const parts = keys.filter((k) => active.dataset?.[k] !== undefined)
        .map((k) => `[data-${k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}="${CSS.escape(active.dataset[k])}"]`);
      if (parts.length) selector = `${active.tagName.toLowerCase()}${parts.join("")}`;
    }
  }
  fn();
  if (selector) {
    const again = root.querySelector(selector);
    if (again && again !== document.activeElement && !again.disabled) {
      again.focus({ preventScroll: true });
      return;
    }
  }
  if (hadFocus && !root.contains(document.activeElement) && fallback) {
    const target = fallback();
    if (target) target.focus({ preventScroll: true });
  }
}

// "Your move": while it is this seat's turn the tab title starts with "● Your move —" and the
// favicon (an SVG drawn here, no image file) carries a dot; both go back when it is not. Two
// switches in the table's header, both off by default and remembered per browser
// (localStorage): a browser notification when the turn comes while the tab is hidden
// (permission is asked only when the player switches it on) and a short beep (WebAudio).

import { el, replace } from "./util.js";

const PREFIX = "\u25CF Your move \u2014 ";
const KEYS = { notify: "pocketgalaxy.alert.notify", sound: "pocketgalaxy.alert.sound" };

function remembered(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch (err) {
    return false;
  }
}

function remember(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch (err) {
    /* no storage: the switch holds for this page only */
  }
}

function icon(dot) {
  // A small planet with a ring; on your move, a bright dot at the top right.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">`
    + `<circle cx="15" cy="17" r="9" fill="#ffcf4a"/>`
    + `<ellipse cx="15" cy="17" rx="14" ry="4" fill="none" stroke="#7cc4ff" stroke-width="2"/>`
    + (dot ? `<circle cx="25" cy="7" r="6.5" fill="#ff3b3b" stroke="#0f1427" stroke-width="2"/>` : "")
    + `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** createTurnAlert({root, seat, gameId}) -> {update(msg), state}: call update with each payload. */
export function createTurnAlert({ root, seat, gameId }) {
  const state = { mine: false, notify: remembered(KEYS.notify), sound: remembered(KEYS.sound), beeps: 0, notes: 0 };
  let seenFirst = false;
  let base = document.title;
  let audio = null;
  const note = el("span", { class: "alert-note small muted", role: "status" });
  const link = document.querySelector("link[rel~='icon']") || document.head.appendChild(el("link", { rel: "icon" }));

  function setIcon() {
    link.href = icon(state.mine);
    link.dataset.turn = state.mine ? "1" : "0";
  }

  function setTitle() {
    const current = document.title;
    if (!current.startsWith(PREFIX)) base = current; // play.js may have renamed the page
    document.title = state.mine ? PREFIX + base : base;
  }

  function ensureAudio() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    return audio;
  }

  function beep() {
    const ctx = ensureAudio();
    if (!ctx) return;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = 880;
    const t = ctx.currentTime;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.3);
    state.beeps += 1;
  }

  function notify() {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try {
      const shown = new Notification("Your move", { body: `It is your turn (${base}).`, tag: `pocketgalaxy-${gameId}` });
      shown.onclick = () => {
        window.focus();
        shown.close();
      };
      state.notes += 1;
    } catch (err) {
      /* some browsers allow notifications only from a service worker: the title still shows */
    }
  }

  async function toggleNotify() {
    note.textContent = "";
    if (state.notify) {
      state.notify = false;
    } else if (!("Notification" in window)) {
      note.textContent = "This browser cannot show notifications; the tab title still shows your move.";
    } else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      state.notify = answer === "granted";
      if (!state.notify) note.textContent = "Notifications are blocked for this site in the browser's settings.";
    }
    remember(KEYS.notify, state.notify);
    renderControls();
  }

  function toggleSound() {
    state.sound = !state.sound;
    remember(KEYS.sound, state.sound);
    if (state.sound) ensureAudio(); // created inside the click: browsers let it play later
    renderControls();
  }

  function renderControls() {
    if (seat === null) {
      root.hidden = true; // watchers have no turn
      return;
    }
    const toggle = (id, on, label, fn) => el("button", {
      type: "button", id, class: "btn secondary small-btn", aria: { pressed: on ? "true" : "false" },
      text: `${label}: ${on ? "on" : "off"}`, on: { click: fn },
    });
    replace(root,
      toggle("alert-notify", state.notify, "Notify me on my turn", toggleNotify),
      toggle("alert-sound", state.sound, "Sound on my turn", toggleSound),
      note);
    root.hidden = false;
  }

  function update(msg) {
    const mine = msg.status === "running" && Array.isArray(msg.legal) && msg.legal.length > 0;
    const came = mine && !state.mine && seenFirst; // not for the turn the page opened on
    state.mine = mine;
    seenFirst = true;
    setTitle();
    setIcon();
    if (came) {
      if (state.sound) beep();
      if (state.notify && document.visibilityState === "hidden") notify();
    }
  }

  // A page reloaded with the sound on may start its audio only after a gesture.
  const wake = () => {
    if (state.sound) ensureAudio();
  };
  window.addEventListener("pointerdown", wake, { once: true });
  window.addEventListener("keydown", wake, { once: true });
  renderControls();
  setIcon();
  return { update, state };
}

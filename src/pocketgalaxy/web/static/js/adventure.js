// The Adventure Cards table: the six missions, your hand, the face-down table slots, the other
// players, and a card picker. Request = pick a player, then a card; declare = pick a table slot,
// then a card. Revealed faces show for about two seconds and turn back (a memory game) unless the
// "memory aid" box is ticked. "Since your last turn" lists every move the others made while this
// seat waited; the full game log (filterable by player) keeps every public fact of the game, and
// this seat's own peeks (js/adventure_log.js words them as the terminal does). At phone size a
// compact dock keeps the hand and the missions on screen beside the card picker.

import { cardMoves, playMoves } from "./adventure_motion.js";
import { cardName, eventActor, eventText, sinceLastTurn } from "./adventure_log.js";
import { PACKS, adventureBack, adventureCard, identityName } from "./cards.js";
import { actionKey, api, el, groupByIndex, keepFocus, replace, showError } from "./util.js";

const REVEAL_MS = 2000;
const IDS = ["S", "P", "A", "M"].flatMap((p) => [1, 2, 3, 4, 5, 6].map((n) => `${p}${n}`));
const AID_KEY = "pocketgalaxy.memoryAid";

export function createTable(root, ctx) {
  const state = {
    msg: null,
    selection: null, // {kind: "target", seat} | {kind: "slot", slot}
    reveals: new Map(), // slot -> {card, until}
    events: new Map(), // action index -> events (all this page has been sent)
    lastCount: null,
    names: null,
    aid: readAid(),
    filter: "all", // the full log's player filter: "all" or a seat number as text
    moves: 0, // how many card moves were animated (tests and curious people read it)
  };

  // -- skeleton ---------------------------------------------------------------------------------
  const status = el("p", { class: "turn-status", id: "turn-status", role: "status", tabindex: "-1", aria: { live: "polite" } });
  const errorBox = el("div", { class: "error-box", role: "alert", hidden: true, id: "action-error" });
  ctx.errorBox = errorBox;
  const missions = el("div", { class: "missions", id: "missions" });
  const players = el("ul", { class: "players", id: "players", aria: { label: "Other players" } });
  const tableGrid = el("div", { class: "slots", id: "slots", role: "group", aria: { label: "Face-down table cards" } });
  const picker = el("div", { class: "picker", id: "picker", role: "group", aria: { label: "Name a card" } });
  const hint = el("p", { class: "hint muted", id: "hint" });
  const extra = el("div", { class: "extra-actions", id: "extra-actions" });
  const hand = el("div", { class: "hand", id: "hand", role: "list", aria: { label: "Your test-cards" } });
  const log = el("ol", { class: "log full-log", id: "log", tabindex: "0", aria: { label: "The whole game, move by move" } });
  const recap = el("ol", { class: "log recap", id: "recap", aria: { labelledby: "recap-title" } });
  const logFilter = el("select", { id: "log-filter", aria: { label: "Show the moves of" } });
  logFilter.addEventListener("change", () => {
    state.filter = logFilter.value;
    render();
  });
  // New events read out by screen readers, politely (never the table's whole redraw).
  const announce = el("div", { class: "visually-hidden", id: "announce", aria: { live: "polite", atomic: "false" } });
  const dockHand = el("div", { class: "dock-hand", id: "dock-hand" });
  const dockMissions = el("div", { class: "dock-missions", id: "dock-missions", role: "list", aria: { label: "The missions, at a glance" } });
  const dock = el("aside", { class: "dock", id: "dock", aria: { label: "Your hand and the missions" } }, dockHand, dockMissions);
  const aid = el("input", { type: "checkbox", id: "memory-aid", checked: state.aid });
  const memory = el("div", { class: "memory", id: "memory", hidden: true });
  aid.addEventListener("change", () => {
    state.aid = aid.checked;
    try {
      localStorage.setItem(AID_KEY, state.aid ? "1" : "0");
    } catch (err) {
      /* fine */
    }
    render();
  });

  replace(root,
    el("div", { class: "adv-layout" },
      el("section", { class: "panel area-status", aria: { label: "Turn" } }, status),
      el("section", { class: "panel area-recap", aria: { labelledby: "recap-title" } },
        el("h2", { id: "recap-title", text: ctx.seat === null ? "The last turns" : "Since your last turn" }), recap),
      el("section", { class: "panel area-play", aria: { labelledby: "play-title" } },
        el("h2", { id: "play-title", text: "Your move" }), hint, errorBox,
        el("h3", { text: "Players" }), players,
        el("h3", { text: "Table" }), tableGrid,
        el("h3", { id: "picker-title", text: "Name a card" }), picker, extra),
      el("section", { class: "panel area-hand", aria: { labelledby: "hand-title" } },
        el("h2", { id: "hand-title", text: "Your hand" }), hand),
      el("section", { class: "panel area-missions", aria: { labelledby: "missions-title" } },
        el("h2", { id: "missions-title", text: "Missions" }), missions),
      el("section", { class: "panel area-log", aria: { labelledby: "log-title" } },
        el("div", { class: "panel-head" },
          el("h2", { id: "log-title", text: "Game log" }),
          el("label", { class: "small log-filter" }, "Moves of ", logFilter),
          el("label", { class: "small aid-toggle" }, aid, " memory aid")),
        log, memory)),
    dock, announce);

  loadNames().then((names) => {
    state.names = names;
    if (state.msg) render();
  });

  // -- helpers --------------------------------------------------------------------------------------
  const name = (s) => (s === ctx.seat ? "You" : ctx.seatName(s));
  const cardWords = (id) => identityName(id, state.names);
  const legal = () => state.msg?.legal || [];
  const legalOf = (type) => legal().filter((a) => a.type === type);

  function send(action) {
    const key = actionKey(action);
    if (!legal().some((a) => actionKey(a) === key)) {
      showError(errorBox, { code: "action/not_legal", message: "That move is not open to you now." });
      return;
    }
    state.selection = null;
    ctx.act(action);
  }

  // -- rendering ------------------------------------------------------------------------------------
  function render() {
    const msg = state.msg;
    if (!msg) return;
    const view = msg.view || {};
    keepFocus(root, () => draw(msg, view), () => root.querySelector(
      "button.player-btn, button.slot, #skip-peek, button.pick:not([disabled])") || status);
  }

  function draw(msg, view) {
    renderStatus(msg, view);
    renderPlayers(msg, view);
    renderSlots(view);
    renderPicker(view);
    renderExtra(view);
    renderHand(view);
    renderMissions(msg, view);
    renderRecap();
    renderLog();
    renderDock(view);
    renderMemory(view);
  }

  function renderStatus(msg, view) {
    let line;
    if (msg.status === "over") line = "The game is over.";
    else if (view.to_act === ctx.seat && ctx.seat !== null) {
      line = view.phase === "peek" ? "Your request was refused: you may peek at one table card." : "Your turn.";
    } else line = `${ctx.seatName(view.to_act)} is playing.`;
    status.textContent = `Turn ${view.turn ?? 0}. ${line}`;
    root.dataset.phase = view.phase || "";
  }

  function renderPlayers(msg, view) {
    const sizes = view.hand_sizes || [];
    const scores = view.scores || [];
    const targets = new Set(legalOf("RequestCard").map((a) => a.target));
    const rows = [];
    for (let s = 0; s < (view.players || sizes.length); s += 1) {
      const me = s === ctx.seat;
      const selected = state.selection?.kind === "target" && state.selection.seat === s;
      const info = `${sizes[s] ?? 0} card${sizes[s] === 1 ? "" : "s"}, ${scores[s] ?? 0} mission${scores[s] === 1 ? "" : "s"}`;
      const label = me ? `You (${info})` : `${ctx.seatName(s)} (${info})`;
      const body = [
        el("span", { class: "player-name", text: me ? "You" : ctx.seatName(s) }),
        el("span", { class: "player-info muted small", text: info }),
        view.to_act === s ? el("span", { class: "tag", text: "to play" }) : null,
      ];
      if (!me && targets.has(s) && view.phase !== "peek") {
        rows.push(el("li", { class: "player" }, el("button", {
          type: "button", class: `btn player-btn${selected ? " selected" : ""}`,
          dataset: { seat: String(s), target: String(s) },
          aria: { pressed: selected ? "true" : "false", label: `Ask ${label}` },
          on: { click: () => select({ kind: "target", seat: s }) },
        }, ...body)));
      } else {
        rows.push(el("li", { class: `player${me ? " me" : ""}`, dataset: { seat: String(s) }, aria: { label } }, ...body));
      }
    }
    replace(players, rows);
  }

  function renderSlots(view) {
    const table = view.table || [];
    const declare = new Set(legalOf("DeclareCard").map((a) => a.slot));
    const peek = new Set(legalOf("Peek").map((a) => a.slot));
    const now = Date.now();
    const cells = table.map((full, slot) => {
      const reveal = state.reveals.get(slot);
      const showing = reveal && reveal.until > now ? reveal.card : null;
      const known = state.aid ? view.known?.[String(slot)] : null;
      const face = showing || known;
      if (!full && !showing) {
        return el("div", { class: "slot empty", dataset: { slot: String(slot) }, aria: { label: `Table slot ${slot + 1}: empty` } },
          el("span", { class: "slot-no", text: String(slot + 1) }));
      }
      const selected = state.selection?.kind === "slot" && state.selection.slot === slot;
      const label = face
        ? `Table slot ${slot + 1}: ${showing ? "shown" : "remembered"} ${cardWords(face)}`
        : `Table slot ${slot + 1}: face-down card`;
      const picture = face ? adventureCard(face, { names: state.names }) : adventureBack({ label });
      const canPeek = view.phase === "peek" && peek.has(slot);
      const canDeclare = view.phase !== "peek" && declare.has(slot);
      const classes = `slot${face ? " face" : ""}${showing ? " revealed" : ""}${selected ? " selected" : ""}`;
      if (canPeek || canDeclare) {
        return el("button", {
          type: "button", class: classes, dataset: { slot: String(slot), mode: canPeek ? "peek" : "declare" },
          aria: { label: canPeek ? `Peek at ${label}` : `Name ${label}`, pressed: selected ? "true" : "false" },
          on: { click: () => (canPeek ? send({ type: "Peek", slot }) : select({ kind: "slot", slot })) },
        }, picture, el("span", { class: "slot-no", text: String(slot + 1) }));
      }
      return el("div", { class: classes, dataset: { slot: String(slot) }, aria: { label } },
        picture, el("span", { class: "slot-no", text: String(slot + 1) }));
    });
    replace(tableGrid, cells.length ? cells : el("p", { class: "muted", text: "No cards on the table." }));
  }

  function allowedCards() {
    const sel = state.selection;
    if (!sel) return new Set();
    if (sel.kind === "target") return new Set(legalOf("RequestCard").filter((a) => a.target === sel.seat).map((a) => a.card));
    return new Set(legalOf("DeclareCard").filter((a) => a.slot === sel.slot).map((a) => a.card));
  }

  function renderPicker(view) {
    const sel = state.selection;
    const allowed = allowedCards();
    const myTurn = legal().length > 0;
    if (ctx.readonly) hint.textContent = "A replay: step through it with the controls above.";
    else if (!myTurn) hint.textContent = ctx.seat === null ? "You are watching." : "Wait for your turn.";
    else if (view.phase === "peek") hint.textContent = "Pick a table card to peek at, or skip.";
    else if (!sel) hint.textContent = "Ask a player for a card (pick the player), or name a face-down table card (pick the slot).";
    else if (sel.kind === "target") hint.textContent = `Which card do you ask ${ctx.seatName(sel.seat)} for?`;
    else hint.textContent = `What is the card in slot ${sel.slot + 1}?`;
    const rows = ["S", "P", "A", "M"].map((pack) => el("div", { class: `picker-row pack-${pack}`, role: "group", aria: { label: PACKS[pack].plural } },
      IDS.filter((id) => id[0] === pack).map((id) => {
        const action = sel?.kind === "target" ? { type: "RequestCard", target: sel.seat, card: id }
          : sel?.kind === "slot" ? { type: "DeclareCard", slot: sel.slot, card: id } : null;
        const enabled = Boolean(action) && allowed.has(id);
        const verb = sel?.kind === "target" ? `Ask ${ctx.seatName(sel.seat)} for` : `Say slot ${(sel?.slot ?? 0) + 1} is`;
        return el("button", {
          type: "button", class: "pick", disabled: !enabled, dataset: { card: id, ...(enabled ? { action: JSON.stringify(action) } : {}) },
          aria: { label: enabled ? `${verb} ${cardWords(id)}` : cardWords(id) },
          on: { click: () => send(action) },
        }, adventureCard(id, { names: state.names }));
      })));
    replace(picker, rows);
    picker.hidden = !myTurn || view.phase === "peek";
    const pickerTitle = root.querySelector("#picker-title");
    pickerTitle.hidden = picker.hidden;
    // The question itself above the picker (on a phone the hint has scrolled away by now).
    pickerTitle.textContent = sel ? hint.textContent : "Name a card";
  }

  function renderExtra(view) {
    const buttons = [];
    if (legalOf("SkipPeek").length) {
      buttons.push(el("button", { type: "button", class: "btn", id: "skip-peek", dataset: { action: JSON.stringify({ type: "SkipPeek" }) }, text: "Skip the peek", on: { click: () => send({ type: "SkipPeek" }) } }));
    }
    for (const a of legalOf("ClaimMission")) {
      buttons.push(el("button", { type: "button", class: "btn primary", dataset: { action: JSON.stringify(a) }, text: `Claim mission ${a.mission + 1}`, on: { click: () => send(a) } }));
    }
    if (legalOf("PassTurn").length) {
      buttons.push(el("button", { type: "button", class: "btn", dataset: { action: JSON.stringify({ type: "PassTurn" }) }, text: "Pass (no move is open)", on: { click: () => send({ type: "PassTurn" }) } }));
    }
    if (state.selection) {
      buttons.push(el("button", { type: "button", class: "btn secondary", id: "cancel-choice", text: "Change my choice", on: { click: () => select(null) } }));
    }
    replace(extra, buttons);
  }

  function renderHand(view) {
    const cards = view.hand || [];
    if (ctx.seat === null) {
      replace(hand, el("p", { class: "muted", text: "Watchers see no hand." }));
      return;
    }
    replace(hand, cards.length
      ? cards.map((id) => el("div", { class: "hand-card", role: "listitem", dataset: { card: id } }, adventureCard(id, { names: state.names })))
      : el("p", { class: "muted", text: "No test-cards in hand: you may still ask and name cards." }));
  }

  function renderMissions(msg, view) {
    const claimed = view.claimed_by || [];
    replace(missions, (view.missions || []).map((group, m) => {
      const owner = claimed[m];
      const title = owner === null || owner === undefined ? `Mission ${m + 1}` : `Mission ${m + 1}: done by ${name(owner)}`;
      return el("div", { class: `mission${owner === null || owner === undefined ? "" : " claimed"}`, dataset: { mission: String(m) }, role: "group", aria: { label: title } },
        el("div", { class: "mission-title small", text: title }),
        el("div", { class: "mission-cards" }, group.map((id) => adventureCard(id, { names: state.names, mission: true }))));
    }));
  }

  // -- the recap and the full log in words ------------------------------------------------------
  function seatNames() {
    const n = state.msg?.view?.players || (state.msg?.seats || []).length;
    return Array.from({ length: n }, (_, s) => ctx.seatName(s));
  }

  function allEvents() {
    return [...state.events.keys()].sort((a, b) => a - b).flatMap((k) => state.events.get(k));
  }

  function line(e, priv) {
    return eventText(e, seatNames(), ctx.seat, { cards: state.names, priv });
  }

  function logItem(e, text) {
    const actor = eventActor(e);
    return el("li", {
      class: e.type === "TurnPassed" ? "turn-passed" : e.type === "PeekSeen" ? "private" : "",
      dataset: { index: String(e.index ?? -1), type: e.type, seat: actor === null ? "" : String(actor) },
      text,
    });
  }

  function renderRecap() {
    const items = sinceLastTurn(allEvents(), ctx.seat).map((e) => [e, line(e, false)]).filter(([, t]) => t);
    replace(recap, items.length ? items.map(([e, t]) => logItem(e, t))
      : el("li", { class: "muted empty", text: "Nothing yet." }));
  }

  function renderLog() {
    const names = seatNames();
    const options = [["all", "everyone"], ...names.map((n, s) => [String(s), s === ctx.seat ? "you" : n])];
    const key = JSON.stringify(options);
    if (state.filterKey !== key) { // a seat's name can change (a person claimed it)
      state.filterKey = key;
      replace(logFilter, options.map(([value, label]) => el("option", { value, text: label })));
    }
    logFilter.value = state.filter;
    const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    const items = allEvents()
      .filter((e) => state.filter === "all" || String(eventActor(e)) === state.filter)
      .map((e) => [e, line(e, true)]).filter(([, t]) => t);
    replace(log, items.length ? items.map(([e, t]) => logItem(e, t))
      : el("li", { class: "muted empty", text: "No moves yet." }));
    // Follow the game unless the person scrolled back to read.
    if (atEnd || !state.logSeen) log.scrollTop = log.scrollHeight;
    state.logSeen = true;
  }

  function chip(id, label) {
    return el("span", { class: `chip chip-${id[0]}`, role: "listitem", title: label, aria: { label }, text: id });
  }

  function renderDock(view) {
    const cards = view.hand || [];
    replace(dockHand, el("span", { class: "dock-label small", aria: { hidden: "true" }, text: ctx.seat === null ? "Watching" : "Hand" }),
      ctx.seat === null ? null : cards.length
        ? el("span", { class: "dock-cards", role: "list", aria: { label: "Your hand, at a glance" } }, cards.map((id) => chip(id, cardName(id, state.names))))
        : el("span", { class: "muted small", text: "no cards in hand" }));
    const claimed = view.claimed_by || [];
    replace(dockMissions, (view.missions || []).map((group, m) => {
      const owner = claimed[m];
      const done = owner !== null && owner !== undefined;
      const label = `Mission ${m + 1}${done ? `: done by ${name(owner)}` : ""}: ${group.map((id) => cardName(id, state.names)).join(", ")}`;
      return el("span", { class: `dock-mission${done ? " claimed" : ""}`, role: "listitem", dataset: { mission: String(m) }, aria: { label }, title: label },
        el("span", { class: "dock-no", aria: { hidden: "true" }, text: String(m + 1) }),
        group.map((id) => el("span", { class: `chip chip-${id[0]}`, aria: { hidden: "true" }, text: id })));
    }));
  }

  function renderMemory(view) {
    if (!state.aid) {
      memory.hidden = true;
      return;
    }
    // Holder tracking for learners: who was last seen taking each card.
    const holder = new Map();
    for (const k of [...state.events.keys()].sort((a, b) => a - b)) {
      for (const e of state.events.get(k)) {
        if (e.type === "RequestGranted") holder.set(e.card, e.requester);
        if (e.type === "CardDeclared" && e.correct) holder.set(e.card, e.seat);
        if (e.type === "MissionClaimed") for (const id of e.cards) holder.delete(id);
      }
    }
    const items = [...holder.entries()].map(([id, s]) => el("li", { text: `${cardWords(id)}: ${name(s)}` }));
    replace(memory, el("h3", { text: "Seen going to" }), items.length ? el("ul", { class: "small" }, items) : el("p", { class: "muted small", text: "Nothing yet." }));
    memory.hidden = false;
  }

  // -- selection and reveals ------------------------------------------------------------------------
  function select(selection) {
    state.selection = selection;
    showError(errorBox, null);
    render();
    // Keep the keyboard flowing: after picking a player or a slot, go to the card picker.
    if (!selection) return;
    const phone = window.matchMedia?.("(max-width: 700px)").matches;
    picker.querySelector("button.pick:not([disabled])")?.focus({ preventScroll: phone });
    // On a phone, the picker's top goes to the top of the screen: the dock below keeps the hand
    // and the missions in view, so nobody scrolls back and forth before a request.
    if (phone) root.querySelector("#picker-title")?.scrollIntoView({ block: "start" });
  }

  function fresh(msg) {
    // Events new to this page (none on the first snapshot: a reconnect does not replay them).
    if (state.lastCount === null) return [];
    return (msg.events || []).filter((e) => (e.index ?? -1) >= state.lastCount);
  }

  function speak(events) {
    const lines = events.map((e) => line(e, true)).filter(Boolean);
    if (lines.length) announce.textContent = lines.join(" ");
  }

  function place(key) {
    const [kind, raw] = key.split(":");
    const n = CSS.escape(raw);
    const shown = (node) => (node && node.getClientRects().length ? node : null);
    if (kind === "seat" && Number(raw) === ctx.seat) return shown(dockHand) || shown(hand);
    if (kind === "seat") return shown(players.querySelector(`[data-seat="${n}"]`));
    if (kind === "slot") return shown(tableGrid.querySelector(`[data-slot="${n}"]`));
    return shown(dockMissions.querySelector(`[data-mission="${n}"]`)) || shown(missions.querySelector(`[data-mission="${n}"]`));
  }

  function noteReveals(msg) {
    // Only events that are new to this page animate; a reconnect snapshot does not replay them.
    if (state.lastCount === null) return;
    for (const e of msg.events || []) {
      if ((e.index ?? -1) < state.lastCount) continue;
      if (e.type === "CardDeclared") remember(e.slot, e.revealed_card);
      if (e.type === "PeekSeen" && e.seat === ctx.seat) remember(e.slot, e.card);
    }
  }

  function remember(slot, card) {
    const until = Date.now() + REVEAL_MS;
    state.reveals.set(slot, { card, until });
    setTimeout(() => {
      const r = state.reveals.get(slot);
      if (r && r.until <= Date.now() + 5) {
        state.reveals.delete(slot);
        render();
      }
    }, REVEAL_MS + 10);
  }

  function absorb(msg) {
    // A replay hands over every event up to the step shown: stepping back must forget the rest.
    if (ctx.readonly) state.events.clear();
    for (const [k, list] of groupByIndex(msg.events)) state.events.set(k, list);
  }

  return {
    render(msg) {
      const news = fresh(msg);
      noteReveals(msg);
      absorb(msg);
      state.lastCount = msg.index ?? 0;
      state.msg = msg;
      const sel = state.selection;
      // Drop a selection that is no longer open (the turn moved on).
      if (sel && !(sel.kind === "target" ? legalOf("RequestCard").some((a) => a.target === sel.seat) : legalOf("DeclareCard").some((a) => a.slot === sel.slot))) {
        state.selection = null;
      }
      if (msg.type === "update") showError(errorBox, null);
      render();
      speak(news);
      state.moves += playMoves(cardMoves(news), place, (id) => adventureCard(id, { names: state.names }));
      root.dataset.cardMoves = String(state.moves);
    },
  };
}

function readAid() {
  try {
    return localStorage.getItem(AID_KEY) === "1";
  } catch (err) {
    return false;
  }
}

async function loadNames() {
  // Card names come from the server's description of the game when it offers them.
  try {
    const info = await api("GET", "/api/options/adventure");
    const cards = info?.cards;
    if (Array.isArray(cards)) return Object.fromEntries(cards.map((c) => [c.id, c.name]));
    if (cards && typeof cards === "object") return Object.fromEntries(Object.entries(cards).map(([id, c]) => [id, typeof c === "string" ? c : c?.name]));
  } catch (err) {
    /* names are a nicety */
  }
  return null;
}

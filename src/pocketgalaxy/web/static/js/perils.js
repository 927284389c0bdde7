// The Perils & Pathways table. The Hero sees the pathway descriptions, the round's sense, their
// skills, health and items; chooses an archetype and pathways; writes a plan (channel a skill,
// commit items) and rolls. The Teller sees the cards behind the pathways, writes descriptions
// (the computer's suggestion one click away) and, with teller_policy "human", judges plans.
// Every text a person typed is shown with textContent only.

import { cardBack, cardLabel, parseCode, playingCard, suitSymbol } from "./cards.js";
import { api, el, groupByIndex, keepFocus, replace, showError } from "./util.js";
import { judgeDefaults, judgementBlock, rubricSummary } from "./perils_judgement.js";
import { createRollPanel, rollOf } from "./perils_roll.js";
import { mazeBlock } from "./perils_maze.js";
import { heroParts, suitGlyph } from "./perils_hero.js";

// Why a game was lost, in words (the rules report a stable reason code).
const LOSS_REASONS = {
  zero_health_in_showdown: "health ran out in the showdown",
  big_bad_not_defeated: "a Big Bad was not defeated",
};

// A theme text is a whole sentence: close it with `mark` only when it has no mark of its own
// (the same rule as games/perils/story.py end_sentence; "mapped.!" came from adding one blindly).
export function endSentence(text, mark = ".") {
  const t = String(text).trimEnd();
  return /[.!?\u2026]$/.test(t) ? t : `${t}${mark}`;
}

const MAX_DESCRIPTION = 400;
const MAX_PLAN = 2000;
const POSITION_NAMES = { 2: ["left", "right"], 3: ["left", "straight on", "right"] };
const SENSE_WORDS = {
  sight: "Sight: describe only what can be seen",
  sound: "Sound: describe only what can be heard",
  smell: "Smell: describe only what can be smelt",
};
// What the Hero and watchers read about the round's sense (the instruction above is the Teller's).
const TOLD_WORDS = {
  sight: "Sight: the pathways are told by what can be seen",
  sound: "Sound: the pathways are told by what can be heard",
  smell: "Smell: the pathways are told by what can be smelt",
};
// "Your move: ..." in the mover's own words.
const YOUR_MOVE = {
  archetype: "choose your archetype",
  describe: "describe the pathways",
  choose: "take a pathway",
  plan: "make your plan",
  judge: "judge the Hero's plan",
  roll: "roll the die",
  lose_levels: "choose the skill levels to lose",
  shuffle_back: "pick the cards that go back",
};
const PHASE_WORDS = {
  archetype: "The Hero chooses an archetype",
  describe: "The Teller describes the pathways",
  choose: "The Hero chooses a pathway",
  plan: "The Hero makes a plan",
  judge: "The Teller judges the plan",
  roll: "The Hero rolls",
  lose_levels: "Zero health: skill levels are lost",
  shuffle_back: "Zero health: the Teller picks the cards that go back",
  over: "The adventure is over",
};

export function createTable(root, ctx) {
  const state = {
    msg: null,
    drafts: new Map(), // "round:position" -> description text being written
    plan: { text: "", channel: null, items: new Set(), key: null },
    judge: { channel: true, items: new Set(), advantage: false, key: null },
    events: new Map(),
    themes: null,
    seenIndex: null, // the highest action index already shown (null before the first message)
    itemNames: new Map(), // item code -> name, remembered (a spent item leaves the view)
  };

  const status = el("p", { class: "turn-status", id: "turn-status", role: "status", tabindex: "-1", aria: { live: "polite" } });
  const senseLine = el("p", { class: "sense-line" });
  const errorBox = el("div", { class: "error-box", role: "alert", hidden: true, id: "action-error" });
  ctx.errorBox = errorBox;
  const current = el("div", { class: "current", id: "current" });
  const pathways = el("div", { class: "pathways", id: "pathways" });
  const controls = el("div", { class: "controls", id: "controls" });
  const hero = el("div", { class: "hero", id: "hero" });
  const tableInfo = el("div", { class: "table-info", id: "table-info" });
  const log = el("ol", { class: "log", id: "log", aria: { label: "What happened" } });
  // New events and narration, read out politely by screen readers (the log itself is silent).
  const announcer = el("div", { class: "visually-hidden", id: "pp-announce", aria: { live: "polite", atomic: "false" } });
  const rollPanel = createRollPanel({
    skillName: (suit) => skillName(suit),
    itemName: (code) => itemName(code),
    isHero: () => ctx.seat === 0 && !ctx.readonly,
    strict: () => view().options?.success_comparison === ">",
    // The verdict joins what the live region is reading (after the die stops, with motion).
    onAnnounce: (text) => { announcer.textContent = `${announcer.textContent} ${text}`.trim(); },
  });
  const mainTitle = el("h2", { id: "main-title", text: "The way ahead" });

  replace(root,
    el("div", { class: "pp-layout" },
      el("section", { class: "panel area-status", aria: { label: "Round" } }, status, senseLine),
      el("section", { class: "panel area-main", aria: { labelledby: "main-title" } },
        mainTitle, rollPanel.node,
        current, pathways, errorBox, controls),
      el("section", { class: "panel area-hero", aria: { labelledby: "hero-title" } },
        el("h2", { id: "hero-title", text: "The Hero" }), hero),
      el("section", { class: "panel area-table", aria: { labelledby: "table-title" } },
        el("h2", { id: "table-title", text: "The table" }), tableInfo),
      el("section", { class: "panel area-log", aria: { labelledby: "log-title" } },
        el("h2", { id: "log-title", text: "Log" }), log)), announcer);

  api("GET", "/api/themes").then((data) => {
    state.themes = Array.isArray(data) ? data : data?.themes || Object.entries(data || {}).map(([id, t]) => ({ id, ...t }));
    if (state.msg) render();
  }).catch(() => {});

  // -- helpers ------------------------------------------------------------------------------------
  const view = () => state.msg?.view || {};
  const legal = () => state.msg?.legal || [];
  const legalOf = (type) => legal().filter((a) => a.type === type);
  const isTeller = () => ctx.seat === 1;
  const isHero = () => ctx.seat === 0;
  const roleName = (seat) => (seat === 0 ? "Hero" : seat === 1 ? "Teller" : "someone");
  const who = (seat) => {
    if (seat === ctx.seat) return "You";
    const n = ctx.seatName(seat);
    return `${n} (${roleName(seat)})`;
  };

  function theme() {
    const id = view().theme;
    return (state.themes || []).find((t) => t.id === id) || null;
  }

  function archetypeInfo(id) {
    return (theme()?.archetypes || []).find((a) => a.id === id) || null;
  }

  function skillName(suit) {
    const s = (view().skills || []).find((k) => k.suit === suit);
    return s?.name || suitSymbol(suit);
  }

  function itemName(code) {
    const name = state.itemNames.get(code);
    return name ? `${name} (${cardLabel(code)})` : cardLabel(code);
  }

  const heartIsSkill = () => Boolean(view().options?.heart_is_skill);

  function positionName(i, count) {
    const names = POSITION_NAMES[count];
    return names ? names[i] : `#${i + 1}`;
  }

  function send(action) {
    const known = legal().some((a) => a.type === action.type);
    if (!known) {
      showError(errorBox, { code: "action/not_legal", message: "That move is not open to you now." });
      return false;
    }
    return ctx.act(action);
  }

  function actionButton(label, action, { cls = "btn", id, aria } = {}) {
    return el("button", {
      type: "button", class: cls, id, dataset: { action: JSON.stringify(action) }, aria: aria ? { label: aria } : undefined,
      text: label, on: { click: () => send(action) },
    });
  }

  // -- rendering ----------------------------------------------------------------------------------
  function render() {
    if (!state.msg) return;
    keepFocus(root, draw, () => controls.querySelector("button, textarea, input") || pathways.querySelector("button, textarea") || status);
  }

  function draw() {
    const v = view();
    const msg = state.msg;
    root.dataset.phase = v.phase || "";
    root.dataset.role = v.role || "";
    // Rounds count from 1 (the rules' own count); before the first one there is no round yet.
    const stage = v.stage === "showdown" ? `Showdown, round ${v.round}` : v.round ? `Round ${v.round}` : "Setting out";
    let turn;
    if (msg.status === "over") turn = "The adventure is over.";
    else if (legal().length) turn = `Your move: ${YOUR_MOVE[v.phase] || PHASE_WORDS[v.phase]?.toLowerCase() || v.phase}.`;
    else turn = `${PHASE_WORDS[v.phase] || v.phase}${v.to_act === null || v.to_act === undefined ? "" : ` (${ctx.seatName(v.to_act)})`}.`;
    status.textContent = `${stage}. ${turn}`;
    const senseWords = v.role === "teller" ? SENSE_WORDS : TOLD_WORDS;
    replace(senseLine, v.sense ? el("span", { class: "sense", text: senseWords[v.sense] || v.sense }) : null,
      " ", el("span", { class: "muted small", text: `${v.theme_title || ""}${v.role ? `; you are ${v.role === "watcher" ? "watching" : `the ${v.role}`}` : ""}` }));
    mainTitle.textContent = v.phase === "over" ? "The maze" : "The way ahead";
    renderCurrent(v);
    renderPathways(v);
    renderControls(v);
    renderHero(v);
    renderTable(v);
    renderLog();
  }

  function renderCurrent(v) {
    if (v.phase === "over") {
      replace(current, mazeBlock(v, orderedEvents()));
      return;
    }
    if (!v.current) {
      replace(current);
      return;
    }
    // The computer Teller's words travel in the CardRevealed event: the same on every shell.
    const story = revealedStory(v.current);
    let text = story;
    if (!text) {
      const kind = { peril: "a peril", gift: "a healing gift", item: "a useful item", big_bad: "a Big Bad" }[v.current_kind] || v.current_kind;
      const bits = [`It is ${cardLabel(v.current)}: ${kind}`];
      if (v.difficulty) bits.push(`, difficulty ${v.difficulty}`);
      if (v.current_kind === "peril" || v.current_kind === "big_bad") bits.push(`, testing ${skillName(v.current.slice(-1))}`);
      text = `${bits.join("")}.`;
    }
    replace(current, playingCard(v.current), el("p", { class: "story", text }), oddsLine(v), renderPlan(v));
  }

  // What the die must show, and the chance (games/perils/odds.py: the same line as the terminal).
  function oddsLine(v) {
    const odds = v.odds;
    if (!odds) return null;
    const hopeless = (odds.best || odds.now).impossible;
    return el("p", {
      class: `odds-line${hopeless ? " impossible" : ""}`, id: "odds-line",
      dataset: { needed: String(odds.now.needed ?? ""), bestNeeded: String(odds.best?.needed ?? ""), impossible: hopeless ? "1" : "0" },
    }, el("strong", { text: hopeless ? "No chance: " : "To succeed: " }), odds.words);
  }

  function revealedStory(code) {
    const keys = [...state.events.keys()].sort((a, b) => b - a);
    for (const k of keys) {
      for (const e of state.events.get(k)) {
        if (e.type === "CardRevealed" && e.card === code && e.story) return e.story;
      }
    }
    return "";
  }

  function renderPlan(v) {
    const p = v.plan;
    if (!p) return null;
    const sources = [];
    if (p.channel) sources.push(`channel ${skillName(p.channel)}${p.judged ? (p.approve_channel ? " (+1)" : " (refused)") : ""}`);
    for (const code of p.items || []) sources.push(`${itemName(code)}${p.judged ? ((p.approve_items || []).includes(code) ? " (+1)" : " (refused)") : ""}`);
    const out = el("div", { class: "plan" },
      el("p", { text: `Plan: ${sources.length ? sources.join(", ") : "no bonus sources"}.` }));
    if (p.text) out.append(el("p", { class: "plan-text", text: p.text }));
    if (p.judged) out.append(el("p", { text: `Judged: +${p.bonus}${p.advantage ? ", roll twice and keep the higher" : ""}.` }));
    if (p.reasons) out.append(judgementBlock(p.reasons, p.judged) || "");
    if (p.rolls && p.rolls.length) out.append(el("p", { class: "dice", text: `Dice: ${p.rolls.join(" ")}` }));
    return out;
  }

  function renderPathways(v) {
    const list = v.pathways || [];
    if (!list.length) {
      replace(pathways);
      return;
    }
    const describing = v.phase === "describe" && legalOf("DescribePathways").length > 0;
    const chooseActions = new Map(legalOf("ChoosePathway").map((a) => [a.position, a]));
    const suggestions = v.suggestions || [];
    replace(pathways, list.map((p) => {
      const i = p.position;
      const title = `Pathway ${i + 1} (${positionName(i, list.length)})`;
      const picture = p.face ? playingCard(p.face, { label: `${title}: ${cardLabel(p.face)}` }) : cardBack({ label: `${title}: face down` });
      const body = [el("p", { class: "pw-title", text: title })];
      if (p.face) body.push(el("p", { class: "muted small", text: `Behind it: ${cardLabel(p.face)}` }));
      const children = [picture, el("div", {}, ...body)];
      if (describing) {
        const key = `${v.round}:${v.stage}:${i}`;
        const area = el("textarea", {
          id: `desc-${i}`, maxlength: MAX_DESCRIPTION, rows: 3,
          aria: { label: `Description of pathway ${i + 1}, by ${v.sense || "sense"}` },
          placeholder: SENSE_WORDS[v.sense] || "Describe this pathway",
        });
        area.value = state.drafts.get(key) || "";
        const count = el("span", { class: "char-count", text: `${area.value.length}/${MAX_DESCRIPTION}` });
        area.addEventListener("input", () => {
          state.drafts.set(key, area.value);
          count.textContent = `${area.value.length}/${MAX_DESCRIPTION}`;
        });
        const suggestion = suggestions[i];
        const controlsBox = el("div", { class: "pw-controls" }, area, count);
        if (suggestion) {
          controlsBox.append(el("button", {
            type: "button", class: "btn secondary suggest", dataset: { focusKey: `suggest-${i}` },
            aria: { label: `Use the suggested description for pathway ${i + 1}` },
            text: "Use the suggestion",
            on: { click: () => { state.drafts.set(key, suggestion); area.value = suggestion; count.textContent = `${suggestion.length}/${MAX_DESCRIPTION}`; area.focus(); } },
          }), el("p", { class: "muted small", text: `Suggestion: ${suggestion}` }));
        }
        children.push(controlsBox);
      } else {
        children[1].append(el("p", { class: "desc", text: p.description || "(not described yet)" }));
      }
      if (chooseActions.has(i)) {
        children.push(el("div", { class: "pw-controls" }, actionButton(`Take pathway ${i + 1}`, chooseActions.get(i), { cls: "btn primary" })));
      }
      return el("article", { class: "pathway", dataset: { position: String(i) }, aria: { label: title } }, ...children);
    }));
  }

  function renderControls(v) {
    const parts = [];
    if (legalOf("ChooseArchetype").length) parts.push(archetypeControls());
    if (v.phase === "describe" && legalOf("DescribePathways").length) parts.push(describeControls(v));
    if (legalOf("MakePlan").length) parts.push(planControls(v));
    if (legalOf("JudgePlan").length) parts.push(judgeControls(v));
    if (legalOf("Roll").length) parts.push(actionButton(v.plan?.advantage ? "Roll two dice (keep the higher)" : "Roll the die", { type: "Roll" }, { cls: "btn primary", id: "roll" }));
    if (legalOf("ChooseLostLevels").length) parts.push(choiceList("Choose the skill levels to lose", legalOf("ChooseLostLevels"), v.levels_to_lose));
    if (legalOf("ChooseShuffleBack").length) parts.push(choiceList("Choose the lost cards that go back into the stack", legalOf("ChooseShuffleBack")));
    if (!parts.length && state.msg.status !== "over" && ctx.seat !== null && !ctx.readonly) {
      // Choosing a pathway happens on the pathways themselves: say so rather than "waiting".
      if (legalOf("ChoosePathway").length) parts.push(el("p", { class: "hint", id: "your-move-hint", text: "Your move: take one of the pathways above." }));
      else if (v.to_act === ctx.seat && !legal().length) parts.push(el("p", { class: "muted", text: "Your move is being recorded\u2026" }));
      else if (v.to_act !== ctx.seat) parts.push(el("p", { class: "muted", text: `Waiting for ${ctx.seatName(v.to_act)} (${roleName(v.to_act)})\u2026` }));
    }
    replace(controls, parts);
  }

  function archetypeControls() {
    const box = el("div", { class: "archetypes", role: "group", aria: { label: "Archetypes" } });
    for (const a of legalOf("ChooseArchetype")) {
      const info = archetypeInfo(a.archetype);
      const btn = el("button", {
        type: "button", class: "btn archetype", dataset: { action: JSON.stringify(a) },
        on: { click: () => send(a) },
      }, el("strong", { text: info?.name || a.archetype }));
      if (info?.cards) btn.append(el("span", { class: "small", text: archetypeCards(info) }));
      if (info?.blurb) btn.append(el("span", { class: "blurb", text: info.blurb }));
      box.append(btn);
    }
    return el("div", {}, el("h3", { text: "Choose your archetype" }), box);
  }

  // "Strength 2♦ · Agility 4♣ · Piloting 6♠ · heart card 3♥": the heart card named as what it
  // is, so its number never reads as health (health starts at the game's start_health).
  function archetypeCards(info) {
    const codes = (Array.isArray(info.cards) ? info.cards : Object.values(info.cards)).map(String);
    const names = theme()?.skills || {};
    return codes.map((c) => {
      const suit = parseCode(c).suit;
      const name = suit === "H" && !heartIsSkill() ? "heart card" : (names[suit]?.name || names[suit] || "");
      return `${name} ${cardLabel(c)}`.trim();
    }).join(" \u00b7 ");
  }

  function describeControls(v) {
    const count = (v.pathways || []).length;
    const suggestions = v.suggestions || [];
    const readDrafts = () => Array.from({ length: count }, (_, i) => (state.drafts.get(`${v.round}:${v.stage}:${i}`) || "").trim());
    const send_ = () => {
      const descriptions = readDrafts();
      const missing = descriptions.findIndex((d) => !d);
      if (missing >= 0) {
        showError(errorBox, { code: "describe/empty", message: `Pathway ${missing + 1} needs a description.` });
        document.getElementById(`desc-${missing}`)?.focus();
        return;
      }
      send({ type: "DescribePathways", descriptions });
    };
    const row = el("div", { class: "check-row" });
    if (suggestions.length) {
      row.append(el("button", {
        type: "button", class: "btn", id: "use-suggestions", text: "Use all suggestions",
        on: {
          click: () => {
            suggestions.forEach((s, i) => state.drafts.set(`${v.round}:${v.stage}:${i}`, s));
            render();
            document.getElementById("send-descriptions")?.focus();
          },
        },
      }));
    }
    row.append(el("button", { type: "button", class: "btn primary", id: "send-descriptions", dataset: { action: JSON.stringify({ type: "DescribePathways" }) }, text: "Send the descriptions", on: { click: send_ } }));
    return el("div", {}, el("p", { class: "muted small", text: `${SENSE_WORDS[v.sense] || ""}. Hint at each card without giving it away.` }), row);
  }

  function planControls(v) {
    const options = legalOf("MakePlan");
    const key = `${state.msg.index}`;
    if (state.plan.key !== key) state.plan = { text: "", channel: null, items: new Set(), key };
    const channels = [...new Set(options.map((a) => a.channel ?? null))];
    const items = [...new Set(options.flatMap((a) => a.items || []))];
    const channelSet = el("fieldset", {}, el("legend", { text: "Channel one other skill (+1)" }),
      channels.map((c) => {
        const id = `channel-${c ?? "none"}`;
        const input = el("input", { type: "radio", name: "channel", id, value: c ?? "", checked: (state.plan.channel ?? null) === c });
        input.addEventListener("change", () => { state.plan.channel = c; });
        const label = c ? el("label", { for: id }, `${skillName(c)} (`, suitGlyph(c), el("span", { class: "visually-hidden", text: suitSymbol(c) }), ")") : el("label", { for: id, text: "no skill" });
        return el("div", { class: "check-row" }, input, label);
      }));
    const itemSet = el("fieldset", {}, el("legend", { text: "Use items (+1 each, spent after the roll)" }),
      items.length ? items.map((code) => {
        const id = `item-${code}`;
        const input = el("input", { type: "checkbox", id, value: code, checked: state.plan.items.has(code) });
        input.addEventListener("change", () => { if (input.checked) state.plan.items.add(code); else state.plan.items.delete(code); });
        return el("div", { class: "check-row" }, input, el("label", { for: id, text: itemName(code) }));
      }) : el("p", { class: "muted small", text: "No items to use." }));
    const area = el("textarea", { id: "plan-text", maxlength: MAX_PLAN, rows: 4, aria: { label: "Your plan, in words" }, placeholder: "Tell the Teller how you get through: what you do, and how you use each item." });
    area.value = state.plan.text;
    area.addEventListener("input", () => { state.plan.text = area.value; });
    const submit = el("button", {
      type: "button", class: "btn primary", id: "make-plan", dataset: { action: JSON.stringify({ type: "MakePlan" }) }, text: "Make the plan",
      on: {
        click: () => send({ type: "MakePlan", channel: state.plan.channel, items: items.filter((c) => state.plan.items.has(c)), plan: state.plan.text.trim() }),
      },
    });
    return el("div", {}, el("h3", { text: `Your plan against difficulty ${v.difficulty ?? "?"}` }), channelSet, itemSet,
      el("label", { for: "plan-text", text: "The plan" }), el("p", { class: "muted small", id: "plan-rubric", text: rubricSummary(v.options?.advantage_threshold ?? null) }), area, submit);
  }

  function judgeControls(v) {
    const p = v.plan || { items: [] };
    const key = `${state.msg.index}`;
    if (state.judge.key !== key) state.judge = judgeDefaults(p, key);
    const toggle = (label, pressed, onToggle, focusKey) => {
      const btn = el("button", { type: "button", class: "btn", dataset: { focusKey }, aria: { pressed: pressed ? "true" : "false" }, text: label });
      btn.addEventListener("click", () => {
        onToggle();
        render();
      });
      return btn;
    };
    const buttons = el("div", { class: "judge-buttons", role: "group", aria: { label: "Approve each bonus" } });
    if (p.channel) buttons.append(toggle(`+1 ${skillName(p.channel)}`, state.judge.channel, () => { state.judge.channel = !state.judge.channel; }, "judge-channel"));
    for (const code of p.items || []) {
      buttons.append(toggle(`+1 ${itemName(code)}`, state.judge.items.has(code), () => {
        if (state.judge.items.has(code)) state.judge.items.delete(code); else state.judge.items.add(code);
      }, `judge-item-${code}`));
    }
    const canAdvantage = legalOf("JudgePlan").some((a) => a.advantage);
    if (canAdvantage) buttons.append(toggle("Roll twice (advantage)", state.judge.advantage, () => { state.judge.advantage = !state.judge.advantage; }, "judge-advantage"));
    const submit = el("button", {
      type: "button", class: "btn primary", id: "judge-plan", dataset: { action: JSON.stringify({ type: "JudgePlan" }) }, text: "Give the judgement",
      on: {
        click: () => send({
          type: "JudgePlan", approve_channel: Boolean(p.channel) && state.judge.channel,
          approve_items: (p.items || []).filter((c) => state.judge.items.has(c)), advantage: state.judge.advantage,
        }),
      },
    });
    return el("div", {}, el("h3", { text: "Judge the Hero's plan" }),
      el("p", { class: "muted small", text: "Press each bonus the plan earns; pressed ones count +1." }), buttons, submit);
  }

  function choiceList(title, actions, count) {
    const box = el("div", { class: "judge-buttons", role: "group", aria: { label: title } });
    for (const a of actions.slice(0, 40)) {
      const label = a.cards.length ? a.cards.map(cardLabel).join(", ") : "none";
      box.append(actionButton(label, a, { aria: `${title}: ${a.cards.length ? a.cards.map(cardLabel).join(", ") : "none"}` }));
    }
    return el("div", {}, el("h3", { text: count ? `${title} (${count})` : title }), box);
  }

  function renderHero(v) {
    const arch = v.archetype ? (v.archetype_name || archetypeInfo(v.archetype)?.name || v.archetype) : "not chosen yet";
    replace(hero, heroParts(v, arch, heartIsSkill()));
  }

  function renderTable(v) {
    const t = v.table || {};
    const parts = [el("div", { class: "table-counts" },
      el("span", { text: `Stack: ${v.draw_count ?? 0} cards` }),
      el("span", { text: `Big Bads ahead: ${v.big_bads_remaining ?? 0}` }),
      el("span", { text: `Not taken: ${t.unchosen ?? 0}` }),
      el("span", { text: `Spent: ${t.spent ?? 0}` }),
      el("span", { text: `Discarded: ${t.discarded ?? 0}` }))];
    if (v.prize) parts.push(el("p", { class: "small", text: `The Prize: ${v.prize}` }));
    if ((v.big_bads_defeated || []).length) parts.push(el("p", { class: "small", text: `Big Bads beaten: ${v.big_bads_defeated.map(cardLabel).join(", ")}` }));
    if ((v.big_bads_failed || []).length) parts.push(el("p", { class: "small", text: `Big Bads that hurt: ${v.big_bads_failed.map(cardLabel).join(", ")}` }));
    if (v.unchosen_faces && v.unchosen_faces.length) {
      parts.push(el("p", { class: "small muted", text: "Pathways not taken:" }), el("div", { class: "mini-cards" }, v.unchosen_faces.map((c) => playingCard(c))));
    }
    replace(tableInfo, parts);
  }

  // -- the log in words -----------------------------------------------------------------------------
  function words(e) {
    const L = cardLabel;
    if (e.story) return e.story; // the computer Teller's words for this moment (story.py)
    switch (e.type) {
      case "ArchetypeChosen": return `The Hero became the ${archetypeInfo(e.archetype)?.name || e.archetype} (${e.cards.map(L).join(" ")}), with ${e.health} health.`;
      case "PathwaysDealt": return `You looked at the next ${e.cards.length} cards: ${e.cards.map(L).join(", ")}.`;
      case "PathwaysLaid": return `${e.stage === "showdown" ? "Showdown" : `Round ${e.round}`}: ${e.count} pathway${e.count === 1 ? "" : "s"} ahead, told by ${e.sense}.`;
      case "PathwaysDescribed": return e.descriptions.map((d, i) => `Pathway ${i + 1}: \u201c${d}\u201d`).join("  ");
      case "PathwayChosen": return e.automatic ? `Only one way on: pathway ${e.position + 1}.` : `The Hero took pathway ${e.position + 1}.`;
      case "CardRevealed": return `It was the ${L(e.card)}: ${{ peril: "a peril", gift: "a healing gift", item: "a useful item", big_bad: "a Big Bad" }[e.kind] || e.kind}${e.difficulty ? ` (difficulty ${e.difficulty})` : ""}.`;
      case "UnchosenRevealed": return `The pathways not taken were ${e.cards.map(L).join(", ")}.`;
      case "LeftoverDiscarded": return `${e.count} leftover card${e.count === 1 ? " was" : "s were"} set aside.`;
      case "PerilPassed": return `Skill ${e.level} beats difficulty ${e.difficulty}: passed without a roll.`;
      case "PlanMade": {
        const bits = [];
        if (e.channel) bits.push(`channels ${skillName(e.channel)}`);
        if (e.items.length) bits.push(`uses ${e.items.map(itemName).join(", ")}`);
        return `The Hero ${bits.length ? bits.join(" and ") : "plans"}${e.plan ? `: \u201c${e.plan}\u201d` : "."}`;
      }
      case "PlanJudged": return `The plan earns +${e.bonus}${e.advantage ? " and a second die" : ""}${e.by ? ` (judged by ${e.by})` : ""}.`;
      case "DieRolled": return `Rolled ${e.values.join(" and ")}${e.advantage ? " (kept the higher)" : ""} + ${e.bonus} = ${e.total} against ${e.difficulty}.`;
      case "PerilSucceeded": return `Success! ${skillName(e.suit)} rises to ${e.level}.`;
      case "PerilFailed": return `Failed: the ${L(e.card)} leaves a wound.`;
      case "HealthLost": return `Health \u2212${e.amount}: now ${e.health}.`;
      case "HealthGained": return `Healed +${e.amount}: now ${e.health}.`;
      case "HealWasted": return `Already at full health: the gift is spent.`;
      case "ItemGained": return `Found an item: ${itemName(e.card)}.`;
      case "ItemsSpent": return `Used up: ${e.cards.map(L).join(", ")}.`;
      case "ZeroHealth": return "Zero health!";
      case "ItemsLost": return e.cards.length ? `Lost every item: ${e.cards.map(L).join(", ")}.` : "No items to lose.";
      case "LevelsLost": return e.cards.length ? `Lost skill levels: ${e.cards.map(L).join(", ")}.` : "No gained levels to lose.";
      case "CardsShuffledBack": return `${e.cards.map(L).join(", ") || "No cards"} went back into the stack (${e.draw_count} cards now).`;
      case "CardsDiscarded": return e.cards.length ? `Discarded: ${e.cards.map(L).join(", ")}.` : null;
      case "HealthReset": return `Back on your feet with ${e.health} health.`;
      case "ShowdownBegan": return "The showdown begins: the Big Bads are here.";
      case "BigBadFaced": return `Big Bad ${L(e.card)}: ${e.result}. ${e.remaining} left.`;
      case "GameWon": return e.prize ? `The Hero won the Prize: ${endSentence(e.prize, "!")}` : "The Hero won the Prize!";
      case "GameLost": return `The Hero is lost: ${LOSS_REASONS[e.reason] || String(e.reason).replaceAll("_", " ")}.`;
      case "TurnTimedOut": return `Time ran out for ${ctx.seatName(e.seat)}: a computer player moved for them.`;
      default: return null;
    }
  }

  function orderedEvents() {
    const keys = [...state.events.keys()].sort((a, b) => a - b);
    return keys.flatMap((k) => state.events.get(k));
  }

  function renderLog() {
    const lines = orderedEvents().map(words).filter(Boolean);
    replace(log, lines.slice(-80).map((line) => el("li", { text: line })));
    log.scrollTop = log.scrollHeight;
  }

  function absorb(msg) {
    for (const [k, list] of groupByIndex(msg.events)) state.events.set(k, list);
  }

  // Groups newer than what this page already showed: the roll to present and lines to announce.
  function fresh(msg) {
    const before = state.seenIndex;
    const keys = [...groupByIndex(msg.events).keys()].filter((k) => before !== null && k > before).sort((a, b) => a - b);
    const top = Math.max(before ?? -1, ...[...state.events.keys()]);
    state.seenIndex = Number.isFinite(top) ? top : -1;
    return keys;
  }

  function announce(lines) {
    if (!lines.length) return;
    // Replace the text (not append): a polite region reads the new text once.
    announcer.textContent = lines.slice(-6).join(" ");
  }

  return {
    render(msg) {
      absorb(msg);
      for (const i of msg.view?.items || []) state.itemNames.set(i.code, i.name);
      const keys = fresh(msg);
      state.msg = msg;
      if (msg.type === "update") showError(errorBox, null);
      render();
      announce(keys.flatMap((k) => state.events.get(k) || []).map(words).filter(Boolean));
      const rolls = keys.map((k) => rollOf(state.events, k)).filter(Boolean);
      if (rolls.length) rollPanel.offer(rolls[rolls.length - 1]);
    },
    // The log lines, for the replay page.
    words,
  };
}


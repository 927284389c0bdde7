// A plan's judgement in words: what the rubric credits and why, source by source, and what the
// roll-twice needs. The same words as the terminal (cli/perils_judgement.py); a test runs both on
// the same reasons and compares. The input is the plain JSON of `plan.reasons` / `PlanJudged.reasons`.
// Every word a person typed is shown with textContent only.

const quoted = (words) => words.map((w) => `'${w}'`).join(", ");
const examples = (hints) => (hints && hints.length ? ` (words that count: ${hints.join(", ")})` : "");

const RUBRIC_SUMMARY = "A skill counts when the plan says what you do with it; an item when the plan says how you "
  + "use it, in the same sentence as its name. Names alone earn nothing.";

/** What the judge credits, and what the roll-twice needs, said before the plan is written. */
export function rubricSummary(threshold) {
  if (threshold === null || threshold === undefined) return `${RUBRIC_SUMMARY} There is no roll-twice in this game.`;
  return `${RUBRIC_SUMMARY} The roll-twice needs ${threshold} approved sources, the thing itself dealt with, `
    + "and 2 steps (sentences, or then / next / once ...).";
}

/** One source: "Agility: 'duck', 'roll' +1". */
export function sourceLine(source) {
  const { name, reason } = source;
  const plus = `+${source.value ?? 1}`;
  const words = source.words || [];
  const hints = source.hints || [];
  const skill = source.kind === "skill";
  if (reason === "used") return `${name}: ${quoted(words)} ${plus}`;
  if (reason === "approve_all") return `${name}: approved (every source is approved in this game) ${plus}`;
  if (reason === "teller") return `${name}: the Teller's decision ${source.credited ? plus : "+0"}`;
  if (reason === "named_only") {
    if (skill) return `${name}: only named; say what you do with it${examples(hints)} +0`;
    return `${name}: named (${quoted(words)}), but the plan never says how it is used${examples(hints)} +0`;
  }
  if (skill) return `${name}: the plan never says what you do with it${examples(hints)} +0`;
  return `${name}: the plan never uses it${examples(hints)} +0`;
}

/** What the roll-twice needs and what the plan met (null without reasons). */
export function advantageLine(needs) {
  if (!needs) return null;
  if (needs.threshold === null || needs.threshold === undefined) return "Roll twice: never in this game.";
  const verdict = needs.granted ? "granted" : "not granted";
  const parts = [`${needs.threshold} approved sources (this plan has ${needs.sources})`];
  if (needs.steps_needed) {
    if (needs.thing) {
      const found = needs.thing_words || [];
      const hints = needs.thing_hints || [];
      const met = found.length ? `yes: ${quoted(found)}` : (hints.length ? `no; words that count: ${hints.join(", ")}` : "no");
      // A thing's name may bring its own article ("a runaway cargo loader").
      const the = /^(a|an|the) /i.test(needs.thing) ? "" : "the ";
      parts.push(`a step that deals with ${the}${needs.thing} (${met})`);
    } else {
      parts.push("a step that deals with the thing faced (not known here)");
    }
    parts.push(`${needs.steps_needed} steps that each do something (this plan has ${needs.steps})`);
  }
  const joined = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `Roll twice ${verdict}: it needs ${joined}.`;
}

/** Every line of the explanation (empty without reasons). */
export function judgementLines(reasons) {
  if (!reasons) return [];
  const lines = (reasons.sources || []).map(sourceLine);
  const adv = advantageLine(reasons.advantage);
  if (adv) lines.push(adv);
  return lines;
}

/** The explanation as a list element (null without reasons). `judged`: the verdict is given
 * (otherwise the list is the rubric's suggestion to whoever judges). */
export function judgementBlock(reasons, judged) {
  const lines = judgementLines(reasons);
  if (!lines.length) return null;
  const box = document.createElement("div");
  box.className = "judgement";
  const title = document.createElement("p");
  title.className = "muted small";
  title.textContent = judged ? "Why:" : "The rubric suggests:";
  const list = document.createElement("ul");
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  }
  box.append(title, list);
  return box;
}

/** The Teller's toggles start at the rubric's advice (every source, no roll-twice, without one). */
export function judgeDefaults(plan, key) {
  const sources = (plan.reasons && plan.reasons.sources) || [];
  const used = new Set(sources.filter((s) => s.reason === "used").map((s) => s.code));
  const advised = sources.length > 0;
  return {
    channel: Boolean(plan.channel) && (!advised || used.has(plan.channel)),
    items: new Set((plan.items || []).filter((c) => !advised || used.has(c))),
    advantage: Boolean(plan.reasons && plan.reasons.advantage && plan.reasons.advantage.granted),
    key,
  };
}

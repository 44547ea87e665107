// Celtae's decisions on the board: where each legal action is clicked, and the routes one click sends.
//
// A plain turn is three clicks (the corner, the action, the action's own choice) or fewer: a piece
// one decision ahead is live at once where it says which decision it completes (an action beside a
// reachable corner: the nearest corner; a market card, a citadel, a card of the hand, a worker while
// the action is chosen), and a repeated choice (buy, recruit, discard) stops after one unless the
// seat asks for several. The optional steps (refresh the area, swap a worker, an extra worker, a
// token to act anywhere) are never questions to decline: they sit as side controls inside
// [data-optional] beside the prompt while the move's own targets are live. One click sends its whole
// route in one request: the server's after_skip (the optional steps passed over) and ahead (the
// stages one and two decisions on), so no action of it follows one that shows something new. Every
// piece keeps data-board-action (one click plays it) or data-board-select (the first step of a
// two-step choice); data-board-skip lists what is sent before it, data-board-then what after.

import {el} from "/static/js/util.js";
import {doneLabel, finishLabel, mainDoneLabel, mainPrompt, prompt, severalLabel, severalPrompt} from "./prompts.js";
import {RONDEL} from "./panels.js";
import {areaOf, CORNERS, ICON_LETTER, plural, WORKERS} from "./words.js";

let live = null; // the latest interaction context: play() and setSelection()
let boardFocus = false; // the last decision was clicked or keyed on the board: keep the keyboard there
let several = null; // the repeated choice the seat asked to make more than once ({verb, at: the view's version})

/** A click (or Enter) on a board piece or a prompt button: its route in one request. */
export function activate(target) {
  if (!live || !target || target.disabled) return;
  boardFocus = true;
  const list = (name) => (target.dataset[name] ? JSON.parse(target.dataset[name]) : []);
  const skip = list("boardSkip");
  if (target.dataset.boardAction) {
    const route = [...skip, target.dataset.boardAction, ...list("boardThen")];
    live.play(route[0], route.slice(1));
  } else if (target.dataset.boardSeveral) {
    several = {verb: target.dataset.boardSeveral, at: live.version};
    live.setSelection(null);
  } else if (target.dataset.boardSelect) live.setSelection({key: target.dataset.boardSelect, skip: skip.length ? skip : null});
  else if (target.dataset.cancel !== undefined) live.setSelection(null);
}

/**
 * Where each legal action is clicked: {act: Map key -> notation, select: Map key -> selection key,
 * loose: notations with no piece (buttons in the prompt)}. A selection narrows to its completions.
 */
export function targets(obs, legal, sel = null) {
  const act = new Map();
  const select = new Map();
  const loose = [];
  const region = obs.action ? obs.action.slice(-1) : null;
  const here = CORNERS.indexOf(obs.marker);
  const byVerb = {};
  for (const a of legal) (byVerb[a.split(" ")[0]] ||= []).push(a);
  if (sel?.key?.startsWith("swap-")) {
    const w = sel.key.slice(5);
    const i = areaOf(obs.action);
    for (const a of byVerb.swap || []) {
      const [, t, j] = a.split(" ");
      if (t === w) act.set(`area-${i}-${Number(j) - 1}`, a);
    }
    return {act, select, loose};
  }
  if (sel?.key === "druid") {
    for (const a of byVerb.druid || []) act.set(`tribe-${a.split(" ")[1]}`, a);
    return {act, select, loose};
  }
  if (sel?.key?.startsWith("garrison-")) {
    for (const a of byVerb.garrison || []) if (a.endsWith(sel.key.slice(9))) act.set(`hand-${a.split(" ")[1]}`, a);
    return {act, select, loose};
  }
  const wilds = (byVerb.druid || []).filter((a) => a !== "druid");
  for (const a of legal) {
    const [verb, x] = a.split(" ");
    if (verb === "move" && here >= 0) act.set(`corner-${CORNERS[(here + Number(x)) % 4]}`, a);
    else if (["farm", "build", "battle", "recruit"].includes(verb)) act.set(`act-${verb}-${x}`, a);
    else if (verb === "leader") act.set(`leader-${x}`, a);
    else if (["discard", "pay"].includes(verb)) act.set(`hand-${x}`, a);
    else if (verb === "garrison") {
      act.set(`hand-${x}`, a);
      const same = byVerb.garrison.filter((g) => g.endsWith(x[1]));
      obs.garrison_icons.forEach((ic, i) => {
        if (ICON_LETTER[ic] !== x[1] || obs.garrison["NS".indexOf(region)]?.[i] !== null) return;
        if (same.length === 1) act.set(`garrison-${region}-${i}`, a);
        else select.set(`garrison-${region}-${i}`, `garrison-${x[1]}`);
      });
    } else if (verb === "take" && region) act.set(`market-${region}-${Number(x) - 1}`, a);
    else if (verb === "citadel" && region) act.set(`citadel-${region}-${x}`, a);
    else if (verb === "fight" && region) act.set(`roman-${region}`, a);
    else if (verb === "druid" && region) {
      if (wilds.length) { if (!select.has(`druid-${region}`)) select.set(`druid-${region}`, "druid"); }
      else act.set(`druid-${region}`, a);
    } else if (verb === "enlist") act.set(`active-${x}`, a);
    else if (verb === "release") act.set(`tribe-${x}`, a);
    else if (verb === "centre") act.set(`centre-${Number(x) - 1}`, a);
    else if (verb === "progress") act.set(`progress-${Number(x) - 1}`, a);
    else if (verb === "flip" || verb === "keep") act.set(`leader-${verb}`, a);
    else if (verb === "anywhere" || verb === "extra") act.set("token", a);
    else if (verb === "swap") select.set(`active-${x}`, `swap-${x}`);
    else loose.push(a);
  }
  return {act, select, loose};
}

/** An optional step's control, beside the prompt (sent after the skips that reach its step). */
function optionalControl(o) {
  const skip = o.skip?.length ? JSON.stringify(o.skip) : null;
  if (o.select) {
    const w = o.select.slice(5);
    return el("button", {type: "button", class: "cb-t cb-act cb-opt-swap legal", "data-board-select": o.select,
      "data-board-skip": skip, "aria-label": `Swap your ${WORKERS[w] || w}`, title: `Swap your ${WORKERS[w] || w}`},
    el("span", {class: `cb-worker w-${w}`, "aria-hidden": "true"}, w));
  }
  if (o.several) {
    return el("button", {type: "button", class: "cb-t cb-act legal", "data-board-several": o.several},
      severalLabel(o.several));
  }
  const label = o.label || {refresh: `Refresh the area · ${plural(RONDEL.refresh, "strength")}`,
    extra: "Extra worker · 1 token", anywhere: "Act anywhere · 1 token"}[o.action] || o.action;
  return el("button", {type: "button", class: "cb-t cb-act legal", "data-board-action": o.action, "data-board-skip": skip}, label);
}

/** The side controls: each optional step's choices, the swaps as "swap your" and the workers. */
function optionalBox(optional) {
  const swaps = optional.filter((o) => o.select);
  const rest = optional.filter((o) => !o.select);
  const late = (o) => o.action === "extra" || o.action === "anywhere" || o.several;
  return el("div", {class: "cb-optional", "data-optional": "", role: "group", "aria-label": "optional steps",
    "data-testid": "optional-steps"},
  el("span", {class: "cb-optional-title"}, "Optional:"),
  rest.filter((o) => !late(o)).map(optionalControl),
  swaps.length ? el("span", {class: "cb-opt-group"}, el("span", {class: "cb-small"}, "swap your"), swaps.map(optionalControl)) : null,
  rest.filter(late).map(optionalControl));
}

const REPEATED = ["take", "enlist", "discard"]; // choices a seat may make again: one stops them unless several

/** What a repeated choice sends after it: the "done" that stops it, when it would go on. */
function thenOf(action, next, obs) {
  const verb = action.split(" ")[0];
  if (!REPEATED.includes(verb) || !next || next.skip.length || next.finish) return [];
  if (/^draw market/.test(obs.phase || "")) return []; // the draw bonus's cards are free: all of them
  if (several?.verb === verb) return [];
  return next.legal.includes("done") && next.legal.some((a) => a.startsWith(`${verb} `)) ? ["done"] : [];
}

/** The obs as the board reads it one decision on (the action chosen: its region and area). */
function onward(obs, action) {
  return /^(farm|build|battle|recruit) /.test(action) ? {...obs, action, phase: ""} : obs;
}

const NONE = {controls: null, overlay: null, onKey: () => false};

/** Enable the pieces of the legal actions and of the routes past them, write the prompt, lay out the options. */
export function interaction(ctx, lastAction = "") {
  const {obs, legal, board} = ctx;
  live = ctx;
  const root = board?.root;
  if (!(root instanceof HTMLElement) || !root.classList.contains("cb")) return NONE;
  const sel = ctx.selection?.key ? ctx.selection : null;
  for (const b of root.querySelectorAll("button.cb-t")) {
    b.disabled = true;
    b.classList.remove("legal");
    for (const key of ["boardAction", "boardSelect", "boardSkip", "boardThen", "boardSeveral", "hint"]) delete b.dataset[key];
  }
  const bought = /^take /.test(lastAction);
  const after = ctx.afterSkip && (ctx.afterSkip.skip?.length || ctx.afterSkip.finish) ? ctx.afterSkip : null;
  const ahead = ctx.ahead || {};
  const prefix = after?.skip || [];
  const steps = after?.optional || [{skip: [], legal}]; // each optional step on the way, the one now first
  const same = (a, b) => JSON.stringify(a || []) === JSON.stringify(b || []);
  // a selection begun among an optional step's choices completes among them (sent after its skips)
  const chosen = sel ? steps.find((st) => same(st.skip, sel.skip) && targets(obs, st.legal, sel).act.size) : null;
  const empty = () => ({act: new Map(), select: new Map(), loose: []});
  const own = chosen ? targets(obs, chosen.legal, sel) : sel?.skip ? empty() : targets(obs, legal, sel);
  const ownSkip = chosen?.skip?.length ? chosen.skip : null;
  // the move's own targets past the optional steps (a selection begun on one completes among them)
  const main = after && (!sel || (sel.skip && !chosen)) ? targets(obs, after.legal, sel) : null;
  if (several && (several.at !== ctx.version && !legal.some((a) => a.startsWith(`${several.verb} `)))) several = null;
  const optional = []; // the optional steps' own choices: side controls, never questions to decline
  if (!sel && after) {
    Object.assign(own, empty());
    for (const step of steps) {
      const t = targets(obs, step.legal);
      for (const a of [...t.act.values(), ...t.loose]) if (a !== "done") optional.push({action: a, skip: step.skip});
      for (const s of new Set(t.select.values())) optional.push({select: s, skip: step.skip});
    }
    // passing over the step now put, and no further, stays one click too (beside that step's choices)
    if (legal.includes("done")) optional.push({action: "done", skip: [], label: doneLabel(obs, bought)});
  } else if (!sel && own.act.get("token") === "anywhere") {
    own.act.delete("token");
    optional.push({action: "anywhere", skip: []});
  }
  const mark = (key, attr, value, skipped = null, then = null) => {
    for (const b of root.querySelectorAll(`button[data-key="${key}"]`)) {
      b.disabled = false;
      b.classList.add("legal");
      b.dataset[attr] = value;
      if (skipped?.length) b.dataset.boardSkip = JSON.stringify(skipped);
      if (then?.length) b.dataset.boardThen = JSON.stringify(then);
      if (attr === "boardAction") b.title = `${b.getAttribute("aria-label")}: ${value}`;
    }
  };
  let folded = null; // a repeated choice that stops after one: its verb (the seat may ask for several)
  const thenFor = (a) => {
    const then = sel ? [] : thenOf(a, ahead[a], obs);
    if (then.length) folded = a.split(" ")[0];
    return then;
  };
  if (main) {
    for (const [key, a] of main.act) mark(key, "boardAction", a, prefix, thenFor(a));
    for (const [key, s] of main.select) mark(key, "boardSelect", s, prefix);
  }
  for (const [key, a] of own.act) mark(key, "boardAction", a, ownSkip, ownSkip ? [] : thenFor(a));
  // never leave a legal action without something to click: one with no piece drawn goes to the prompt
  for (const [key, a] of own.act) if (!root.querySelector(`button[data-key="${key}"]`)) own.loose.push(a);
  for (const [key, s] of own.select) mark(key, "boardSelect", s, ownSkip);
  if (!sel && !after && /^(move the action|choose an action)/.test(obs.phase || "") && !obs.pending) {
    direct(root, obs, own, ahead, mark);
  }
  for (const [key, a] of own.act) {
    if (key.startsWith("corner-")) root.querySelector(`[data-key="${key}"]`)?.setAttribute("data-hint", RONDEL.step(Number(a.split(" ")[1])));
    if (key === "token") root.querySelector(`[data-key="token"]`)?.setAttribute("data-hint", "extra worker");
  }
  if (folded && !sel) optional.push({several: folded});
  const skipAttr = prefix.length ? JSON.stringify(prefix) : null;
  const button = (a, label, skipped = null) => el("button", {type: "button", class: "cb-t cb-act legal", "data-board-action": a,
    "data-board-skip": skipped}, label);
  // the move's own choices with no piece (Farm: take only the free card) are one click too
  const mainButtons = main && !sel ? main.loose.map((a) => button(a, a === "done" ? mainDoneLabel(obs) : a, skipAttr)) : [];
  if (after?.finish && !sel) mainButtons.push(button(after.finish, finishLabel(obs), skipAttr));
  const side = optional.length ? optionalBox(optional) : null;
  // a phone shows a part of the board at a time: one tap brings the decision's first piece into sight
  const far = [...root.querySelectorAll("button.legal")].find((b) => !b.closest(".cb-prompt"));
  const where = far ? el("button", {type: "button", class: "cb-where", "data-testid": "show-where",
    onclick: () => { far.scrollIntoView({block: "center"}); far.focus({preventScroll: true}); }}, "Show where") : null;
  let text = !legal.length ? "" : main && !sel ? mainPrompt(obs, after) : prompt(obs, sel, bought);
  if (several && !sel && legal.some((a) => a.startsWith(`${several.verb} `))) text = severalPrompt(several.verb);
  const looseButtons = own.loose.map((a) => button(a, a === "done" ? doneLabel(obs, bought) : a === "refresh" ? "Refresh the area" : a,
    ownSkip?.length ? JSON.stringify(ownSkip) : null));
  const cancel = sel ? el("button", {type: "button", class: "cb-t", "data-cancel": "", "data-testid": "cancel"}, "Cancel") : null;
  const box = root.querySelector(".cb-prompt");
  // (replaceChildren would write a null as the text "null": only nodes go in)
  box.replaceChildren(...[where, el("p", {class: "cb-prompt-text"}, text),
    mainButtons.length || looseButtons.length || cancel ? el("div", {class: "cb-row"}, mainButtons, looseButtons,
      sel?.skip && main ? main.loose.map((a) => button(a, a === "done" ? mainDoneLabel(obs) : a, skipAttr)) : null, cancel) : null,
    side].filter(Boolean));
  if (boardFocus && (!document.activeElement || document.activeElement === document.body)) {
    root.querySelector("button.legal")?.focus({preventScroll: true});
  }
  return NONE;
}

/**
 * The pieces one decision ahead, live at once where they say which decision they complete: at the
 * turn's start an action beside a reachable corner (through the nearest: fewest steps, the most
 * strength), while choosing the action what it takes. A piece two decisions could reach (Battle in
 * the north and the south both take a card of the hand) is left to its first step.
 */
function direct(root, obs, own, ahead, mark) {
  const current = new Set([...own.act.keys(), ...own.select.keys()]);
  const found = new Map(); // key -> [route] (every decision reaching it)
  for (const [first, stage] of Object.entries(ahead)) {
    if (first === "anywhere" || stage.finish || !stage.legal?.length) continue; // a token is the seat's own option
    const next = targets(onward(obs, first), stage.legal);
    for (const [key, b] of next.act) {
      if (current.has(key) || /^(done|progress|flip|keep|move|anywhere)\b/.test(b)) continue;
      const route = {first, stage, b};
      found.set(key, [...(found.get(key) || []), route]);
    }
  }
  const steps = (r) => (r.first.startsWith("move ") ? Number(r.first.split(" ")[1]) : 0);
  for (const [key, routes] of found) {
    const moves = routes.every((r) => r.first.startsWith("move "));
    if (routes.length > 1 && !moves) continue; // two decisions reach it: its first step says which
    const best = routes.reduce((x, y) => (steps(y) < steps(x) ? y : x));
    if (!root.querySelector(`button[data-key="${key}"]`)) continue;
    mark(key, "boardAction", best.b, [best.first, ...best.stage.skip], thenOf(best.b, best.stage.ahead?.[best.b], obs));
  }
}

// Celtae in the browser: the server's SVG board, every decision from the list of legal moves,
// the seat's hand as lettered cards, and the end tally by the rulebook's categories A-K.

import * as generic from "./generic.js";
import {chip, el, svg} from "./util.js";

export {drawBoard, fillSummary, forgetMove, logItem, moveLog, noteMove, renderOptions, trackWorkers, wantsBreakdown}
  from "./generic.js";

export const name = "celtae";
export const words = {hands: "Your cards", seatInfo: "Leader", placeholder: "e.g. move 2, farm N, done"};

// Final Scoring in the rulebook, letter by letter.
const CATEGORIES = {
  A: "A citadels", B: "B bonus tiles", C: "C druid tiles", D: "D Roman armies", E: "E garrison majorities",
  F: "F tribe spaces", G: "G empty disc spaces", H: "H all cubes placed", I: "I strength + cards", J: "J progress",
  K: "K leader",
};
const COLOURS = {O: "orange", P: "pink", U: "purple", T: "teal"};
const ICONS = {w: "warrior", t: "trap", f: "fortress"};

export function status(view) {
  if (view.terminal) return "";
  const obs = view.observation || {};
  const bits = [obs.phase, obs.marker && `marker ${obs.marker}`, obs.action, obs.final !== "no" && obs.final,
    obs.pending && `pending: ${obs.pending.kind}`];
  return bits.filter(Boolean).join(" · ");
}

export function describeSeat(obs, seat) {
  const info = obs?.players_info?.[seat];
  if (!info) return [];
  return [info.leader ? `${info.leader} (${info.leader_side})` : "", ` · strength ${info.strength}`,
    ` · cards ${info.hand_size}`];
}

function card(name, count = 1) {
  const label = `${COLOURS[name[0]] || name[0]} ${ICONS[name[1]] || name[1]}`;
  return el("span", {class: "row", title: label}, chip(name[0], label), el("span", {}, `${name}${count > 1 ? ` ×${count}` : ""}`));
}

export function hands(obs) {
  const seat = obs?.seat;
  const info = seat === null || seat === undefined ? null : obs.players_info?.[seat];
  if (!info || !info.hand) return null;
  const cards = Object.entries(info.hand);
  return el("div", {},
    el("div", {class: "row", "aria-label": "cards in hand"}, cards.length ? cards.map(([n, c]) => card(n, c)) : "no cards"),
    el("p", {class: "hint"}, `active workers ${info.active.join(" ")} · tribe ${Object.entries(info.tribe).map(([w, c]) => `${w}×${c}`).join(" ") || "—"}`
      + ` · tokens ${info.tokens} · discs left ${info.discs_left}`));
}

/** The solo game is won by reaching the difficulty's target, not by beating another seat. */
export function verdict(view) {
  const obs = view.observation || {};
  if (!obs.solo) return null;
  const target = obs.solitairix?.target;
  const goal = target ? ` (target ${target})` : "";
  return view.winners.length ? `You beat Solitairix${goal}.` : `Solitairix wins: the target was not reached${goal}.`;
}

export function breakdown(view, seatLabel) {
  return generic.breakdown(view, seatLabel, CATEGORIES);
}

// -- board targets --------------------------------------------------------------------------
// The server's drawing labels the rondel's corners (NE, SE, SW, NW, clockwise) and the action
// areas; targets are laid on those labels, so they follow the drawing wherever it puts them.
const CORNERS = ["NE", "SE", "SW", "NW"];
const AREAS = {"Farm/Build N": /^(farm|build) N$/, Battle: /^battle [NS]$/, "Farm/Build S": /^(farm|build) S$/,
  Recruit: /^recruit [NS]$/};

function labels(root) {
  const out = new Map();
  for (const t of root?.querySelectorAll?.("text") || []) {
    const key = t.textContent.trim();
    if (!out.has(key)) out.set(key, [parseFloat(t.getAttribute("x")), parseFloat(t.getAttribute("y"))]);
  }
  return out;
}

/** The whole drawing is the overlay's box, when it carries the labels the targets need. */
export function boardBox(root) {
  const vb = root?.viewBox?.baseVal;
  if (!vb || !vb.width || !CORNERS.every((c) => labels(root).has(c))) return null;
  return [vb.x, vb.y, vb.width, vb.height];
}

export function units(root) {
  const vb = root.viewBox.baseVal;
  return [vb.width, vb.height];
}

export function interaction(ctx) {
  const {obs, legal, board} = ctx;
  const sel = ctx.selection || {};
  const overlay = svg("g");
  const controls = el("div", {class: "celtae-controls"});
  if (!board?.box || !(board.root instanceof SVGElement)) return {controls: null, overlay: null, onKey: () => false};
  const at = labels(board.root);
  const here = CORNERS.indexOf(obs.marker);
  for (const action of legal) {
    const m = action.match(/^move ([1-3])$/);
    if (!m || here < 0) continue;
    const corner = CORNERS[(here + Number(m[1])) % 4];
    const [x, y] = at.get(corner);
    overlay.append(svg("circle", {cx: x, cy: y + 18, r: 16, class: "hit", tabindex: 0, role: "button",
      "data-board-action": action, "aria-label": `${action}: to corner ${corner}`}, svg("title", {}, `${action} (${corner})`)));
  }
  for (const [label, pattern] of Object.entries(AREAS)) {
    const actions = legal.filter((a) => pattern.test(a));
    if (!actions.length || !at.has(label)) continue;
    const [x, y] = at.get(label);
    const attrs = {x: x - 34, y: y - 14, width: 68, height: 36, rx: 6, class: "hit", tabindex: 0, role: "button",
      "aria-label": `${label}: ${actions.join(" or ")}`};
    if (actions.length === 1) attrs["data-board-action"] = actions[0];
    else attrs["data-board-area"] = label;
    overlay.append(svg("rect", attrs, svg("title", {}, actions.join(" / "))));
  }
  if (sel.area) {
    const actions = legal.filter((a) => AREAS[sel.area]?.test(a));
    controls.append(el("h3", {}, `${sel.area}: which action?`),
      el("div", {class: "row"}, actions.map((a) => el("button", {type: "button", "data-choice": a,
        onclick: () => ctx.play(a)}, a)),
      el("button", {type: "button", "data-testid": "cancel", onclick: () => ctx.setSelection(null)}, "Cancel (Esc)")));
  } else if (overlay.childNodes.length) {
    controls.append(el("p", {class: "hint"}, "Click a highlighted corner of the rondel or action area, or a move in the list."));
  }
  return {controls, overlay, onKey: () => false};
}

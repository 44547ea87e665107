// Any game without its own module (Celtae until it has one): the server's SVG board, the
// observation as text when there is no SVG, and moves from the list of legal actions.

import {el} from "./util.js";

export const name = "generic";
export const words = {hands: "Your hand", seatInfo: "", placeholder: "a move in notation"};

export function status(view) {
  if (view.terminal) return "";
  const obs = view.observation || {};
  const bits = [];
  for (const key of ["round", "phase", "step", "turn"]) {
    if (obs[key] !== undefined && obs[key] !== null && typeof obs[key] !== "object") bits.push(`${key} ${obs[key]}`);
  }
  return bits.join(" · ");
}

export function describeSeat() {
  return [];
}

export function drawBoard(obs) {
  return el("pre", {class: "obs-dump", "aria-label": "game state"}, JSON.stringify(obs, null, 1));
}

export function renderOptions() {
  return {};
}

export function boardBox() {
  return null;
}

export function interaction() {
  return {controls: null, overlay: null, onKey: () => false};
}

export function hands() {
  return null;
}

/**
 * The move log as the seat may see it, from the server's view (``log``: who played what, with
 * choices still secret masked); this browser's own moves when a view has no log.
 */
export function moveLog(obs, seen = {}, view = null) {
  if (view?.log) return view.log.map((e) => ({text: `seat ${e.seat}: ${e.action}`}));
  return (seen.mine || []).map((text) => ({text: `you: ${text}`}));
}

export function noteMove(seen, action) {
  seen.mine = [...(seen.mine || []), action];
  return seen;
}

export function forgetMove(seen) {
  seen.mine = (seen.mine || []).slice(0, -1);
  return seen;
}

export function trackWorkers(prev, obs, seen) {
  return seen;
}

export function logItem(entry) {
  return [entry.text];
}

export const wantsBreakdown = true;

export function breakdown(view, seatLabel, labels = {}) {
  const detail = view.breakdown || view.observation?.breakdown || null;
  const heads = detail && detail[0] && typeof detail[0] === "object"
    ? Object.keys(detail[0]).filter((h) => h !== "total") : [];
  // a wide tally scrolls inside its own box, so a phone's page never grows sideways
  return el("div", {class: "table-scroll"}, el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, "Seat"), heads.map((h) => el("th", {class: "num"}, labels[h] || h)),
      el("th", {class: "num"}, "Points"))),
    el("tbody", {}, view.scores.map((score, seat) => el("tr", {},
      el("td", {}, seatLabel(seat)),
      heads.map((h) => el("td", {class: "num"}, format(detail[seat]?.[h]))),
      el("th", {class: "num", "data-testid": `total-${seat}`}, score))))));
}

export function fillSummary() {}

function format(value) {
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

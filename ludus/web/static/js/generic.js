// Any game without a browser module of its own: the server's SVG board when the game's renderer
// draws one, else the observation as a table a person can read (each field by its name in words,
// lists and nested fields laid out, never raw JSON), and moves from the list of legal actions.
// A plugin's observation may hold any fields: nothing here expects one by name.

import {el, seatName} from "./util.js";

export const name = "generic";
export const words = {hands: "Your hand", seatInfo: "", placeholder: "a move in notation"};

export function status(view) {
  if (view.terminal) return "";
  const obs = view.observation || {};
  const bits = [];
  for (const key of ["round", "phase", "step"]) { // whose turn it is the page says itself, by name
    if (obs[key] !== undefined && obs[key] !== null && typeof obs[key] !== "object") bits.push(`${key} ${obs[key]}`);
  }
  return bits.join(" · ");
}

export function describeSeat() {
  return [];
}

const MAX_ITEMS = 40; // of one list shown; the rest are counted
const MAX_DEPTH = 3; // nested fields shown as tables; deeper ones as text

/** The observation as a table: a row per field, its name in words. */
export function drawBoard(obs) {
  return el("div", {class: "panel table-scroll", "data-testid": "generic-board"},
    fieldTable(obs && typeof obs === "object" ? obs : {value: obs}, 0, "game state"));
}

function fieldTable(obj, depth, label = null) {
  const rows = Object.entries(obj).map(([key, value]) =>
    el("tr", {}, el("th", {scope: "row"}, fieldName(key)), el("td", {}, shown(value, depth + 1))));
  return el("table", {class: "obs-table", "aria-label": label}, el("tbody", {}, rows));
}

/** A field's value: text for a plain value or a list of them, a table for an object or a list of objects. */
function shown(value, depth) {
  if (!value || typeof value !== "object") return plain(value);
  if (depth > MAX_DEPTH) return el("code", {}, JSON.stringify(value));
  if (!Array.isArray(value)) return Object.keys(value).length ? fieldTable(value, depth) : "—";
  if (!value.length) return "—";
  const more = value.length > MAX_ITEMS ? ` … and ${value.length - MAX_ITEMS} more` : "";
  const items = value.slice(0, MAX_ITEMS);
  if (items.every((v) => !v || typeof v !== "object")) return items.map(plain).join(" · ") + more;
  if (items.every((v) => v && typeof v === "object" && !Array.isArray(v))) return [listTable(items, depth), more];
  // a list of lists (one per seat, often): a line each, numbered from 1
  return [el("ol", {class: "obs-list"}, items.map((v) => el("li", {}, shown(v, depth + 1)))), more];
}

/** A list of objects as one table: a column per field, a row per item. */
function listTable(items, depth) {
  const heads = [...new Set(items.flatMap((item) => Object.keys(item)))].slice(0, 8);
  return el("table", {class: "obs-table"},
    el("thead", {}, el("tr", {}, heads.map((h) => el("th", {}, fieldName(h))))),
    el("tbody", {}, items.map((item) => el("tr", {}, heads.map((h) => el("td", {}, shown(item[h], depth + 1)))))));
}

function plain(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/** A field's name in words: "turn_total" and "turnTotal" read "Turn total". */
function fieldName(key) {
  const text = String(key).replace(/_+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim().toLowerCase();
  return text ? text[0].toUpperCase() + text.slice(1) : String(key);
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
  if (view?.log) return view.log.map((e) => ({text: `${seatName(e.seat)}: ${e.action}`}));
  return (seen.mine || []).map((text) => ({text: `you: ${text}`}));
}

export const serverLog = true; // the server's log (who played what) is kept once the game is over

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

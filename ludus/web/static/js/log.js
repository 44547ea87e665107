// The move log as people read it, from the server's ordered log only (never rebuilt by guessing):
// each line the seat's name (its display name if it gave one, else "Seat N", counted from 1) after a
// chip of its colour that also carries its number, a plain sentence, round separators, the steps
// played for a seat because they were its only choice and the turns a timer ran out on, and the
// notation on request (a toggle above the list, remembered for the session).

import {el} from "./util.js";

const KEY = "ludus:log-notation";

function notationShown() {
  try { return sessionStorage.getItem(KEY) === "1"; } catch { return false; }
}

/** The seat's name as people read it: its display name, else "Seat N" counted from 1. */
export function seatTitle(seat, seats = null, solo = false) {
  if (solo && seat === 1) return "Solitairix";
  const name = seats?.find?.((s) => s.seat === seat)?.name;
  return name || `Seat ${seat + 1}`;
}

/** A chip of the seat's colour that carries its number too (colour is never the only sign). */
export function chip(seat, title) {
  return el("span", {class: `log-chip seat-${seat}`, title, "aria-hidden": "true"}, String(seat + 1));
}

/**
 * One line's content: `entry` = {seat, text, action, round?, turn?, auto?, mine?, timedOut?, bot?,
 * name?, game?, chip?} where `game` marks a turn the game played by itself (Solitairix) and `chip`
 * replaces the seat's chip (the acting colour's, from the server log's `colour`, in a game of colours).
 */
export function logLine(entry) {
  const who = entry.name || `Seat ${entry.seat + 1}`;
  const notes = [];
  if (entry.timedOut) notes.push(`${who}'s time ran out; a move was played for it${entry.bot ? ` (${entry.bot})` : ""}`);
  else if (entry.auto && !entry.game) notes.push(entry.mine ? "played for you: only choice" : "only choice");
  return [
    entry.round ? el("span", {class: "log-round", role: "separator"}, `Round ${entry.round}`) : null,
    el("span", {class: `log-line${entry.turn ? " log-turn" : ""}${entry.auto ? " log-auto" : ""}${entry.game ? " log-game" : ""}`,
      "data-seat": String(entry.seat)},
    entry.chip || chip(entry.seat, who), " ", el("strong", {}, who), ` ${entry.text}`,
    notes.length ? el("span", {class: "log-note"}, ` (${notes.join("; ")})`) : null,
    entry.action ? el("span", {class: "log-notation", hidden: !notationShown()}, ` [${entry.action}]`) : null),
  ];
}

/** The "show notation" switch above a log list (added once; flips every line's notation). */
export function notationToggle(list) {
  if (!list || list.previousElementSibling?.classList?.contains("log-toggle")) return;
  const box = el("input", {type: "checkbox", checked: notationShown(), "data-testid": "log-notation"});
  box.addEventListener("change", () => {
    try { sessionStorage.setItem(KEY, box.checked ? "1" : "0"); } catch { /* private mode */ }
    for (const n of list.querySelectorAll(".log-notation")) n.hidden = !box.checked;
  });
  list.before(el("label", {class: "log-toggle"}, box, " show notation"));
}

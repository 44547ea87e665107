// The move log as people read it, from the server's ordered log only (never rebuilt by guessing):
// one entry per turn of a seat (the view's `turns`: the server groups the actions and words the turn
// in one sentence with everything it brought), its steps behind a disclosure; each line the seat's
// name (its display name if it gave one, else "Seat N", counted from 1) after a chip of its colour
// that also carries its number, round separators, the steps played for a seat because they were its
// only choice and the turns a timer ran out on, and the notation on request (a toggle above the
// list, remembered for the session).

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

const opened = new Set(); // the turns whose steps are shown (by their first step), kept across redraws

/**
 * The log by turns: one <li> per turn of `turns` (the view's, from the server), its steps the
 * module's per-action `entries` (moveLog's) drawn by `item` (its logItem) behind a disclosure.
 * A turn the game played by itself (a solo automaton's) lists the steps it names (its `play` in
 * the view's `log`).
 */
export function turnItems(turns, entries, item, log = []) {
  return turns.map((turn) => {
    const [first, end] = turn.steps;
    const steps = entries.slice(first, end);
    const lead = steps[0] || {};
    const notes = [];
    if (turn.timed_out) notes.push(`time ran out; a move was played${lead.bot ? ` (${lead.bot})` : ""}`);
    const lines = steps.flatMap((e, i) => {
      const play = log[first + i]?.play;
      if (Array.isArray(play) && play.length) return play.map((p) => el("li", {class: "log-step"}, p.text));
      return [el("li", {class: "log-step", "data-step": String(first + i)}, item({...e, round: null}))];
    });
    const details = el("details", {class: "log-steps", open: opened.has(first),
      ontoggle: (ev) => { if (ev.target.open) opened.add(first); else opened.delete(first); }},
    el("summary", {}, lines.length === 1 ? "1 step" : `${lines.length} steps`), el("ol", {}, lines));
    return el("li", {class: "log-entry", "data-seat": String(turn.seat), "data-testid": "log-turn"},
      turn.round ? el("span", {class: "log-round", role: "separator"}, `Round ${turn.round}`) : null,
      el("span", {class: "log-line log-turn", "data-seat": String(turn.seat)},
        lead.chip || chip(turn.seat, turn.name), " ", el("strong", {}, turn.name), ` ${turn.text}.`,
        notes.length ? el("span", {class: "log-note"}, ` (${notes.join("; ")})`) : null),
      details);
  });
}

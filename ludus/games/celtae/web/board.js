// Celtae in the browser: the board drawn here from the seat's observation (rondel, markets,
// citadels, stacks, garrisons, progress, one panel per seat), every decision by clicking its
// piece, the last move of the other seats marked, and the log as plain sentences.
//
// Every clickable piece is a <button data-key="..."> drawn disabled; interaction() enables the
// pieces a legal action belongs to and gives them data-board-action="<notation>" (one click
// plays it) or data-board-select="<key>" (the first step of a two-step choice). The list of legal
// moves and typed notation stay as fallbacks. Seats are numbered from 1 wherever a person reads
// them, and every seat's piece carries its number as well as its colour.

import * as generic from "/static/js/generic.js";
import {logLine, notationToggle, seatTitle} from "/static/js/log.js";
import {chip, el, svg} from "/static/js/util.js";
import {activate, interaction as decide} from "./decide.js";
import {follow as sxFollow, panel as sxPanel, show as sxShow} from "./solitairix.js";
import {AREAS, areaOf, cap, cardName, CATEGORIES, COLOUR_LETTER, CUBES, FLIP, ICON_LETTER, ICONS, plural, REGION, seatNo, WORKERS} from "./words.js";
import {decorate, LEADERS} from "./panels.js"; // leader texts from the data files, A-K, tooltips
import {dock, showNamed} from "./dock.js"; // the own panel docked, the place a prompt names shown

export {fillSummary, forgetMove, noteMove, renderOptions, trackWorkers, wantsBreakdown} from "/static/js/generic.js";
export {panels} from "./panels.js";
export {rulesHelp, sentence} from "./words.js";
export {targets} from "./decide.js";
import {sentence} from "./words.js";

export const name = "celtae";
export const ownBoard = true; // drawn here from the observation: no server SVG per change
export const serverLog = true; // the log is the server's, to the end of the game
export const replaySentences = true; // moveLog makes its sentences from the actions alone (the replay viewer's list)
export const words = {hands: "Your cards", seatInfo: "Leader", placeholder: "e.g. move 2, farm N, done"};

// -- pieces ----------------------------------------------------------------------------------
function icon(kind) {
  const paths = {
    warrior: "M5 19 L15 9 M13 6 L18 11 M15 9 L20 4 M7 15 L9 17",
    trap: "M3 19 L7 8 L11 19 M13 19 L17 8 L21 19",
    fortress: "M4 20 V8 H7 V11 H10 V8 H14 V11 H17 V8 H20 V20 Z",
  };
  return svg("svg", {class: "cb-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false"},
    svg("path", {d: paths[kind] || "M4 12 H20"}));
}

/** A clickable piece: a button drawn disabled, enabled by interaction() when a legal action is its. */
function piece(key, cls, label, ...children) {
  return el("button", {type: "button", class: `cb-t ${cls}`, "data-key": key, disabled: true, "aria-label": label,
    title: label}, ...children);
}

function cardFace(c, key, extra = "") {
  const label = `${cardName(c)} card (${c})`;
  const card = piece(key, `cb-card col-${c[0]} ${extra}`, label,
    el("span", {class: "cb-card-col"}, c[0]), icon(ICONS[c[1]]), el("span", {class: "cb-card-word"}, ICONS[c[1]]));
  // a card travels from the market to the hand (motion.js pairs it by its face)
  Object.assign(card.dataset, {piece: `card ${c}`, place: key});
  return card;
}

/** A worker in its space: `place` names the space for motion.js (its key, or the seat's row and index). */
function worker(w, key = null, extra = "", place = key) {
  const label = w ? WORKERS[w] : "empty space";
  const body = el("span", {class: `cb-worker w-${w || "none"}`, "aria-hidden": "true",
    "data-piece": w && place ? `worker ${w}` : null, "data-place": w && place ? place : null}, w || "");
  if (!key) return el("span", {class: `cb-worker-slot ${extra}`, title: label}, body);
  return piece(key, `cb-worker-slot ${extra}`, label, body);
}

/** A disc; on a space of the board (`place`), a piece motion.js brings in when it is new there. */
function disc(owner, label = null, place = null) {
  if (owner === null || owner === undefined) return el("span", {class: "cb-disc empty", title: "free space"});
  if (owner === "neutral") return el("span", {class: "cb-disc seat-n", title: "neutral"}, "×");
  return el("span", {class: `cb-disc seat-${owner}`, title: label || seatNo(owner),
    "data-piece": place ? `disc ${owner}` : null, "data-place": place}, String(owner + 1));
}

// -- the board -------------------------------------------------------------------------------
let lastLog = []; // the server's ordered log of the view being drawn (moveLog keeps it)
let notices = []; // the view's news for a person (a turn whose timer ran out), shown atop the board
let oneTurn = false; // mark only each seat's last main turn (from its move), not its whole run of actions

export function drawBoard(obs) {
  const root = el("div", {class: "cb", role: "group", "aria-label": "Celtae board"});
  root.addEventListener("click", (e) => activate(e.target.closest("button")));
  root.append(el("div", {class: "cb-prompt", "data-testid": "board-prompt", "aria-live": "polite"}));
  if (notices.length) root.append(el("p", {class: "cb-notice", role: "status", "data-testid": "notice"}, notices.join(" · ")));
  if (obs.offered_leaders?.length && obs.players_info?.some((p) => !p.leader)) root.append(leaderChoice(obs));
  root.append(el("div", {class: "cb-top"}, rondel(obs), el("div", {class: "cb-side"}, markets(obs), progress(obs))),
    citadels(obs), stacks(obs), seats(obs));
  markLastMoves(root, obs, lastLog);
  decorate(root, obs);
  if (obs.solitairix) sxShow(root); // its newest turn, step by step
  dock(root);
  return root;
}

function leaderChoice(obs) {
  return el("section", {class: "cb-leaders", "aria-label": "leaders to choose from", tabindex: 0},
    el("h3", {}, "Leaders on offer"),
    el("div", {class: "cb-row"}, obs.offered_leaders.map((n) => piece(`leader-${n.toLowerCase()}`, "cb-leader-card",
      `Leader ${n}`, el("strong", {}, n), el("span", {}, `A: ${LEADERS[n]?.[0] || ""}`),
      el("span", {}, `B (if flipped): ${LEADERS[n]?.[1] || ""}`)))));
}

function rondel(obs) {
  const grid = el("section", {class: "cb-rondel", "aria-label": "rondel"});
  const corner = (name) => {
    const here = obs.marker === name;
    return piece(`corner-${name}`, `cb-corner ${here ? "here" : ""}`, `corner ${name}${here ? " (the marker is here)" : ""}`,
      el("span", {class: "cb-corner-name"}, name),
      here ? el("span", {class: "cb-marker", "data-piece": "marker", "data-place": `corner-${name}`}, "marker") : null);
  };
  const area = (i, cls) => {
    const a = AREAS[i];
    const current = obs.action && areaOf(obs.action) === i;
    return el("div", {class: `cb-area ${cls} ${current ? "current" : ""}`, "data-key": `area-${i}`},
      el("div", {class: "cb-area-title"}, a.title,
        el("span", {class: "cb-arrow", title: "the marker goes clockwise", "aria-hidden": "true"}, ` ${a.arrow}`)),
      el("div", {class: "cb-row cb-workers"}, (obs.areas[i] || []).map((w, j) => worker(w, `area-${i}-${j}`))),
      el("div", {class: "cb-row"}, a.acts.map((act) => piece(`act-${act.replace(" ", "-")}`, "cb-act",
        `${act} (${REGION[act.slice(-1)]})`, cap(act)))));
  };
  const centre = el("div", {class: "cb-centre", "data-key": "centre"},
    el("div", {class: "cb-area-title"}, "Centre"),
    el("div", {class: "cb-row cb-workers"}, obs.centre.map((w, j) => worker(w, `centre-${j}`))),
    el("div", {class: "cb-small"}, `bag ${Object.entries(obs.bag).map(([w, n]) => `${w} ${n}`).join(" · ")}`),
    el("div", {class: "cb-small"}, `deck ${obs.deck_size} · discard ${obs.discard.length ? obs.discard.at(-1) : "—"}`),
    el("div", {class: "cb-small cb-river"}, "river: NE → SE crossing moves progress"));
  grid.append(corner("NW"), area(0, "north"), corner("NE"), area(3, "west"), centre, area(1, "east"),
    corner("SW"), area(2, "south"), corner("SE"));
  return grid;
}

function markets(obs) {
  return el("section", {class: "cb-markets", "aria-label": "markets", tabindex: 0},
    obs.markets.map((row, r) => {
      const R = "NS"[r];
      return el("div", {class: "cb-market", "data-key": `market-${R}`},
        el("h3", {}, `${cap(REGION[R])} market`),
        el("div", {class: "cb-row"}, row.map((c, i) => el("div", {class: "cb-slot"},
          c ? cardFace(c, `market-${R}-${i}`) : el("span", {class: "cb-card empty"}, "—"),
          el("span", {class: "cb-small"}, obs.market_costs[i] ? `${obs.market_costs[i]} F` : "free")))));
    }));
}

function progress(obs) {
  return el("section", {class: "cb-progress", "aria-label": "progress", tabindex: 0},
    el("h3", {}, `Progress · ${plural(obs.track, "marker")} left on the track`,
      obs.final !== "no" ? ` · ${obs.final}` : ""),
    el("div", {class: "cb-row"}, obs.progress.map((p, i) => piece(`progress-${i}`, "cb-prog", `progress card ${i + 1}: ${p.card}`,
      el("span", {class: "cb-prog-no"}, String(i + 1)), el("span", {}, p.card),
      el("span", {class: "cb-marks", role: "img", "aria-label": `${p.marks} of ${p.slots} markers`},
        Array.from({length: p.slots}, (_, k) => el("span", {class: k < p.marks ? "mark on" : "mark"})))))));
}

function citadels(obs) {
  return el("section", {class: "cb-citadels", "aria-label": "citadels", tabindex: 0}, ["N", "S"].map((R) =>
    el("div", {class: "cb-region"}, el("h3", {}, `${cap(REGION[R])} citadels`),
      el("div", {class: "cb-row"}, obs.citadels.filter((c) => c.region === R).map((c) => {
        const C = COLOUR_LETTER[c.colour];
        return piece(`citadel-${R}-${C}`, `cb-citadel col-${C}`, `${c.colour} citadel in the ${REGION[R]}`,
          el("span", {class: "cb-cit-name"}, `${cap(c.colour)}`),
          el("span", {class: "cb-row cb-spaces"}, c.spaces.map((o, k) => disc(o, null, `citadel-${R}-${C}-${k}`))),
          el("span", {class: "cb-small"}, c.bonus_owner === null ? `bonus: ${c.bonus}`
            : `bonus ${c.bonus}: ${seatNo(c.bonus_owner)}`));
      })))));
}

function stacks(obs) {
  return el("section", {class: "cb-stacks", "aria-label": "Roman armies, druid order and garrisons", tabindex: 0}, ["N", "S"].map((R, r) => {
    const rt = obs.roman[r];
    const dt = obs.druid[r];
    const icons = obs.garrison_icons;
    return el("div", {class: "cb-region"}, el("h3", {}, cap(REGION[R])),
      el("div", {class: "cb-row"},
        piece(`roman-${R}`, "cb-stack roman", `Roman army ${REGION[R]}`, el("strong", {}, "Roman army"),
          el("span", {}, rt.top ? `${plural(rt.top[0], "point")} · strength ${rt.top[1]}` : "beaten"),
          el("span", {class: "cb-small"}, `${plural(rt.size, "tile")}`)),
        piece(`druid-${R}`, "cb-stack druid", `Druid order ${REGION[R]}`, el("strong", {}, "Druid order"),
          el("span", {}, dt.top ? `${plural(dt.top.points, "point")} · needs ${dt.top.needs.split("").map((n) => (n === "*" ? "any" : n)).join(" ")}` : "empty"),
          el("span", {class: "cb-small"}, `${plural(dt.size, "tile")} · ${plural(obs.druid_supply[r], "druid")}`)),
        el("div", {class: "cb-garrison", "data-key": `garrison-${R}`}, el("span", {class: "cb-small"}, "Garrison"),
          el("span", {class: "cb-row"}, obs.garrison[r].map((o, i) => piece(`garrison-${R}-${i}`,
            `cb-gspace icon-${ICON_LETTER[icons[i]]}`, `garrison space (${icons[i]}) ${REGION[R]}`,
            icon(icons[i]), disc(o, null, `garrison-${R}-${i}`)))))));
  }));
}

function seats(obs) {
  const out = el("section", {class: "cb-seats", "aria-label": "player boards"});
  obs.players_info.forEach((p, s) => out.append(seatPanel(obs, p, s)));
  if (obs.solitairix) out.append(sxPanel(obs.solitairix, cardFace, disc));
  return out;
}

function seatPanel(obs, p, s) {
  const mine = s === obs.seat;
  const flipping = mine && obs.pending?.kind === "leader flip";
  const leader = p.leader
    ? el("div", {class: "cb-leader"}, el("strong", {}, `${p.leader} · side ${p.leader_side}`),
      el("span", {}, LEADERS[p.leader]?.["AB".indexOf(p.leader_side)] || ""),
      p.flip ? el("span", {class: "cb-small"}, FLIP[p.flip] || p.flip) : null,
      flipping ? el("span", {class: "cb-row"},
        piece("leader-flip", "cb-act", "Flip your leader to side B", `Flip to B: ${LEADERS[p.leader]?.[1] || ""}`),
        piece("leader-keep", "cb-act", "Keep your leader on side A", "Keep side A")) : null)
    : el("div", {class: "cb-leader"}, "no leader yet");
  const active = p.active.map((w, i) => worker(w, mine ? `active-${w}` : null, `i${i}`, `seat-${s}-active-${i}`));
  const tribe = Object.entries(p.tribe).map(([w, n]) => el("span", {class: "cb-tribe"},
    worker(w, mine ? `tribe-${w}` : null, "", `seat-${s}-tribe-${w}`), `×${n}`));
  const hand = p.hand
    ? Object.entries(p.hand).flatMap(([c, n]) => Array.from({length: n}, () => cardFace(c, `hand-${c}`)))
    : [el("span", {}, `${plural(p.hand_size, "card")} in hand`),
      Object.keys(p.known_cards).length ? el("span", {class: "cb-small"},
        ` (known: ${Object.entries(p.known_cards).map(([c, n]) => `${cardName(c)}${n > 1 ? ` ×${n}` : ""}`).join(", ")})`) : null];
  const token = mine && p.tokens ? piece("token", "cb-token", "a bonus token", `tokens ${p.tokens}`)
    : el("span", {class: "cb-stat"}, `tokens ${p.tokens}`);
  return el("article", {class: `cb-seat seat-${s} ${mine ? "mine" : ""} ${obs.current_player === s ? "to-move" : ""}`,
    "data-key": `seat-${s}`, "aria-label": `${seatNo(s)}${mine ? " (you)" : ""}`, "data-own-panel": mine ? "" : null},
    el("header", {class: "cb-row cb-seat-head"}, disc(s), el("strong", {}, `${seatNo(s)}${mine ? " (you)" : ""}`),
      obs.current_player === s ? el("span", {class: "cb-tag"}, "to move") : null,
      obs.teutates === s ? el("span", {class: "cb-tag"}, "Teutates") : null,
      el("span", {class: "cb-score"}, `${plural(obs.scores[s] ?? 0, "point")}`)),
    leader,
    el("div", {class: "cb-row cb-stats"}, el("span", {class: "cb-stat"}, `strength ${p.strength}`), token,
      el("span", {class: "cb-stat"}, `discs left ${p.discs_left}${p.next_disc_cost ? ` (next costs ${p.next_disc_cost})` : ""}`),
      el("span", {class: "cb-stat"}, `cubes left ${CUBES - p.cubes_placed}`),
      el("span", {class: "cb-stat"}, `hand ${p.hand_size}`)),
    el("div", {class: "cb-row cb-active"}, el("span", {class: "cb-label"}, "Active"), active.length ? active : "none"),
    el("div", {class: "cb-row cb-tribe-row"}, el("span", {class: "cb-label"}, "Tribe"), tribe.length ? tribe : "empty"),
    el("div", {class: "cb-row cb-small cb-tiles"}, `Roman tiles ${p.roman_tiles.map((t) => `${t[0]}p`).join(" ") || "—"}`,
      ` · druid tiles ${p.druid_tiles.map((t) => `${t}p`).join(" ") || "—"} · bonus tiles ${p.bonus_tiles}`),
    el("div", {class: "cb-row cb-hand", role: "group", "aria-label": mine ? "your cards" : "cards"}, hand));
}

// -- decisions (decide.js) ---------------------------------------------------------------------
export function boardBox() {
  return null;
}

export function interaction(ctx) {
  const out = decide(ctx, lastLog.findLast?.((e) => e.seat === ctx.obs?.seat)?.action || "");
  const root = ctx.board?.root;
  if (root instanceof HTMLElement && root.classList.contains("cb")) showNamed(root);
  return out;
}

// -- the last move of the other seats ----------------------------------------------------------
/** Each other seat's last turn: its trailing run of entries in the server's ordered log. */
export function lastTurns(log, me, turnOnly = false) {
  const out = new Map();
  const seen = new Set();
  for (let i = log.length - 1; i >= 0; i--) {
    const s = log[i].seat;
    if (s === me || s < 0 || seen.has(s)) continue;
    const run = [];
    let j = i;
    while (j >= 0 && (log[j].seat === s || (log[j].seat !== me && /^(progress|flip|keep|decided)/.test(log[j].action)))) {
      if (log[j].seat === s) run.unshift(log[j].action);
      if (turnOnly && log[j].seat === s && /^(move|anywhere) ?/.test(log[j].action)) break; // its turn began here
      j--;
    }
    out.set(s, run);
    seen.add(s);
  }
  return out;
}

/**
 * A view whose log marks each seat's last turn on the next drawing, for a page without a live view
 * (the replay viewer: its step's actions with the seat of each; no notices there).
 */
export function lastMoveLog(view) {
  lastLog = view.log || [];
  sxFollow(lastLog, false);
  notices = view.notices || [];
  oneTurn = true; // a replay's seat may move many times in a row (solo: always): its last turn only
}

function markLastMoves(root, obs, log) {
  // the newest turn first (lastTurns' order): a piece two seats used keeps the latest seat's mark
  const tag = (key, s) => root.querySelectorAll(`[data-key="${key}"]`).forEach((n) => {
    if (n.dataset.lastMove !== undefined) return;
    n.dataset.lastMove = String(s);
    n.classList.add("last-move");
  });
  const sx = obs.solitairix?.last_turn;
  const solitairix = () => { // Solitairix plays inside the human's turns: its last turn is in the observation
    if (!sx) return;
    tag("solitairix", 1);
    tag(`area-${areaOf(sx.action)}`, 1);
    tag(`act-${sx.action.replace(" ", "-")}`, 1);
  };
  // on a live page the log's runs are the other seats' (never the solo human's): Solitairix's turn is
  // the newest; in a replay the human's own run is drawn and its current turn is the newer one
  if (!oneTurn) solitairix();
  for (const [s, run] of lastTurns(log || [], obs.seat, oneTurn)) {
    let region = null;
    tag(`seat-${s}`, s);
    if (obs.solo && s === 1) tag("solitairix", s);
    for (const a of run) {
      const [verb, x] = a.split(" ");
      if (["farm", "build", "battle", "recruit"].includes(verb)) {
        region = x;
        tag(`area-${areaOf(a)}`, s);
        tag(`act-${verb}-${x}`, s);
      } else if (verb === "move" || verb === "anywhere") {
        tag(`corner-${obs.marker}`, s);
      } else if (verb === "take" && region) tag(`market-${region}`, s);
      else if (verb === "citadel" && region) tag(`citadel-${region}-${x}`, s);
      else if (verb === "fight" && region) tag(`roman-${region}`, s);
      else if (verb === "garrison" && region) tag(`garrison-${region}`, s);
      else if (verb === "druid" && region) tag(`druid-${region}`, s);
      else if (verb === "centre") tag("centre", s);
      else if (verb === "progress") tag(`progress-${Number(x) - 1}`, s);
    }
  }
  if (oneTurn) solitairix();
}

// -- the log -----------------------------------------------------------------------------------
export function moveLog(obs, seen = {}, view = null) {
  if (!view?.log) return generic.moveLog(obs, seen, view);
  lastLog = view.log;
  notices = view.notices || [];
  if (obs?.solo) sxFollow(lastLog, true);
  const regions = {};
  let prev = null;
  let first = null; // the seat that opened the first main turn: each of its turns opens a round
  let round = 0;
  notationToggle(document.getElementById("log"));
  const me = view.seat;
  return view.log.map((e) => {
    const [verb, x] = e.action.split(" ");
    if (["farm", "build", "battle", "recruit"].includes(verb)) regions[e.seat] = x;
    const turn = prev !== e.seat && !/^(progress|flip|keep|decided)/.test(e.action);
    if (turn) prev = e.seat;
    let opens = null;
    if (verb === "move" || verb === "anywhere") { // every main turn begins by moving or acting anywhere
      if (first === null) first = e.seat;
      if (e.seat === first) opens = ++round;
    }
    // the server's sentence where it gives one (Solitairix's whole turn), else the action's own
    return {seat: e.seat, action: e.action, text: e.text || sentence(e.action, regions[e.seat]), turn, round: opens,
      timedOut: !!e.timed_out, bot: e.played_by, solo: !!obs?.solo, auto: !!e.auto, game: !!e.solitairix,
      mine: me !== null && me !== undefined && e.seat === me, name: seatTitle(e.seat, view.seats, !!obs?.solo)};
  });
}

export function logItem(entry) {
  if (entry.seat === undefined) return [entry.text];
  return logLine(entry);
}

// -- the rest of the page ----------------------------------------------------------------------
export function status(view) {
  if (view.terminal) return "";
  const obs = view.observation || {};
  // the optional steps wait beside the action's own choice, never as a question of their own
  const phase = /^(refresh|swap|spend a bonus)/.test(obs.phase || "") ? "the action's own choice (or an optional step first)" : obs.phase;
  const bits = [obs.pending ? pendingWords(view, obs.pending) : phase, obs.marker && `marker ${obs.marker}`, obs.action,
    obs.final !== "no" && obs.final];
  return bits.filter(Boolean).join(" · ");
}

/** A decision that interrupts the turn, in words: who is making it and what it is. */
function pendingWords(view, pending) {
  const what = {progress: "choosing a progress card for a marker", "leader flip": "choosing whether to flip their leader"}[pending.kind]
    || `deciding (${pending.kind})`;
  if (pending.seat === view.seat) return `You are ${what}`;
  const bot = view.seats?.find?.((s) => s.seat === pending.seat)?.bot ? " (bot)" : "";
  return `${seatTitle(pending.seat, view.seats, !!view.observation?.solo)}${bot} is ${what}`;
}

export function describeSeat(obs, seat) {
  const info = obs?.players_info?.[seat];
  if (!info) return [];
  return [info.leader ? `${info.leader} (${info.leader_side})` : "no leader yet", ` · strength ${info.strength}`,
    ` · cards ${info.hand_size}`];
}

/** The hand is drawn in the seat's own panel on the board. */
export function hands() {
  return null;
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

export function units() {
  return [16, 16];
}

// The replay viewer: a finished game (by id) or a record file, stepped forward and back by turn or by
// decision, by hand or played on its own. The record is loaded once (a finished game's from the server,
// a file read here); the first answer also tells the record by turns, as the table's log told it (the
// server's turns: each seat's name as at the table, a sentence, the decisions it covers). Each step's
// public view is then asked of the server as the person reaches it (one small request, replayed by the
// server from the record: a finished game's own by its id, a record file posted and checked action by
// action by the engine) and kept, so going back or playing again asks nothing; a step by turn asks
// only the turn's last step, never the ones in between. While playing, and stepping forward, the next
// step (of the chosen unit) is fetched ahead. The page asks at most 500 steps a minute, within the
// server's replay rate: a whole game played at the fastest speed (one step each 120 ms) never reaches it.

import {ApiError, api} from "./api.js";
import {gameModule, parseSvg, showBoard} from "./board.js";
import {chip, notationToggle} from "./log.js";
import {rulesButton} from "./rules.js";
import {el, fill, say} from "./util.js";

const $ = (id) => document.getElementById(id);
// At most MOST step requests in any minute, within the server's default replay rate (600 a minute
// per address, shared with the game page); a refusal for now (429, 503) is waited out.
const MOST = 500;
const MINUTE_MS = 60_000;
const TRIES = 5;
const viewer = {
  gen: 0, // which record is open: an answer for an earlier one is dropped
  ready: false, record: null, label: "", source: null, module: null, log: [], steps: 0,
  names: new Map(), // each seat's name as at the table (the record's names, else the turns')
  turns: [], // the server's turns: {seat, name, text, round?, actions: [first, end), steps}
  unit: "turn", // what Back, Forward and Play step by: "turn" or "decision"
  answers: [], // each step's answer once fetched
  step: 0, // the step shown
  target: 0, // the step asked for (shown once its answer is here)
  turn: -1, // the turn shown (its sentence highlighted): -1 before the first
  forward: false, // stepping forward (or playing): the next step is fetched ahead
  pumping: false, timer: null, playing: false,
  ahead: null, // {step, node}: the next step's board already parsed
};
const asked = []; // when each of the last minute's step requests went

function message(text, kind = "error") {
  say($("message"), text, kind);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function reasonOf(text, status) {
  try {
    const data = JSON.parse(text);
    if (typeof data?.detail === "string") return data.detail;
  } catch { /* not JSON */ }
  return `the server answered ${status}`;
}

function request(source, step, turns) {
  const headers = {Accept: "application/json"};
  if (source.gameId !== null) {
    const url = `/api/games/${encodeURIComponent(source.gameId)}/replay?step=${step}&svg=${source.svg}`;
    return fetch(turns ? `${url}&turns=true` : url, {headers});
  }
  // the record goes as its original text: a seed above 2**53 would not survive JSON.parse
  const body = `{"step": ${step}, "svg": ${source.svg}, "turns": ${turns}, "record": ${source.text}}`;
  return fetch("/api/replay", {method: "POST", headers: {...headers, "Content-Type": "application/json"}, body});
}

/** Wait, if need be, until one more request keeps the last minute's within MOST. */
async function spaced() {
  for (;;) {
    const now = performance.now();
    while (asked.length && asked[0] <= now - MINUTE_MS) asked.shift();
    if (asked.length < MOST) {
      asked.push(now);
      return;
    }
    await sleep(asked[0] + MINUTE_MS - now);
  }
}

/** One step's answer from the server (with the record's turns if asked), a refusal for now waited out. */
async function ask(source, step, turns = false) {
  for (let tries = 1; ; tries++) {
    await spaced();
    let response;
    try {
      response = await request(source, step, turns);
    } catch (exc) {
      throw new ApiError(0, `cannot reach the server (${exc.message})`);
    }
    const text = await response.text();
    if (response.ok) {
      if (tries > 1) message(`Replaying ${source.label}.`, "info");
      return JSON.parse(text);
    }
    if ((response.status === 429 || response.status === 503) && tries < TRIES) {
      const seconds = Math.min(60, Math.max(1, Number(response.headers.get("Retry-After")) || 1));
      message(`The server is busy: step ${step} again in ${seconds} s…`, "info");
      await sleep(seconds * 1000);
      continue;
    }
    throw new ApiError(response.status, reasonOf(text, response.status));
  }
}

// -- where a step by turn or by decision leads -------------------------------------------------

/** The turn whose decisions reach `step` (the one that took decision `step`), -1 at the start. */
function turnOf(step) {
  return viewer.turns.findIndex((t) => t.actions[0] < step && step <= t.actions[1]);
}

/** Where Forward (+1) or Back (-1) leads in the chosen unit: {step, turn}, or null at an end. A turn
 * is shown after its last decision; Back from a turn (or from within it) shows the one before. */
function neighbour(dir) {
  if (viewer.unit === "decision" || !viewer.turns.length) {
    const step = viewer.target + dir;
    return step < 0 || step > viewer.steps ? null : {step, turn: turnOf(step)};
  }
  const turns = viewer.turns;
  const now = viewer.turn;
  if (dir > 0) {
    if (now >= 0 && viewer.target < turns[now].actions[1]) return {step: turns[now].actions[1], turn: now};
    return now + 1 < turns.length ? {step: turns[now + 1].actions[1], turn: now + 1} : null;
  }
  if (now < 0) return viewer.target > 0 ? {step: 0, turn: -1} : null;
  return now === 0 ? {step: 0, turn: -1} : {step: turns[now - 1].actions[1], turn: now - 1};
}

/** The step to fetch next: the one asked for, else (stepping forward) the one after it; null: none. */
function wanted() {
  if (!viewer.ready) return null;
  if (!viewer.answers[viewer.target]) return viewer.target;
  const next = viewer.forward ? neighbour(1)?.step : undefined;
  return next !== undefined && !viewer.answers[next] ? next : null;
}

/** Fetch what the viewer lacks, one request at a time (steps skipped over meanwhile are never asked). */
async function pump() {
  if (viewer.pumping) return;
  viewer.pumping = true;
  try {
    for (let step = wanted(); step !== null; step = wanted()) {
      const gen = viewer.gen;
      let answer;
      try {
        answer = await ask(viewer.source, step);
      } catch (exc) {
        if (gen !== viewer.gen) continue;
        message(`Cannot show step ${step}: ${exc.message}`);
        pause();
        viewer.forward = false;
        go(viewer.step);
        break;
      }
      if (gen !== viewer.gen) continue;
      viewer.answers[step] = answer;
      if (step === viewer.target) display(step);
      else if (step === neighbour(1)?.step) parseAhead(step);
    }
  } finally {
    viewer.pumping = false;
  }
}

async function open(text, label, gameId = null) {
  let record;
  try {
    record = JSON.parse(text);
  } catch (exc) {
    message(`${label} is not JSON: ${exc.message}`);
    return;
  }
  if (!record || typeof record !== "object" || !Array.isArray(record.actions)) {
    message(`${label} is not a game record: it needs game, config, seed and actions`);
    return;
  }
  pause();
  const gen = ++viewer.gen;
  viewer.ready = false;
  message(`Loading ${label}…`, "info");
  const source = {gameId, text, label, svg: true};
  let module;
  let first;
  try {
    module = await gameModule(record.game);
    source.svg = !module.ownBoard; // a module that draws its own board needs none from the server
    // the server replays the whole record once (a bad action is told now) and tells it by turns
    first = await ask(source, 0, true);
  } catch (exc) {
    if (gen !== viewer.gen) return;
    message(`Cannot replay ${label}: ${exc.message}`);
    $("viewer").hidden = true;
    return;
  }
  if (gen !== viewer.gen) return;
  message(`Replaying ${label}.`, "info");
  // who played each action, as the server's replay tells it
  const log = record.actions.map((action, i) => ({seat: first.actors?.[i] ?? null, action}));
  const turns = Array.isArray(first.turns) ? first.turns : [];
  Object.assign(viewer, {record, label, source, module, log, turns, names: seatNames(record, turns),
    answers: [first], steps: first.steps, step: 0, target: 0, turn: -1, forward: false, ahead: null, ready: true});
  $("rules").replaceChildren(rulesButton(first.game));
  $("slider").max = String(viewer.steps);
  $("viewer").hidden = false;
  fill($("log"), turns.map(turnItem));
  notationToggle($("log"));
  const notation = $("log").previousElementSibling?.querySelector("input")?.checked;
  for (const node of $("log").querySelectorAll(".log-notation")) node.hidden = !notation;
  document.body.dataset.loaded = "true";
  document.body.dataset.turns = String(turns.length);
  setUnit(viewer.unit, false);
  go(0, -1);
}

/** Each seat's name as at the table: the record's names (a record of this server carries them),
 * else the name its turns give it (a seat the game plays itself has one), else "Seat N" from 1. */
function seatNames(record, turns) {
  const names = new Map();
  const given = Array.isArray(record.names) ? record.names.slice(0, 16) : [];
  given.forEach((name, seat) => { if (typeof name === "string" && name.trim()) names.set(seat, name.slice(0, 64)); });
  for (const turn of turns) if (!names.has(turn.seat)) names.set(turn.seat, turn.name);
  return names;
}

function seatTitle(seat) {
  return viewer.names.get(seat) || `Seat ${seat + 1}`;
}

/** One turn of the move list: its seat's chip and name, its sentence (a link to the board after it),
 * and its decisions behind a disclosure (each a link to the board after it). */
function turnItem(turn, index) {
  const lines = turn.steps.map((s) => {
    const who = s.seat === turn.seat ? "" : `${s.name} `;
    if (typeof s.step !== "number") return el("li", {class: "log-step"}, `${who}${s.text}`);
    return el("li", {class: "log-step", "data-step": String(s.step)},
      el("a", {href: `#step-${s.step}`, "data-step": String(s.step),
        onclick: (e) => { e.preventDefault(); pause(); go(s.step, turnOf(s.step)); }},
      `${who}${s.text}`),
      el("span", {class: "log-notation", hidden: true}, ` [${s.action}]`));
  });
  return el("li", {class: "log-entry", "data-turn": String(index), "data-seat": String(turn.seat), "data-testid": "log-turn"},
    turn.round ? el("span", {class: "log-round", role: "separator"}, `Round ${turn.round}`) : null,
    el("a", {href: `#turn-${index + 1}`, class: "log-line log-turn", "data-turn": String(index),
      onclick: (e) => { e.preventDefault(); pause(); go(turn.actions[1], index); }},
    chip(turn.seat, turn.name), " ", el("strong", {}, turn.name), ` ${turn.text}.`),
    lines.length ? el("details", {class: "log-steps"},
      el("summary", {}, lines.length === 1 ? "1 step" : `${lines.length} steps`), el("ol", {}, lines)) : null);
}

/** Head for `step` with turn `turn` highlighted: shown at once if its answer is here, else once it comes. */
function go(step, turn = turnOf(step), forward = false) {
  step = Math.max(0, Math.min(viewer.steps, step));
  viewer.forward = viewer.playing || forward;
  viewer.target = step;
  viewer.turn = turn;
  document.body.dataset.target = String(step);
  if (viewer.answers[step]) display(step);
  else {
    $("slider").value = String(step);
    $("where").textContent = `Step ${step} of ${viewer.steps}: loading…`;
  }
  pump();
}

/** One step Forward (+1) or Back (-1) in the chosen unit. */
function move(dir) {
  const to = neighbour(dir);
  if (to) go(to.step, to.turn, dir > 0);
}

function display(step) {
  const started = performance.now();
  show(step);
  document.body.dataset.stepMs = (performance.now() - started).toFixed(1);
}

function show(step) {
  const data = viewer.answers[step];
  viewer.step = step;
  const turn = viewer.turns[viewer.turn];
  $("slider").value = String(step);
  $("slider").setAttribute("aria-valuetext", `step ${step} of ${viewer.steps}`);
  const counted = viewer.unit === "turn" && turn ? `Turn ${viewer.turn + 1} of ${viewer.turns.length} · ` : "";
  $("where").textContent = `${counted}Step ${step} of ${viewer.steps}${step ? "" : " (start)"}${data.terminal ? " — game over" : ""}`;
  $("now").textContent = nowSaid(step, turn);
  document.body.dataset.step = String(step);
  document.body.dataset.turn = String(viewer.turn);
  // each seat's last turn up to this step is marked on the board, as on a live page
  viewer.module.lastMoveLog?.({version: step, seat: null, observation: data.observation, log: viewer.log.slice(0, step)});
  const ahead = viewer.ahead?.step === step ? viewer.ahead.node : null;
  showBoard($("board"), viewer.module, data.observation, ahead || (data.svg ?? null));
  parseAhead(neighbour(1)?.step);
  viewer.module.fillSummary($("summary"), data.observation);
  fill($("scores"), el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, viewer.module.words.seatInfo || "Pieces"),
    el("th", {class: "num"}, "Points"))),
  el("tbody", {}, data.scores.map((score, seat) => el("tr", {},
    el("td", {}, seatTitle(seat), data.winners.includes(seat) ? " (winner)" : "",
      data.current_player === seat ? " ▶" : ""),
    el("td", {}, viewer.module.describeSeat(data.observation, seat)),
    el("td", {class: "num"}, score)))));
  $("first").disabled = $("prev").disabled = neighbour(-1) === null;
  $("next").disabled = neighbour(1) === null;
  $("last").disabled = step === viewer.steps;
  if (viewer.playing) {
    if (neighbour(1) === null) pause();
    else schedule();
  }
  mark(step);
}

/** What the step shows, in a sentence: the turn's (by turn), or the decision's (by decision). */
function nowSaid(step, turn) {
  if (!turn) return step ? "" : "The game before its first move.";
  const decision = viewer.unit === "decision" ? turn.steps.find((s) => s.step === step) : null;
  return decision ? `${decision.name} ${decision.text}.` : `${turn.name} ${turn.text}.`;
}

/** Highlight the turn shown (and, by decision, the decision shown, its turn opened) in the move list,
 * scrolling the list only (what is highlighted in its middle), never the page; measured last, once
 * every change is made, so that the page is laid out once per step. */
function mark(step) {
  for (const node of $("log").querySelectorAll("li.current")) {
    node.classList.remove("current");
    node.removeAttribute("aria-current");
  }
  const item = $("log").querySelector(`li.log-entry[data-turn="${viewer.turn}"]`);
  if (!item) return;
  item.classList.add("current");
  item.setAttribute("aria-current", "step");
  let shown = item;
  if (viewer.unit === "decision") {
    const line = item.querySelector(`li.log-step[data-step="${step}"]`);
    if (line) {
      item.querySelector("details").open = true;
      line.classList.add("current");
      shown = line;
    }
  }
  // the whole turn in sight where it fits, else the decision shown
  const box = $("log").getBoundingClientRect();
  const whole = item.getBoundingClientRect();
  const at = whole.height <= box.height ? whole : shown.getBoundingClientRect();
  if (at.top < box.top || at.bottom > box.bottom) $("log").scrollTop += at.top - box.top - (box.height - at.height) / 2;
}

/** Parse the next step's board while the browser is idle: stepping forward then only swaps it in. */
function parseAhead(step) {
  viewer.ahead = null;
  const board = step === undefined ? null : viewer.answers[step]?.svg;
  if (!board) return;
  const from = viewer.step;
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 0));
  idle(() => {
    if (viewer.step === from && !viewer.ahead) viewer.ahead = {step, node: parseSvg(board)};
  });
}

/** Step by turn or by decision (the switch's buttons, pressed one at a time); the step shown is told
 * anew in that unit unless `redraw` is false. */
function setUnit(unit, redraw = true) {
  viewer.unit = unit === "decision" || !viewer.turns.length ? "decision" : "turn";
  document.body.dataset.unit = viewer.unit;
  for (const [id, value] of [["by-turn", "turn"], ["by-decision", "decision"]]) {
    $(id).setAttribute("aria-pressed", String(viewer.unit === value));
  }
  $("by-turn").disabled = !viewer.turns.length;
  if (redraw && viewer.ready && viewer.answers[viewer.target]) display(viewer.target);
}

/** The end of the game, with its last turn highlighted (by decision: the one that took the last decision). */
function last() {
  go(viewer.steps, viewer.unit === "turn" && viewer.turns.length ? viewer.turns.length - 1 : turnOf(viewer.steps));
}

// -- autoplay ---------------------------------------------------------------------------------
function play() {
  if (!viewer.ready) return;
  viewer.playing = true;
  $("play").textContent = "⏸ Pause";
  $("play").setAttribute("aria-pressed", "true");
  document.body.dataset.playing = "true";
  if (neighbour(1) === null) go(0, -1);
  else {
    viewer.forward = true;
    schedule();
    pump(); // the next step, fetched while this one is on show
  }
}

/** The next turn or decision after the chosen delay (counted from when this one was shown). */
function schedule() {
  clearTimeout(viewer.timer);
  viewer.timer = setTimeout(() => {
    if (viewer.playing) move(1);
  }, Number($("speed").value));
}

function pause() {
  clearTimeout(viewer.timer);
  viewer.playing = false;
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-pressed", "false");
  document.body.dataset.playing = "false";
}

function toggle() {
  if (viewer.playing) pause();
  else play();
}

async function openGame(id) {
  try {
    const text = await api("GET", `/api/games/${encodeURIComponent(id)}/record`, {raw: true});
    await open(text, `game ${id}`, id);
  } catch (exc) {
    const why = exc instanceof ApiError && exc.status === 404 ? `no game "${id}"` : exc.message;
    message(`Cannot open game ${id}: ${why}`);
  }
}

const byHand = (fn) => () => { pause(); fn(); };
$("first").addEventListener("click", byHand(() => go(0, -1)));
$("prev").addEventListener("click", byHand(() => move(-1)));
$("next").addEventListener("click", byHand(() => move(1)));
$("last").addEventListener("click", byHand(last));
$("play").addEventListener("click", toggle);
$("by-turn").addEventListener("click", () => setUnit("turn"));
$("by-decision").addEventListener("click", () => setUnit("decision"));
$("speed").addEventListener("change", () => { if (viewer.playing) schedule(); });
$("slider").addEventListener("input", (e) => { pause(); go(Number(e.target.value)); });
$("by-id").addEventListener("submit", (e) => {
  e.preventDefault();
  openGame($("game-id").value.trim());
});
$("record-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  open(await file.text(), file.name);
});
document.addEventListener("keydown", (e) => {
  if (!viewer.ready || e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input:not([type=range]), textarea, select")) return;
  const moves = {ArrowLeft: -1, ArrowRight: 1};
  if (e.key in moves) { e.preventDefault(); pause(); move(moves[e.key]); }
  else if (e.key === "Home") { e.preventDefault(); pause(); go(0, -1); }
  else if (e.key === "End") { e.preventDefault(); pause(); last(); }
  else if ((e.key === " " || e.key === "k") && !e.target.closest("button, a")) { e.preventDefault(); toggle(); }
});

const id = new URLSearchParams(location.search).get("game");
if (id) {
  $("game-id").value = id;
  openGame(id);
}

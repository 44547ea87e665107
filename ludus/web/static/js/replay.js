// The replay viewer: a finished game (by id) or a record file, stepped forward and back, by hand
// or played on its own. The record is loaded once (a finished game's from the server, a file read
// here); each step's public view is then asked of the server as the person reaches it (one small
// request, replayed by the server from the record: a finished game's own by its id, a record file
// posted and checked action by action by the engine) and kept, so going back or playing again asks
// nothing. While playing, and stepping forward, the next step is fetched ahead. The page asks at
// most 500 steps a minute, within the server's replay rate: a whole game played at the fastest
// speed (one step each 120 ms) never reaches it.

import {api, ApiError} from "./api.js";
import {gameModule, parseSvg, showBoard} from "./board.js";
import {rulesButton} from "./rules.js";
import {el, fill, say, seatName} from "./util.js";

const $ = (id) => document.getElementById(id);
// At most MOST step requests in any minute, within the server's default replay rate (600 a minute
// per address, shared with the game page); a refusal for now (429, 503) is waited out.
const MOST = 500;
const MINUTE_MS = 60_000;
const TRIES = 5;
const viewer = {
  gen: 0, // which record is open: an answer for an earlier one is dropped
  ready: false, record: null, label: "", source: null, module: null, log: [], steps: 0, seats: null,
  answers: [], // each step's answer once fetched
  step: 0, // the step shown
  target: 0, // the step asked for (shown once its answer is here)
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

function request(source, step) {
  const headers = {Accept: "application/json"};
  if (source.gameId !== null) {
    return fetch(`/api/games/${encodeURIComponent(source.gameId)}/replay?step=${step}&svg=${source.svg}`, {headers});
  }
  // the record goes as its original text: a seed above 2**53 would not survive JSON.parse
  const body = `{"step": ${step}, "svg": ${source.svg}, "record": ${source.text}}`;
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

/** One step's answer from the server, a refusal for now waited out. */
async function ask(source, step) {
  for (let tries = 1; ; tries++) {
    await spaced();
    let response;
    try {
      response = await request(source, step);
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

/** The step to fetch next: the one asked for, else (stepping forward) the one after it; null: none. */
function wanted() {
  if (!viewer.ready) return null;
  if (!viewer.answers[viewer.target]) return viewer.target;
  const next = viewer.target + 1;
  return viewer.forward && next <= viewer.steps && !viewer.answers[next] ? next : null;
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
      else if (step === viewer.step + 1) parseAhead(step);
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
    first = await ask(source, 0); // the server replays the whole record once: a bad action is told now
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
  const seats = recordSeats(record);
  Object.assign(viewer, {record, label, source, module, log, seats, answers: [first], steps: first.steps, step: 0, target: 0,
    forward: false, ahead: null, ready: true});
  $("rules").replaceChildren(rulesButton(first.game));
  $("slider").max = String(viewer.steps);
  $("viewer").hidden = false;
  // the moves in sentences where the game's module can say them from the actions (seats from 1, rounds,
  // notation on request), else in notation
  const entries = module.replaySentences ? module.moveLog(first.observation, {}, {log, seat: null, seats}) : null;
  const said = Array.isArray(entries) && entries.length === record.actions.length ? entries : null;
  fill($("log"), record.actions.map((a, i) => {
    const [round, line] = said ? module.logItem(said[i]) : [null, a];
    return el("li", {}, round,
      el("a", {href: `#step-${i + 1}`, "data-step": i + 1, onclick: (e) => { e.preventDefault(); pause(); go(i + 1); }}, line));
  }));
  document.body.dataset.loaded = "true";
  go(0);
}

/** The seats' names a record of this server carries (as its table showed them), as a view's seats. */
function recordSeats(record) {
  if (!Array.isArray(record.names)) return null;
  return record.names.slice(0, 16).map((name, seat) => ({seat, name: typeof name === "string" && name ? name.slice(0, 64) : null}));
}

/** A seat as the game page names it: "Name, Seat N", or "Seat N" for a seat without a name. */
function seatLabel(seat) {
  const name = viewer.seats?.find((s) => s.seat === seat)?.name;
  return `${name ? `${name}, ` : ""}${seatName(seat)}`;
}

/** Head for `step`: shown at once if its answer is here, else once it comes. */
function go(step) {
  step = Math.max(0, Math.min(viewer.steps, step));
  viewer.forward = viewer.playing || step === viewer.target + 1;
  viewer.target = step;
  document.body.dataset.target = String(step);
  if (viewer.answers[step]) display(step);
  else {
    $("slider").value = String(step);
    $("where").textContent = `Step ${step} / ${viewer.steps}: loading…`;
  }
  pump();
}

function display(step) {
  const started = performance.now();
  show(step);
  document.body.dataset.stepMs = (performance.now() - started).toFixed(1);
}

function show(step) {
  const data = viewer.answers[step];
  viewer.step = step;
  $("slider").value = String(step);
  $("slider").setAttribute("aria-valuetext", `step ${step} of ${viewer.steps}`);
  $("where").textContent = `Step ${step} / ${viewer.steps}${data.action ? `: ${data.action}` : " (start)"}${data.terminal ? " — game over" : ""}`;
  document.body.dataset.step = String(step);
  // each seat's last turn up to this step is marked on the board, as on a live page
  viewer.module.lastMoveLog?.({version: step, seat: null, observation: data.observation, log: viewer.log.slice(0, step)});
  const ahead = viewer.ahead?.step === step ? viewer.ahead.node : null;
  showBoard($("board"), viewer.module, data.observation, ahead || (data.svg ?? null));
  parseAhead(step + 1);
  viewer.module.fillSummary($("summary"), data.observation);
  fill($("scores"), el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, viewer.module.words.seatInfo || "Pieces"),
    el("th", {class: "num"}, "Points"))),
  el("tbody", {}, data.scores.map((score, seat) => el("tr", {},
    el("td", {}, seatLabel(seat), data.winners.includes(seat) ? " (winner)" : "",
      data.current_player === seat ? " ▶" : ""),
    el("td", {}, viewer.module.describeSeat(data.observation, seat)),
    el("td", {class: "num"}, score)))));
  $("first").disabled = $("prev").disabled = step === 0;
  $("next").disabled = $("last").disabled = step === viewer.steps;
  if (viewer.playing) {
    if (step >= viewer.steps) pause();
    else schedule();
  }
  $("log").querySelector("li.current")?.classList.remove("current");
  const current = $("log").children[step - 1];
  if (current) {
    current.classList.add("current");
    // scroll the move list only (the current move in its middle), never the page; measured last,
    // once every change is made, so that the page is laid out once per step
    const box = $("log").getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.top < box.top || item.bottom > box.bottom) $("log").scrollTop += item.top - box.top - (box.height - item.height) / 2;
  }
}

/** Parse the next step's board while the browser is idle: stepping forward then only swaps it in. */
function parseAhead(step) {
  viewer.ahead = null;
  const board = viewer.answers[step]?.svg;
  if (!board) return;
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 0));
  idle(() => {
    if (viewer.step === step - 1 && !viewer.ahead) viewer.ahead = {step, node: parseSvg(board)};
  });
}

// -- autoplay ---------------------------------------------------------------------------------
function play() {
  if (!viewer.ready) return;
  viewer.playing = true;
  $("play").textContent = "⏸ Pause";
  $("play").setAttribute("aria-pressed", "true");
  document.body.dataset.playing = "true";
  if (viewer.step >= viewer.steps) go(0);
  else {
    viewer.forward = true;
    schedule();
    pump(); // the next step, fetched while this one is on show
  }
}

/** The next step after the chosen delay (counted from when this step was shown). */
function schedule() {
  clearTimeout(viewer.timer);
  viewer.timer = setTimeout(() => {
    if (viewer.playing) go(viewer.step + 1);
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
$("first").addEventListener("click", byHand(() => go(0)));
$("prev").addEventListener("click", byHand(() => go(viewer.target - 1)));
$("next").addEventListener("click", byHand(() => go(viewer.target + 1)));
$("last").addEventListener("click", byHand(() => go(viewer.steps)));
$("play").addEventListener("click", toggle);
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
  if (e.key in moves) { e.preventDefault(); pause(); go(viewer.target + moves[e.key]); }
  else if (e.key === "Home") { e.preventDefault(); pause(); go(0); }
  else if (e.key === "End") { e.preventDefault(); pause(); go(viewer.steps); }
  else if ((e.key === " " || e.key === "k") && !e.target.closest("button, a")) { e.preventDefault(); toggle(); }
});

const id = new URLSearchParams(location.search).get("game");
if (id) {
  $("game-id").value = id;
  openGame(id);
}

// The replay viewer: a finished game (by id) or an uploaded record, stepped forward and back,
// by hand or played on its own. One request brings the whole replay, run by the server (a
// finished game's own record by its id; a record file is posted, checked action by action by the
// engine): the first public view and a JSON patch per step, with the boards as line edits. Every
// step is then shown from memory, without asking the server again.

import {api, ApiError, apiText, applyPatch} from "./api.js";
import {gameModule, parseSvg, showBoard} from "./board.js";
import {rulesButton} from "./rules.js";
import {el, fill, say, seatName} from "./util.js";

const $ = (id) => document.getElementById(id);
const viewer = {record: null, step: 0, steps: 0, views: [], log: [], boards: [], module: null, timer: null, playing: false,
  ahead: null}; // ahead: {step, node}, the next step's board already parsed

function message(text, kind = "error") {
  say($("message"), text, kind);
}

/** The whole replay: every step's view rebuilt from the first one and its patches, every board from its edits. */
async function fetchAll(record, text, gameId, wantSvg) {
  let whole;
  if (gameId !== null) {
    whole = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay/all?svg=${wantSvg}`);
  } else {
    // the record goes as its original text: a seed above 2**53 would not survive JSON.parse
    const body = `{"step": "all", "svg": ${wantSvg}, "record": ${text}}`;
    whole = JSON.parse(await apiText("POST", "/api/replay", {body}));
  }
  const views = [whole.first];
  for (const ops of whole.patches) views.push(applyPatch(views[views.length - 1], ops));
  const boards = [whole.svg];
  if (whole.svg !== null && whole.svg !== undefined) {
    let lines = whole.svg.split("\n");
    for (const edits of whole.svg_patches) {
      lines = lines.slice();
      for (let i = edits.length - 1; i >= 0; i--) lines.splice(edits[i][0], edits[i][1], ...edits[i][2]);
      boards.push(lines.join("\n"));
    }
  }
  return {whole, views, boards};
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
  message(`Loading ${label}…`, "info");
  let loaded;
  let module;
  try {
    module = await gameModule(record.game);
    loaded = await fetchAll(record, text, gameId, !module.ownBoard);
  } catch (exc) {
    message(`Cannot replay ${label}: ${exc.message}`);
    $("viewer").hidden = true;
    return;
  }
  message(`Replaying ${label}.`, "info");
  // who played each action: the seat to move in the step before it
  const log = record.actions.map((action, i) => ({seat: loaded.views[i].current_player, action}));
  Object.assign(viewer, {record, module, log, views: loaded.views, boards: loaded.boards, steps: loaded.whole.steps});
  $("rules").replaceChildren(rulesButton(loaded.whole.game));
  $("slider").max = String(viewer.steps);
  $("viewer").hidden = false;
  // the moves in sentences where the game's module can say them from the actions (seats from 1, rounds,
  // notation on request), else in notation
  const entries = module.replaySentences ? module.moveLog(loaded.views[0].observation, {}, {log, seat: null, seats: null}) : null;
  const said = Array.isArray(entries) && entries.length === record.actions.length ? entries : null;
  fill($("log"), record.actions.map((a, i) => {
    const [round, line] = said ? module.logItem(said[i]) : [null, a];
    return el("li", {}, round,
      el("a", {href: `#step-${i + 1}`, "data-step": i + 1, onclick: (e) => { e.preventDefault(); pause(); go(i + 1); }}, line));
  }));
  document.body.dataset.loaded = "true";
  go(0);
}

function go(step) {
  step = Math.max(0, Math.min(viewer.steps, step));
  const started = performance.now();
  show(step);
  document.body.dataset.stepMs = (performance.now() - started).toFixed(1);
}

function show(step) {
  const data = viewer.views[step];
  viewer.step = step;
  $("slider").value = String(step);
  $("slider").setAttribute("aria-valuetext", `step ${step} of ${viewer.steps}`);
  $("where").textContent = `Step ${step} / ${viewer.steps}${data.action ? `: ${data.action}` : " (start)"}${data.terminal ? " — game over" : ""}`;
  document.body.dataset.step = String(step);
  // each seat's last turn up to this step is marked on the board, as on a live page
  viewer.module.lastMoveLog?.({version: step, seat: null, observation: data.observation, log: viewer.log.slice(0, step)});
  const ahead = viewer.ahead?.step === step ? viewer.ahead.node : null;
  showBoard($("board"), viewer.module, data.observation, ahead || (viewer.boards[step] ?? null));
  parseAhead(step + 1);
  viewer.module.fillSummary($("summary"), data.observation);
  fill($("scores"), el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, viewer.module.words.seatInfo || "Pieces"),
    el("th", {class: "num"}, "Points"))),
  el("tbody", {}, data.scores.map((score, seat) => el("tr", {},
    el("td", {}, seatName(seat), data.winners.includes(seat) ? " (winner)" : "",
      data.current_player === seat ? " ▶" : ""),
    el("td", {}, viewer.module.describeSeat(data.observation, seat)),
    el("td", {class: "num"}, score)))));
  $("first").disabled = $("prev").disabled = step === 0;
  $("next").disabled = $("last").disabled = step === viewer.steps;
  if (step === viewer.steps && viewer.playing) pause();
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
  if (!viewer.boards[step]) return;
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 0));
  idle(() => {
    if (viewer.step === step - 1 && !viewer.ahead) viewer.ahead = {step, node: parseSvg(viewer.boards[step])};
  });
}

// -- autoplay ---------------------------------------------------------------------------------
function play() {
  if (!viewer.record) return;
  if (viewer.step >= viewer.steps) go(0);
  viewer.playing = true;
  $("play").textContent = "⏸ Pause";
  $("play").setAttribute("aria-pressed", "true");
  document.body.dataset.playing = "true";
  tick();
}

function tick() {
  clearTimeout(viewer.timer);
  viewer.timer = setTimeout(() => {
    if (!viewer.playing) return;
    go(viewer.step + 1);
    if (viewer.playing) tick();
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
$("prev").addEventListener("click", byHand(() => go(viewer.step - 1)));
$("next").addEventListener("click", byHand(() => go(viewer.step + 1)));
$("last").addEventListener("click", byHand(() => go(viewer.steps)));
$("play").addEventListener("click", toggle);
$("speed").addEventListener("change", () => { if (viewer.playing) tick(); });
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
  if (!viewer.record || e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input:not([type=range]), textarea, select")) return;
  const moves = {ArrowLeft: -1, ArrowRight: 1};
  if (e.key in moves) { e.preventDefault(); pause(); go(viewer.step + moves[e.key]); }
  else if (e.key === "Home") { e.preventDefault(); pause(); go(0); }
  else if (e.key === "End") { e.preventDefault(); pause(); go(viewer.steps); }
  else if ((e.key === " " || e.key === "k") && !e.target.closest("button, a")) { e.preventDefault(); toggle(); }
});

const id = new URLSearchParams(location.search).get("game");
if (id) {
  $("game-id").value = id;
  openGame(id);
}

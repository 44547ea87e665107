// The replay viewer: a finished game (by id) or an uploaded record, stepped forward and back;
// the server replays the record to each step and returns the public view and its SVG (a finished
// game's own record by its id; a record file is posted, checked action by action by the engine).

import {api, ApiError, apiText} from "./api.js";
import {gameModule, showBoard} from "./board.js";
import {rulesButton} from "./rules.js";
import {el, fill, say, seatName} from "./util.js";

const $ = (id) => document.getElementById(id);
const viewer = {record: null, recordText: null, gameId: null, step: 0, steps: 0, cache: new Map(), seq: 0, module: null};

function message(text, kind = "error") {
  say($("message"), text, kind);
}

async function fetchStep(step) {
  if (!viewer.cache.has(step)) {
    if (viewer.gameId !== null) {
      viewer.cache.set(step, api("GET", `/api/games/${encodeURIComponent(viewer.gameId)}/replay?step=${step}`));
    } else {
      // the record goes as its original text: a seed above 2**53 would not survive JSON.parse
      const body = `{"step": ${step}, "record": ${viewer.recordText}}`;
      viewer.cache.set(step, apiText("POST", "/api/replay", {body}).then(JSON.parse));
    }
  }
  try {
    return await viewer.cache.get(step);
  } catch (exc) {
    viewer.cache.delete(step);
    throw exc;
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
  viewer.record = record;
  viewer.recordText = text;
  viewer.gameId = gameId;
  viewer.cache = new Map();
  let first;
  try {
    first = await fetchStep(0);
  } catch (exc) {
    message(`Cannot replay ${label}: ${exc.message}`);
    $("viewer").hidden = true;
    return;
  }
  message(`Replaying ${label}.`, "info");
  viewer.steps = first.steps;
  viewer.module = gameModule(first.game);
  const rules = $("rules");
  rules.replaceChildren(rulesButton(first.game));
  $("slider").max = String(first.steps);
  $("viewer").hidden = false;
  fill($("log"), record.actions.map((a, i) => el("li", {},
    el("a", {href: `#step-${i + 1}`, "data-step": i + 1, onclick: (e) => { e.preventDefault(); go(i + 1); }}, a))));
  show(first);
}

async function go(step) {
  step = Math.max(0, Math.min(viewer.steps, step));
  const seq = ++viewer.seq;
  try {
    const data = await fetchStep(step);
    if (seq === viewer.seq) show(data);
    if (step < viewer.steps) fetchStep(step + 1).catch(() => {}); // the next step is usually wanted next
  } catch (exc) {
    message(`Cannot show step ${step}: ${exc.message}`);
  }
}

function show(data) {
  viewer.step = data.step;
  $("slider").value = String(data.step);
  $("where").textContent = `Step ${data.step} / ${data.steps}${data.action ? `: ${data.action}` : " (start)"}${data.terminal ? " — game over" : ""}`;
  document.body.dataset.step = String(data.step);
  showBoard($("board"), viewer.module, data.observation, data.svg);
  viewer.module.fillSummary($("summary"), data.observation);
  fill($("scores"), el("tbody", {}, data.scores.map((score, seat) => el("tr", {},
    el("td", {}, seatName(seat), data.winners.includes(seat) ? " (winner)" : "",
      data.current_player === seat ? " ▶" : ""),
    el("td", {}, viewer.module.describeSeat(data.observation, seat)),
    el("td", {class: "num"}, score)))));
  for (const li of $("log").children) li.classList.remove("current");
  const current = $("log").children[data.step - 1];
  if (current) {
    current.classList.add("current");
    current.scrollIntoView({block: "nearest"});
  }
  $("first").disabled = $("prev").disabled = data.step === 0;
  $("next").disabled = $("last").disabled = data.step === data.steps;
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

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(viewer.step - 1));
$("next").addEventListener("click", () => go(viewer.step + 1));
$("last").addEventListener("click", () => go(viewer.steps));
$("slider").addEventListener("input", (e) => go(Number(e.target.value)));
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
  if (!viewer.record || e.target.closest("input, textarea, select")) return;
  const moves = {ArrowLeft: -1, ArrowRight: 1};
  if (e.key in moves) { e.preventDefault(); go(viewer.step + moves[e.key]); }
  else if (e.key === "Home") { e.preventDefault(); go(0); }
  else if (e.key === "End") { e.preventDefault(); go(viewer.steps); }
});

const id = new URLSearchParams(location.search).get("game");
if (id) {
  $("game-id").value = id;
  openGame(id);
}

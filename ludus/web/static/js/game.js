// The game page, /games/{id}#token=...: the seat's view, live over a WebSocket, moves by clicks.
// The token leaves the address bar at once (kept in sessionStorage), and never travels in a URL.
//
// Every legal action of the seat to move is one button carrying data-action="<notation>" in the
// list; the board adds clickable overlays (data-board-action) for two-step moves. The end screen
// carries data-testid="game-over". Tools outside ludus can drive the page by those attributes.

import {api, ApiError, applyPatch, boardSvg, dropToken, gameUrl, meta, takeToken, tokens, wsUrl} from "./api.js";
import {gameModule, setOverlay, showBoard} from "./board.js";
import {maybeSignedIn} from "./account.js";
import {chatMessage, initChat} from "./chat.js";
import {initHints} from "./hint.js";
import {initSeatName} from "./seatname.js";
import {gameNotices} from "./notices.js";
import {rulesButton} from "./rules.js";
import {initTable, joinByLink, linkRow, renderTable} from "./table.js";
import {turnItems} from "./log.js";
import {download, el, fill, say, seatName} from "./util.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
let token = takeToken(gameId);
const joining = location.hash === "#join"; // the table's join link: take a seat offered by it
if (joining) history.replaceState(history.state, "", location.pathname);

const page = {
  view: null,
  module: null,
  hasSvg: false,
  board: null,
  boardKey: null,
  boardSeq: 0,
  selection: null,
  busy: false,
  seen: loadSeen(),
  socket: null,
  live: null, // the socket's last view: the base of its next patch
  retries: 0,
  overShown: false,
  record: null,
  keyHandler: () => false,
  skewMs: 0, // the server's clock minus this browser's, from the last view's server_time
  countdownTimer: null,
};

function loadSeen() {
  try { return JSON.parse(sessionStorage.getItem(`ludus:seen:${gameId}`)) || {}; } catch { return {}; }
}

function saveSeen() {
  try { sessionStorage.setItem(`ludus:seen:${gameId}`, JSON.stringify(page.seen)); } catch { /* private mode */ }
}

function message(text, kind = "error") {
  say($("message"), text, kind);
}

function mySeat() {
  return page.view ? page.view.seat : null;
}

function myTurn() {
  const v = page.view;
  return !!v && !v.terminal && v.legal_actions.length > 0;
}

function seatLabel(seat) {
  const info = page.view?.seats?.find((s) => s.seat === seat);
  let who = "";
  if (info?.left) who = ` (${seat === mySeat() ? "you " : ""}left; ${info.bot || "a bot"} plays)`;
  else if (seat === mySeat()) who = " (you)";
  else if (info?.bot) who = ` (bot: ${info.bot})`;
  else if (info?.free) who = " (open seat)";
  return `${info?.name ? `${info.name}, ` : ""}${seatName(seat)}${who}`;
}

// -- rendering ------------------------------------------------------------------------------
function render(view) {
  if (page.view && view.version < page.view.version) return; // an older push arrived late
  const prev = page.view;
  const changed = !prev || prev.version !== view.version || prev.seat !== view.seat;
  if (changed) {
    page.selection = null;
    if (prev && prev.observation && view.observation && prev.version !== view.version) {
      page.seen = page.module.trackWorkers(prev.observation, view.observation, page.seen);
      saveSeen();
    }
  }
  page.view = view;
  if (typeof view.server_time === "number") page.skewMs = view.server_time * 1000 - Date.now();
  const body = document.body.dataset;
  body.version = view.version;
  body.myTurn = String(myTurn());
  body.terminal = String(view.terminal);
  body.seat = view.seat === null ? "spectator" : String(view.seat);
  if (view.observation?.phase) body.phase = view.observation.phase;

  $("title").textContent = `${page.title || view.game} · ${view.seat === null ? "spectating" : seatName(view.seat)}`;
  document.title = `ludus — ${page.title || view.game}${myTurn() ? " (your turn)" : ""}`;
  gameNotices(view, myTurn()); // hidden tab: title, icon, sound, notification
  renderTurn(view);
  renderCountdown();
  renderPanels(view);
  renderSeats(view);
  renderHands(view);
  renderInteraction();
  renderLog(view);
  renderBoard(view);
  if (view.terminal) renderOver(view);
  renderTable(view); // table.js: the waiting room, a turn-based table's deadline, the rematch
}

function renderTurn(view) {
  let turn;
  if (view.terminal) {
    turn = "Game over";
  } else if (myTurn()) {
    turn = "Your turn";
  } else if (view.current_player >= 0) {
    turn = `${seatLabel(view.current_player)} to move`;
  } else {
    turn = "Waiting";
  }
  $("turn").textContent = turn;
  const timer = view.table?.turn_hours ? null : view.options?.turn_seconds; // turn-based: table.js says
  fill($("phase"), page.module.status(view),
    timer && !view.terminal ? ` · ${timer} s per turn, then a bot plays it` : "");
  page.module.fillSummary($("summary"), view.observation);
}

function formatLeft(seconds) {
  if (seconds < 60) return `${seconds} s`;
  const pad = (n) => String(n).padStart(2, "0");
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${pad(Math.floor(seconds / 60) % 60)} min`;
}

// The turn timer: time left before a bot plays the turn of the seat to move, from the view's
// turn_deadline on the server's clock; redrawn as each whole second passes.
function renderCountdown() {
  clearTimeout(page.countdownTimer);
  page.countdownTimer = null;
  const box = $("countdown");
  const view = page.view;
  const deadline = view && !view.terminal ? view.turn_deadline : null;
  if (typeof deadline !== "number") {
    box.hidden = true;
    box.textContent = "";
    delete document.body.dataset.secondsLeft;
    return;
  }
  const leftMs = deadline * 1000 - (Date.now() + page.skewMs);
  const left = Math.max(0, Math.ceil(leftMs / 1000));
  box.hidden = false;
  box.textContent = left > 0 ? `${formatLeft(left)} left` : "time is up: a bot plays this turn";
  box.classList.toggle("urgent", left <= 10);
  box.title = myTurn() ? "Time left for your turn, then a bot plays it" : "Time left for this turn, then a bot plays it";
  document.body.dataset.secondsLeft = String(left);
  if (leftMs > 0) page.countdownTimer = setTimeout(renderCountdown, (leftMs % 1000 || 1000) + 20);
}

function renderSeats(view) {
  const rows = view.scores.map((score, seat) => el("tr", {class: seat === view.seat ? "seat-you" : null},
    el("td", {}, view.current_player === seat && !view.terminal ? "▶ " : "", seatLabel(seat)),
    el("td", {}, page.module.describeSeat(view.observation, seat)),
    el("td", {class: "num", "data-testid": `score-${seat}`}, score)));
  fill($("seats"), el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, page.module.words.seatInfo), el("th", {class: "num"}, "Points"))),
    el("tbody", {}, rows));
}

/** The game module's panels beside the board (from view.panels: projected scores, categories so far ...). */
function renderPanels(view) {
  const content = page.module.panels?.(view) || null;
  $("game-panels").hidden = !content;
  fill($("game-panels"), content);
}

function renderHands(view) {
  const content = page.module.hands(view.observation);
  $("hands-panel").hidden = !content;
  fill($("hands"), content);
}

function renderInteraction() {
  const view = page.view;
  const legal = myTurn() ? view.legal_actions : [];
  const ctx = {
    obs: view.observation,
    legal,
    board: page.board,
    selection: page.selection,
    afterSkip: myTurn() ? view.after_skip : null, // the move's targets past the optional steps (then: skip)
    ahead: myTurn() ? view.ahead : null, // the stages one and two of the seat's decisions on (routes in one request)
    version: view.version,
    setSelection(sel) {
      page.selection = sel;
      renderInteraction();
      // the pressed control was redrawn: carry the keyboard on to the board's targets
      document.querySelector(".board-overlay [data-board-action]")?.focus({preventScroll: true});
    },
    play,
  };
  const part = legal.length ? page.module.interaction(ctx) : {controls: null, overlay: null, onKey: () => false};
  page.keyHandler = part.onKey;
  let info = null;
  if (view.terminal) info = el("p", {}, "The game is over.");
  else if (view.seat === null) info = el("p", {}, "You are watching. Moves are made by the seats.");
  else if (!legal.length) info = el("p", {}, "Waiting for the other seats…");
  fill($("controls"), info, part.controls);
  $("undo").disabled = view.seat === null || view.terminal || !legal.length;
  $("leave").disabled = view.seat === null || view.terminal || !!view.seats?.find((s) => s.seat === view.seat)?.left;
  $("play-panel").hidden = view.seat === null && !view.terminal;
  fill($("legal"), (part.narrow ? legal.filter(part.narrow) : legal).map((action) => el("button", {type: "button", "data-action": action,
    onclick: () => play(action)}, action)));
  $("moves").hidden = view.seat === null || view.terminal || !legal.length; // no empty box: the controls say who moves
  $("typed").hidden = !legal.length;
  page.overlayGroup = part.overlay;
  placeOverlay();
}

function placeOverlay() {
  const overlay = setOverlay($("board"), page.board, page.overlayGroup);
  if (!overlay) return;
  const activate = (e) => {
    const target = e.target.closest("[data-board-action], [data-board-area]");
    if (!target) return false;
    if (target.hasAttribute("data-board-action")) {
      play(target.getAttribute("data-board-action"));
    } else {
      page.selection = {area: target.getAttribute("data-board-area")}; // a two-step move: which action there
      renderInteraction();
      document.querySelector("[data-choice]")?.focus();
    }
    return true;
  };
  overlay.addEventListener("click", activate);
  overlay.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && activate(e)) e.preventDefault();
  });
}

async function renderBoard(view) {
  const obs = view.observation;
  const key = JSON.stringify(obs);
  if (key === page.boardKey) return;
  page.boardKey = key;
  const seq = ++page.boardSeq;
  let text = null;
  if (page.hasSvg) {
    try {
      text = await boardSvg(gameId, token, view, page.heldSvg);
      if (text !== null) page.heldSvg = {version: view.version, text};
    } catch (exc) {
      message(`The board could not be drawn by the server (${exc.message}); showing a plain drawing.`);
    }
  }
  if (seq !== page.boardSeq) return; // a newer view is being drawn
  if (page.hasSvg && text === null && page.board) return; // the game moved on: the newer view redraws
  page.board = showBoard($("board"), page.module, obs, text);
  document.body.dataset.boardVersion = view.version;
  if (page.module.overlays) placeOverlay();
  else renderInteraction(); // board targets are found in the drawing: build them once it is there
}

function renderLog(view) {
  let entries;
  // a module reading the server's ordered log keeps it (and the seats' names) to the end
  if (page.record && !(view.log && page.module.serverLog)) {
    entries = page.record.actions.map((text) => ({text}));
  } else {
    entries = page.module.moveLog(view.observation, page.seen, view);
  }
  // one entry per turn of a seat (the server's turns over its log), each turn's steps behind a disclosure
  const byTurn = Array.isArray(view.turns) && Array.isArray(view.log) && entries.length === view.log.length;
  fill($("log"), byTurn ? turnItems(view.turns, entries, page.module.logItem, view.log)
    : entries.map((e) => el("li", {}, page.module.logItem(e))));
  $("log").scrollTop = $("log").scrollHeight;
}

async function renderOver(view) {
  if (page.overShown) return;
  page.overShown = true;
  const winners = view.winners || [];
  const section = el("section", {class: "panel game-over", "data-testid": "game-over", "aria-labelledby": "over-title"},
    el("h2", {id: "over-title", tabindex: -1}, "Game over"),
    el("p", {"data-testid": "winners"}, page.module.verdict?.(view) || (winners.length
      ? `${winners.length > 1 ? "Shared win" : "Winner"}: ${winners.map(seatLabel).join(", ")}`
      : "No winner")),
    el("div", {id: "breakdown"}, page.module.breakdown(view, seatLabel)),
    el("p", {class: "row"},
      el("button", {type: "button", class: "primary", "data-testid": "download-record", onclick: downloadRecord},
        "Download the record"),
      el("a", {class: "button", href: `/replay?game=${encodeURIComponent(gameId)}`}, "Replay this game"),
      el("a", {class: "button", href: "/"}, "New game")));
  fill($("over-slot"), section);
  section.querySelector("h2").focus();
  try {
    await loadRecord();
    renderLog(view);
    if (page.module.wantsBreakdown) {
      // the record is public now: the server's replay of it tells each seat's score by category
      const end = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay?step=${page.record.actions.length}`);
      if (end.breakdown) fill($("breakdown"), page.module.breakdown({...view, breakdown: end.breakdown}, seatLabel));
    }
  } catch (exc) {
    message(`The record is not available: ${exc.message}`);
  }
}

async function loadRecord() {
  if (page.recordText) return;
  const text = await api("GET", `/api/games/${encodeURIComponent(gameId)}/record`, {raw: true});
  page.record = JSON.parse(text); // for the actions; the text keeps the exact seed
  page.recordText = text;
}

async function downloadRecord() {
  try {
    await loadRecord();
    download(`ludus-${page.view.game}-${gameId}.json`, page.recordText);
  } catch (exc) {
    message(`Cannot download the record: ${exc.message}`);
  }
}

// -- acting ---------------------------------------------------------------------------------
async function play(action, then = []) {
  if (page.busy) return;
  if (!token && mySeat() === null) { message("You are watching: open the game with your seat's link to play."); return; }
  page.busy = true;
  document.body.dataset.busy = "true";
  try {
    const view = await sendAction(then.length ? {action, version: page.view.version, then}
      : {action, version: page.view.version}); // then: more actions, all or nothing (skip + move)
    message("");
    page.seen = page.module.noteMove(page.seen, action);
    saveSeen();
    if (view) render(view);
  } catch (exc) {
    refused(exc, `Move "${action}" refused`);
  } finally {
    page.busy = false;
    document.body.dataset.busy = "false";
  }
}

/**
 * Send a move ({action, version}): over the live socket when it is open, whose answer is the
 * next view's patch (a few hundred bytes, not the whole view), else over HTTP. Resolves to the
 * new view over HTTP, to null once the socket's new view is drawn; rejects with the refusal.
 */
function sendAction(body) {
  if (page.socket?.readyState !== WebSocket.OPEN || !page.live || page.live.seat !== page.view.seat) {
    return api("POST", `/api/games/${encodeURIComponent(gameId)}/actions`, {token, body});
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new ApiError(0, "no answer from the server")), 15000);
    page.pending = {version: page.view.version, resolve, reject, timer};
    page.socket.send(JSON.stringify(body));
  });
}

/** The socket's answer to a move sent over it: a newer view (or the socket gone), or an error. */
function settle(error = null) {
  const pending = page.pending;
  if (!pending || (!error && page.view.version <= pending.version && page.socket?.readyState === WebSocket.OPEN)) return false;
  page.pending = null;
  clearTimeout(pending.timer);
  if (error) pending.reject(error);
  else pending.resolve(null);
  return true;
}

async function undo() {
  if (page.busy || (!token && mySeat() === null)) return; // a seat: by its token, or the session's account
  page.busy = true;
  try {
    const view = await api("POST", `/api/games/${encodeURIComponent(gameId)}/undo`,
      {token, body: {version: page.view.version}});
    message("Your last decision was taken back.", "info");
    page.seen = page.module.forgetMove(page.seen);
    saveSeen();
    render(view);
  } catch (exc) {
    refused(exc, "Undo refused");
  } finally {
    page.busy = false;
  }
}

async function leave() {
  if ((!token && mySeat() === null) || !confirm("Leave this game? A bot will play your seat so the others can finish.")) return;
  try {
    const left = await api("POST", `/api/games/${encodeURIComponent(gameId)}/leave`, {token});
    message(`You left; ${left.bot} plays seat ${left.seat + 1} now.`, "info");
    await refresh();
  } catch (exc) {
    refused(exc, "Leaving refused");
  }
}

function refused(exc, what) {
  const detail = exc instanceof ApiError ? exc.detail : String(exc);
  const status = exc instanceof ApiError && exc.status ? ` (${exc.status})` : "";
  message(`${what}${status}: ${detail}`);
  document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
  if (exc instanceof ApiError && (exc.status === 409 || exc.status === 403)) refresh();
}

async function refresh() {
  try {
    render(await api("GET", `/api/games/${encodeURIComponent(gameId)}`, {token}));
  } catch (exc) {
    message(`Cannot load the game: ${exc.message}`);
  }
}

// -- live updates -----------------------------------------------------------------------------
// After its first view the socket sends patches: {patch, seat, base, version}. They apply to the
// socket's last view (page.live), or to the same version fetched over HTTP meanwhile (a move's
// answer); a gap (a dropped message) reloads the whole view over HTTP.
function livePatch(data) {
  const base = [page.live, page.view].find((v) => v && v.seat === data.seat && v.version === data.base);
  if (base) {
    try {
      page.live = applyPatch(base, data.patch);
      if (!(token && page.live.seat === null)) render(page.live);
      return;
    } catch { /* not this view's patch after all: reload it */ }
  }
  page.live = null;
  if (!page.view || page.view.version < data.version) refresh();
}

function connect() {
  const conn = $("conn");
  let socket;
  try {
    socket = new WebSocket(wsUrl(gameId, {patches: true}));
  } catch (exc) {
    conn.className = "conn down";
    conn.textContent = "offline";
    return;
  }
  page.socket = socket;
  socket.addEventListener("open", () => {
    if (token) socket.send(JSON.stringify({token})); // the seat's view follows the spectator's
    page.retries = 0;
    conn.className = "conn live";
    conn.textContent = "live";
    document.body.dataset.live = "true";
    document.body.dataset.connections = String(Number(document.body.dataset.connections || 0) + 1);
  });
  socket.addEventListener("message", (event) => {
    let data;
    try { data = JSON.parse(event.data); } catch { return; }
    if (data.error) {
      if (!settle(new ApiError(data.error.status, data.error.detail))) message(`Server: ${data.error.detail}`);
      return;
    }
    if (data.patch !== undefined) { livePatch(data); settle(); return; }
    if (data.chat !== undefined) { chatMessage(data.chat); return; }
    if (data.observation === undefined || data.version === undefined) return;
    page.live = data;
    if (token && data.seat === null) return; // the view before the token message: the seat's own comes next
    render(data);
    settle();
  });
  socket.addEventListener("close", (event) => {
    document.body.dataset.live = "false";
    if (page.pending) { settle(); refresh(); } // a move sent on it: whether it was played, the server's view says
    if (page.socket !== socket) return;
    if (event.code >= 4400 && event.code < 4500) {
      conn.className = "conn down";
      conn.textContent = "closed";
      return;
    }
    const delay = Math.min(5000, 300 * 2 ** page.retries++);
    conn.className = "conn down";
    conn.textContent = "reconnecting…";
    if (page.retries > 1) refresh(); // meanwhile keep the view current over HTTP
    setTimeout(connect, delay);
  });
}

// -- seat links -------------------------------------------------------------------------------
/** Whether the signed-in account's session opens the seat this page's token opens (a guest's token, or
 * one of another seat, is still the key). */
async function heldBySession(view) {
  if (!token || view.seat === null || !maybeSignedIn()) return false;
  try {
    return (await api("GET", `/api/games/${encodeURIComponent(gameId)}`)).seat === view.seat;
  } catch {
    return false;
  }
}

/** A guest's own seat's link (to go on from another device; a signed-in player's session is that key) and,
 * for the creator, each invite link. */
function renderInvites() {
  const invites = Object.entries(tokens.load(gameId).invites || {});
  if (!token && !invites.length) return;
  const section = $("invites");
  section.hidden = false;
  fill(section, el("h2", {}, "Seat links"),
    token && [linkRow("Your seat", gameUrl(gameId, token), "own-link"),
      el("p", {class: "hint"}, "Open your link on another device to play your seat there. Keep it to yourself.")],
    invites.length > 0 && el("p", {class: "hint"}, "Send each invite link to one player: it opens that seat."),
    invites.map(([seat, tok]) => linkRow(`Invite for ${seatName(Number(seat))}`, gameUrl(gameId, tok), `invite-${seat}`)),
    el("p", {}, "Spectators: ", el("a", {href: `/games/${encodeURIComponent(gameId)}`}, "watch link")));
}

// -- start ------------------------------------------------------------------------------------
document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input, textarea, select")) return;
  if (e.key === "Escape") {
    if (page.selection) { page.selection = null; renderInteraction(); e.preventDefault(); }
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey || !myTurn()) return;
  if (page.keyHandler(e)) { e.preventDefault(); return; }
  if (e.key === "u" || e.key === "U") { e.preventDefault(); undo(); }
});

$("undo").addEventListener("click", undo);
$("leave").addEventListener("click", leave);
$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("typed-move").value.trim();
  if (text) play(text).then(() => { $("typed-move").value = ""; });
});

async function start() {
  let view;
  try {
    const info = await meta();
    view = await api("GET", `/api/games/${encodeURIComponent(gameId)}`, {token});
    const joined = joining && !token ? await joinByLink(gameId, view) : null;
    if (joined) {
      token = joined;
      view = await api("GET", `/api/games/${encodeURIComponent(gameId)}`, {token});
    }
    page.module = await gameModule(view.game);
    // a module that draws its own board needs no server SVG per change
    const about = info.games.find((g) => g.name === view.game);
    page.title = about?.title || view.game;
    page.hasSvg = !page.module.ownBoard && !!about?.svg;
  } catch (exc) {
    if (exc instanceof ApiError && exc.status === 401 && token) {
      message(`This link's seat token is not valid for this game (${exc.detail}). Showing the spectator view.`);
      token = null;
      dropToken(gameId);
      return start();
    }
    $("turn").textContent = "Cannot open this game";
    message(exc instanceof ApiError && exc.status === 404 ? `No game "${gameId}".` : `Cannot load the game: ${exc.message}`);
    return;
  }
  if (await heldBySession(view)) {
    token = null; // the session is the key to this seat: no token kept, linked or shown
    dropToken(gameId);
    if (tokens.load(gameId).mine) tokens.save(gameId, {mine: undefined, seat: undefined});
  }
  if (token) tokens.save(gameId, {mine: token});
  $("rules").append(rulesButton(view.game, page.title));
  const words = page.module.words;
  $("hands-title").textContent = words.hands;
  $("typed-move").placeholder = words.placeholder;
  render(view);
  renderInvites();
  initHints({page, gameId, token: () => token, button: $("hint"), box: $("hint-box")});
  initSeatName({page, gameId, token: () => token, form: $("seat-name-form")});
  initChat({page, gameId, token: () => token, panel: $("chat")});
  initTable({gameId, token: () => token, view: () => page.view});
  connect();
}

window.ludusGame = page; // for tests and debugging: the page's state (read-only by convention)
start();

// The game page's table chat: the table's messages (GET /api/games/{id}/chat), new ones pushed over the
// game's WebSocket as {"chat": message} (game.js hands them to chatMessage), a form for the seated
// players (spectators read only), and a mute toggle per other seat. Every text a person wrote is put in
// the page with textContent (el()), never parsed as markup. Also: the seats' ratings beside their names
// in the seats list, when the players have some (GET /api/games/{id}/ratings).

import {api, ApiError, tableRatings} from "./api.js";
import {el, fill, seatName} from "./util.js";

const MAX_LENGTH = 500;
const chat = {page: null, gameId: null, token: () => null, ids: new Set(), muted: new Set(), seat: undefined, seatsKey: "", ratings: {}};
const $ = (id) => document.getElementById(id);

function mySeat() {
  return chat.page?.view ? chat.page.view.seat : null;
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
}

function shownName(message) {
  return message.name || seatName(message.seat);
}

/** One message: the writer's name and the text, both as text. */
function line(message) {
  return el("li", {class: `chat-line${message.seat === mySeat() ? " mine" : ""}`, "data-testid": "chat-message",
    "data-seat": message.seat, "data-id": message.id},
  el("span", {class: "chat-who"}, shownName(message)),
  el("time", {class: "chat-at", datetime: new Date(message.at * 1000).toISOString()}, when(message.at)),
  el("span", {class: "chat-text"}, message.text));
}

function add(message) {
  if (chat.ids.has(message.id) || chat.muted.has(message.seat)) return;
  chat.ids.add(message.id);
  const list = $("chat-list");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.append(line(message));
  $("chat-empty").hidden = true;
  if (atEnd || message.seat === mySeat()) list.scrollTop = list.scrollHeight;
}

/** A message pushed over the WebSocket (game.js calls this for every {"chat": ...} it receives). */
export function chatMessage(message) {
  if (!chat.gameId || !message || typeof message.id !== "number") return;
  add(message);
}

async function load() {
  const path = `/api/games/${encodeURIComponent(chat.gameId)}/chat`;
  try {
    const [messages, mutes] = await Promise.all([
      api("GET", path, {token: chat.token()}),
      mySeat() === null ? {muted: []} : api("GET", `${path}/mute`, {token: chat.token()}),
    ]);
    chat.muted = new Set(mutes.muted);
    chat.ids.clear();
    fill($("chat-list"));
    $("chat-empty").hidden = messages.length > 0;
    messages.forEach(add);
    $("chat-list").scrollTop = $("chat-list").scrollHeight;
  } catch (exc) {
    note(`Cannot load the chat: ${exc.message}`);
  }
}

function note(text) {
  $("chat-note").textContent = text || "";
}

async function send(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  const button = $("chat-send");
  button.disabled = true;
  try {
    const message = await api("POST", `/api/games/${encodeURIComponent(chat.gameId)}/chat`, {body: {text}, token: chat.token()});
    input.value = "";
    note("");
    add(message);
  } catch (exc) {
    note(exc instanceof ApiError && exc.status === 429 ? "Slow down: too many messages in a minute." : `Not sent: ${exc.message}`);
  } finally {
    button.disabled = false;
    counter();
  }
}

async function toggleMute(seat) {
  const muted = !chat.muted.has(seat);
  try {
    const answer = await api("POST", `/api/games/${encodeURIComponent(chat.gameId)}/chat/mute`,
      {body: {seat, muted}, token: chat.token()});
    chat.muted = new Set(answer.muted);
    await load();
  } catch (exc) {
    note(`Cannot change the mute: ${exc.message}`);
  }
  renderControls();
}

function counter() {
  const left = MAX_LENGTH - $("chat-input").value.length;
  $("chat-count").textContent = left < 100 ? `${left} characters left` : "";
}

/** Who sits where, as the mute buttons name them: a change (an invited player accepting) renames them. */
function seatsKey() {
  return JSON.stringify((chat.page?.view?.seats || []).map((s) => [s.name, s.bot]));
}

/** The form for a seated player, the mute toggles for the other seats; a spectator's note otherwise. */
function renderControls() {
  const seat = mySeat();
  chat.seat = seat;
  chat.seatsKey = seatsKey();
  const spectator = seat === null;
  $("chat-form").hidden = spectator;
  $("chat-readonly").hidden = !spectator;
  const seats = chat.page?.view?.seats || [];
  const others = spectator ? [] : seats.filter((s) => s.seat !== seat && !s.bot);
  fill($("chat-mutes"), others.length > 0 && el("span", {class: "hint"}, "Mute:"),
    others.map((s) => {
      const muted = chat.muted.has(s.seat);
      const who = s.name || seatName(s.seat);
      return el("button", {type: "button", class: "chat-mute", "aria-pressed": muted ? "true" : "false",
        "data-testid": `chat-mute-${s.seat}`, title: muted ? `Show ${who}'s messages again` : `Hide ${who}'s messages`,
        onclick: () => toggleMute(s.seat)}, muted ? `Unmute ${who}` : `Mute ${who}`);
    }));
}

// -- ratings beside the names in the seats list ---------------------------------------------------------
function markRatings() {
  const rows = document.querySelectorAll("#seats tbody tr");
  rows.forEach((row, seat) => {
    const rating = chat.ratings[seat];
    const cell = row.querySelector("td");
    if (!cell || rating === undefined || cell.querySelector(".seat-rating")) return;
    cell.append(" ", el("span", {class: "seat-rating", "data-testid": `seat-rating-${seat}`,
      title: `rating after ${rating.games} rated game${rating.games === 1 ? "" : "s"}`}, `(${Math.round(rating.rating)})`));
  });
}

async function loadRatings() {
  try {
    const answer = await tableRatings(chat.gameId);
    chat.ratings = Object.fromEntries(answer.seats.map((s) => [s.seat, s]));
    if (answer.rated) $("chat-rated").hidden = false;
    markRatings();
  } catch { /* ratings are an extra: the page works without them */ }
}

/** Build the panel into ``panel`` and load the chat; called by game.js once the first view is shown. */
export function initChat({page, gameId, token, panel}) {
  chat.page = page;
  chat.gameId = gameId;
  chat.token = token;
  fill(panel,
    el("h2", {id: "chat-title"}, "Table chat ", el("span", {id: "chat-rated", class: "badge", hidden: true}, "rated game")),
    el("div", {id: "chat-mutes", class: "row chat-mutes"}),
    el("ol", {id: "chat-list", class: "chat-list", "aria-live": "polite", "aria-labelledby": "chat-title", tabindex: "0"}),
    el("p", {id: "chat-empty", class: "hint"}, "No messages yet."),
    el("form", {id: "chat-form", class: "chat-form", autocomplete: "off", hidden: true, onsubmit: send},
      el("label", {for: "chat-input", class: "sr-only"}, "Message"),
      el("textarea", {id: "chat-input", rows: "2", maxlength: String(MAX_LENGTH), "data-testid": "chat-input",
        placeholder: "Say something to the table", oninput: counter, onkeydown: (e) => {
          if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("chat-form").requestSubmit(); }
        }}),
      el("div", {class: "row"}, el("button", {type: "submit", id: "chat-send", "data-testid": "chat-send"}, "Send"),
        el("span", {id: "chat-count", class: "hint"}))),
    el("p", {id: "chat-readonly", class: "hint", hidden: true}, "You are watching: the players at the table write here."),
    el("p", {id: "chat-note", class: "message error", role: "status"}));
  renderControls();
  load();
  loadRatings();
  new MutationObserver(() => {
    markRatings();
    if (mySeat() !== chat.seat) { renderControls(); load(); } else if (seatsKey() !== chat.seatsKey) renderControls();
  }).observe($("seats"), {childList: true});
}

// The table's parts of the game page, from the view's `waiting`, `waiting_for`, `table` and `rematch`:
// the waiting room (who has joined, live as views arrive; the link that takes a seat offered to anyone
// with it, with its Copy button; the host's "Start with bots", not on a rated table of a server that
// rates no game with bots; an invited account's Accept / Decline), a turn-based table's time to move and its hand-over, and at the end
// "Rematch". game.js calls renderTable(view) after drawing the rest of the view.

import {api, gameUrl, meta, tableRatings, tokens} from "./api.js";
import {whoAmI} from "./account.js";
import {copyText, el, fill, say, seatName} from "./util.js";

const $ = (id) => document.getElementById(id);
const OFFER = {invite: "invited", link: "anyone with the link", open: "open lobby"};

let ctx = null; // {gameId, token: () => token}
let me = undefined; // the signed-in account (null: signed out), asked once
let levels = null; // bot levels for "Start with bots"
let botsAllowed = null; // false: a rated table on a server that rates no game with bots (null: not known yet)

export function initTable(options) {
  ctx = options;
  whoAmI().then((found) => { me = found; if (ctx.view()) renderTable(ctx.view()); }).catch(() => { me = null; });
  meta().then((info) => {
    levels = (info.levels || []).map((lv) => lv.name);
    if (!levels.length) levels = info.bots;
    if (ctx.view()) renderTable(ctx.view());
  }).catch(() => { levels = []; });
  tableRatings(ctx.gameId).then((answer) => {
    botsAllowed = answer.bots_allowed !== false;
    if (ctx.view()) renderTable(ctx.view());
  }).catch(() => {
    botsAllowed = true; // the host's start answers for itself
    if (ctx.view()) renderTable(ctx.view());
  });
}

/** The link that takes a seat offered to anyone with it (game.js takes the seat on opening). */
export function joinUrl(gameId) {
  return `${gameUrl(gameId)}#join`;
}

/**
 * Opened by the join link: take a seat offered to anyone with it, unless this browser (or the signed-in
 * account) holds a seat here already. Returns the new seat's token (kept for this tab and this browser),
 * or null after saying why no seat was taken.
 */
export async function joinByLink(gameId, view) {
  if (view.seat !== null) return null; // seated already: the link changes nothing
  const held = tokens.load(gameId).mine; // this browser's seat, opened in another tab: kept, not a second one
  if (held) {
    try {
      if ((await api("GET", `/api/games/${encodeURIComponent(gameId)}`, {token: held})).seat !== null) return keep(gameId, held);
    } catch { /* a token no longer valid: take a seat */ }
  }
  if (!view.waiting || !view.waiting_for.some((w) => w.offer === "link" || w.offer === "open")) {
    message("Every seat of this table is taken: you are watching.", "info");
    return null;
  }
  let name = null;
  try { name = localStorage.getItem("ludus:name"); } catch { /* private mode */ }
  const url = `/api/games/${encodeURIComponent(gameId)}/join`;
  try {
    let joined;
    try {
      joined = await api("POST", url, {body: name ? {name} : {}});
    } catch (exc) {
      if (!(name && exc.status === 422)) throw exc;
      joined = await api("POST", url, {body: {}}); // the name reads as another seat's: the seat keeps its own
    }
    tokens.save(gameId, {mine: joined.token, seat: joined.seat, game: view.game, created: Date.now()});
    return keep(gameId, joined.token);
  } catch (exc) {
    message(`No seat was taken: ${exc.message}`);
    return null;
  }
}

/** This tab's seat token of the game from now on (as a link's #token= would leave it). */
function keep(gameId, token) {
  try { sessionStorage.setItem(`ludus:token:${gameId}`, token); } catch { /* private mode: this load only */ }
  return token;
}

/** One link with its Copy button (the field selects itself on focus, for copying by hand). */
export function linkRow(label, url, testid) {
  const input = el("input", {value: url, readonly: true, size: 30, "aria-label": label, "data-testid": testid,
    onfocus: (e) => e.target.select()});
  const copy = el("button", {type: "button", class: "copy", "aria-label": `copy ${label}`, "data-testid": `${testid}-copy`,
    onclick: async () => { copy.textContent = await copyText(url, input) ? "Copied" : "Selected: copy it"; }}, "Copy");
  return el("p", {class: "link-row"}, `${label}: `, input, copy);
}

function message(text, kind = "error") {
  say($("message"), text, kind);
}

function path(rest) {
  return `/api/games/${encodeURIComponent(ctx.gameId)}/${rest}`;
}

async function send(rest, body, done) {
  try {
    const answer = await api("POST", path(rest), {body, token: ctx.token()});
    done(answer);
  } catch (exc) {
    message(exc.message);
  }
}

export function renderTable(view) {
  if (!ctx) return;
  renderRoom(view);
  renderTurnBased(view);
  renderRematch(view);
}

function isHost(view) {
  return view.table && view.seat !== null && view.table.host_seat === view.seat;
}

function renderRoom(view) {
  const room = $("table-room");
  document.body.dataset.waiting = String(!!view.waiting);
  if (!view.waiting) {
    room.hidden = true;
    fill(room);
    return;
  }
  $("turn").textContent = "Waiting for players";
  room.hidden = false;
  const waitingFor = new Map(view.waiting_for.map((w) => [w.seat, w]));
  const rows = view.seats.map((s) => {
    const w = waitingFor.get(s.seat);
    let state;
    if (w) state = w.offer === "invite" ? `invited: ${w.name || "a player"} (not answered yet)` : `waiting: ${OFFER[w.offer]}`;
    else if (s.bot) state = `bot: ${s.bot}`;
    else state = `${s.name || "a player"} joined${s.seat === view.seat ? " (you)" : ""}`;
    return el("li", {class: w ? "room-waiting" : "room-joined", "data-testid": `room-seat-${s.seat}`},
      el("strong", {}, seatName(s.seat)), `: ${state}`);
  });
  const byLink = view.waiting_for.filter((w) => w.offer === "link").map((w) => seatName(w.seat));
  const invitedMe = me && view.waiting_for.find((w) => w.offer === "invite" && w.name && w.name.toLowerCase() === me.name.toLowerCase());
  fill(room,
    el("h2", {}, "Waiting room"),
    el("p", {class: "hint"}, "The game starts when every seat is taken",
      botsAllowed !== true ? "." : isHost(view) ? ", or when you start it with bots in the empty seats." : " or when the host starts it."),
    el("ul", {class: "room-seats"}, rows),
    byLink.length > 0 && view.seat !== null ? [linkRow("Link to join", joinUrl(ctx.gameId), "join-link"),
      el("p", {class: "hint"}, `Send it to the people you play with: whoever opens it takes a seat (${byLink.join(", ")}).`)] : null,
    invitedMe ? el("p", {class: "row"}, `You are invited to ${seatName(invitedMe.seat)}. `,
      el("button", {type: "button", class: "primary", "data-testid": "accept-invite",
        onclick: () => send("accept", undefined, () => location.reload())}, "Accept"),
      el("button", {type: "button", "data-testid": "decline-invite",
        onclick: () => send("decline", undefined, () => location.assign("/me"))}, "Decline")) : null,
    isHost(view) && botsAllowed !== null ? (botsAllowed ? startForm()
      : el("p", {class: "hint", "data-testid": "rated-no-bots"}, "A rated table: it starts when every seat is taken (this server rates no game with bots).")) : null);
}

function startForm() {
  const select = el("select", {id: "start-level", "data-testid": "start-level"},
    (levels || []).map((name) => el("option", {value: name, selected: name === "casual"}, name)));
  return el("form", {class: "row start-form", onsubmit: (e) => {
    e.preventDefault();
    send("start", {bots: select.value}, () => {});
  }},
  el("label", {}, "Bot level ", select),
  el("button", {type: "submit", class: "primary", "data-testid": "start-with-bots"}, "Start with bots"));
}

function renderTurnBased(view) {
  const box = $("table-turns");
  const hours = view.table?.turn_hours;
  if (!hours || view.terminal) {
    box.hidden = true;
    fill(box);
    return;
  }
  box.hidden = false;
  const rule = view.table.on_timeout === "others"
    ? "when it passes, the others may hand the seat to a bot"
    : "when it passes, a bot plays the turn";
  const deadline = view.turn_deadline;
  const late = typeof deadline === "number" && deadline <= (view.server_time || Date.now() / 1000);
  const current = view.current_player;
  const handOver = late && view.table.on_timeout === "others" && view.seat !== null && current !== view.seat && current >= 0;
  fill(box,
    el("span", {"data-testid": "turn-based"}, `Turn-based: ${hours} h to move; ${rule}.`),
    typeof deadline === "number" ? el("span", {"data-testid": "turn-deadline"},
      ` This turn's deadline: ${new Date(deadline * 1000).toLocaleString([], {dateStyle: "medium", timeStyle: "short"})}.`) : null,
    handOver ? el("button", {type: "button", "data-testid": "hand-over",
      onclick: () => send(`seats/${current}/bot`, undefined, () => {})}, `Hand ${seatName(current)} to a bot`) : null);
}

function renderRematch(view) {
  const box = $("rematch-box");
  if (!view.terminal || (view.seat === null && !view.rematch)) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const open = (made) => {
    const mine = (made.seats || []).find((s) => s.token);
    if (mine) tokens.save(made.id, {mine: mine.token, seat: mine.seat, game: view.game, created: Date.now()});
    location.assign(gameUrl(made.id, mine?.token));
  };
  fill(box,
    el("h2", {}, "Rematch"),
    view.rematch
      ? el("p", {}, "A rematch of this table is set up: ",
        el("a", {href: `/games/${encodeURIComponent(view.rematch)}`, "data-testid": "rematch-link"}, "open the rematch"),
        view.seat !== null ? " (signed-in players find their invitation in My games)." : ".")
      : el("p", {class: "hint"}, "The same game and seats again: the other players are invited."),
    view.seat !== null && !view.rematch
      ? el("button", {type: "button", class: "primary", "data-testid": "rematch", onclick: () => send("rematch", undefined, open)}, "Rematch")
      : null);
}

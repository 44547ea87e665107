// The table's parts of the game page, from the view's `waiting`, `waiting_for`, `table` and `rematch`:
// the waiting room (who has joined, live as views arrive; the host's "Start with bots"; an invited
// account's Accept / Decline), a turn-based table's time to move and its hand-over, and at the end
// "Rematch". game.js calls renderTable(view) after drawing the rest of the view.

import {api, gameUrl, meta, tokens} from "./api.js";
import {whoAmI} from "./account.js";
import {el, fill, say, seatName} from "./util.js";

const $ = (id) => document.getElementById(id);
const OFFER = {invite: "invited", link: "anyone with the link", open: "open lobby"};

let ctx = null; // {gameId, token: () => token}
let me = undefined; // the signed-in account (null: signed out), asked once
let levels = null; // bot levels for "Start with bots"

export function initTable(options) {
  ctx = options;
  whoAmI().then((found) => { me = found; if (ctx.view()) renderTable(ctx.view()); }).catch(() => { me = null; });
  meta().then((info) => {
    levels = (info.levels || []).map((lv) => lv.name);
    if (!levels.length) levels = info.bots;
    if (ctx.view()) renderTable(ctx.view());
  }).catch(() => { levels = []; });
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
  const invitedMe = me && view.waiting_for.find((w) => w.offer === "invite" && w.name && w.name.toLowerCase() === me.name.toLowerCase());
  fill(room,
    el("h2", {}, "Waiting room"),
    el("p", {class: "hint"}, "The game starts when every seat is taken",
      isHost(view) ? ", or when you start it with bots in the empty seats." : " or when the host starts it."),
    el("ul", {class: "room-seats"}, rows),
    invitedMe ? el("p", {class: "row"}, `You are invited to ${seatName(invitedMe.seat)}. `,
      el("button", {type: "button", class: "primary", "data-testid": "accept-invite",
        onclick: () => send("accept", undefined, () => location.reload())}, "Accept"),
      el("button", {type: "button", "data-testid": "decline-invite",
        onclick: () => send("decline", undefined, () => location.assign("/me"))}, "Decline")) : null,
    isHost(view) ? startForm() : null);
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

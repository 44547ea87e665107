// "My games", /me: the signed-in account's games from the server (GET /api/me/games), each linking to
// its game page, where the session opens the account's seat; and the account: its password, its
// sessions. Signed out, the page sends you to sign in first.

import {api, meta} from "./api.js";
import {whoAmI} from "./account.js";
import {watchMyGames} from "./notices.js";
import {el, fill, say} from "./util.js";

const $ = (id) => document.getElementById(id);
const STATUS = {your_turn: "Your turn", invited: "Invitation", waiting: "Waiting for others",
  open: "Your table: waiting for players", finished: "Finished"};
let games = {}; // the installed games by name (/api/meta): titles and options in a player's words

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], {dateStyle: "medium", timeStyle: "short"});
}

/** A choice's words, short: the game's label before its explanation ("Emperor — the first …" → "Emperor"). */
function shortWords(option, value) {
  const i = option.choices.findIndex((c) => JSON.stringify(c) === JSON.stringify(value));
  const label = i >= 0 ? option.choice_labels[i] : String(value ?? "none").replaceAll("_", " ");
  return label.split(" — ")[0].split(" (")[0];
}

/** "2 players · Baelo Claudia · Emperor · 24 hours to move": the player count, each main option with a
 * value of its own (board, variant) and any option changed from its default, a turn-based table's time
 * to move. */
function optionWords(g) {
  const info = games[g.game];
  const players = g.options.players ?? g.seats.length;
  const bits = [`${players} ${players === 1 ? "player" : "players"}`];
  for (const o of info?.options || []) {
    if (o.name === "players" || !(o.name in g.options)) continue;
    const value = g.options[o.name];
    const choices = o.valid ? o.valid[String(players)] || [] : o.choices;
    const changed = JSON.stringify(value) !== JSON.stringify(o.default);
    if (changed || (!o.advanced && o.default !== null && choices.length > 1)) bits.push(shortWords(o, value));
  }
  if (g.turn_hours) bits.push(`${hours(g.turn_hours)} to move`);
  else if (g.options.turn_seconds) bits.push(`${g.options.turn_seconds} seconds a turn`);
  return bits.join(" · ");
}

function hours(h) {
  if (h >= 48 && h % 24 === 0) return `${h / 24} days`;
  return h === 1 ? "1 hour" : `${h} hours`;
}

/** Who else is at the table; an invitation says who invites you first. */
function players(g) {
  if (g.status !== "invited") return g.opponents.length ? g.opponents.join(", ") : "nobody else";
  const host = g.host || "A player";
  const others = [...g.opponents];
  const at = others.indexOf(g.host);
  if (at >= 0) others.splice(at, 1);
  return others.length ? `${host} invites you, with ${others.join(", ")}` : `${host} invites you`;
}

async function loadGames() {
  try {
    const mine = await api("GET", "/api/me/games");
    if (!mine.length) {
      fill($("my-games"), el("p", {class: "hint"}, "No games yet: create one in the ", el("a", {href: "/"}, "lobby"), "."));
      return;
    }
    fill($("my-games"), el("table", {class: "my-games"},
      el("thead", {}, el("tr", {}, ["Game", "Status", "Players", "Last move"].map((h) => el("th", {scope: "col"}, h)))),
      el("tbody", {}, mine.map((g) => el("tr", {"data-game": g.id, "data-status": g.status},
        el("td", {}, el("a", {href: `/games/${encodeURIComponent(g.id)}`, "data-testid": `my-game-${g.id}`},
          `${games[g.game]?.title || g.game} ${g.id}`),
        el("div", {class: "hint", "data-testid": `my-game-options-${g.id}`}, optionWords(g))),
        el("td", {class: `status ${g.status}`}, STATUS[g.status] || g.status,
          g.status === "invited" ? invitationButtons(g) : null),
        el("td", {"data-testid": `my-game-players-${g.id}`}, players(g)),
        el("td", {}, when(g.updated_at)))))));
  } catch (exc) {
    fill($("my-games"), el("p", {class: "hint"}, `Cannot list your games: ${exc.message}`));
  } finally {
    document.body.dataset.games = "loaded";
  }
}

/** An invitation's Accept (into the seat) and Decline (the seat stays open to anyone with the link). */
function invitationButtons(game) {
  const answer = async (route) => {
    try {
      await api("POST", `/api/games/${encodeURIComponent(game.id)}/${route}`);
      if (route === "accept") location.assign(`/games/${encodeURIComponent(game.id)}`);
      else await loadGames();
    } catch (exc) {
      say($("message"), `The invitation was not ${route}ed: ${exc.message}`);
      await loadGames();
    }
  };
  return el("span", {class: "row invite-actions"},
    el("button", {type: "button", class: "primary", "data-testid": `accept-${game.id}`, onclick: () => answer("accept")}, "Accept"),
    el("button", {type: "button", "data-testid": `decline-${game.id}`, onclick: () => answer("decline")}, "Decline"));
}

async function changePassword(event) {
  event.preventDefault();
  try {
    await api("POST", "/api/me/password", {body: {current: $("current-password").value, password: $("new-password").value}});
    $("password-form").reset();
    say($("message"), "Your password is changed; your other devices are signed out.", "info");
  } catch (exc) {
    say($("message"), `The password was not changed: ${exc.message}`);
  }
}

async function signOutEverywhere() {
  if (!confirm("Sign out on every device, this one too?")) return;
  try {
    await api("POST", "/api/me/sign-out-everywhere", {raw: true});
    location.assign("/signin");
  } catch (exc) {
    say($("message"), `Not signed out: ${exc.message}`);
  }
}

/** "E-mail me when it is my turn": the account's notify_email, saved as soon as it changes. */
function showNotices(me) {
  const box = $("notify-email");
  box.checked = !!me.notify_email;
  if (!me.email) $("notify-hint").textContent = "Your account has no e-mail address: no e-mail is sent.";
  else if (!me.mail) $("notify-hint").textContent = "This server sends no e-mail at present.";
  box.addEventListener("change", async () => {
    try {
      const changed = await api("PATCH", "/api/me", {body: {notify_email: box.checked}});
      box.checked = changed.notify_email;
      say($("message"), changed.notify_email ? "E-mail notices are on." : "E-mail notices are off.", "info");
    } catch (exc) {
      box.checked = !box.checked;
      say($("message"), `Not changed: ${exc.message}`);
    }
  });
}

async function start() {
  let me;
  try {
    me = await whoAmI();
  } catch (exc) {
    say($("message"), `Cannot reach the server: ${exc.message}`);
    return;
  }
  if (!me) {
    location.replace("/signin?next=/me");
    return;
  }
  fill($("who"), "Signed in as ", el("strong", {}, me.name), me.email ? ` (${me.email})` : "");
  showNotices(me);
  try {
    games = Object.fromEntries((await meta()).games.map((g) => [g.name, g]));
  } catch { /* names as they are */ }
  await loadGames();
  document.body.dataset.ready = "true";
  watchMyGames(loadGames); // every minute: new turns and invitations told while the tab is hidden
}

$("refresh").addEventListener("click", loadGames);
$("password-form").addEventListener("submit", changePassword);
$("sign-out-everywhere").addEventListener("click", signOutEverywhere);
start();

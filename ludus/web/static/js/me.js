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
let titles = {};

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], {dateStyle: "medium", timeStyle: "short"});
}

function players(game) {
  return game.seats.map((s) => {
    const who = s.name || (s.bot ? `bot ${s.bot}` : s.free ? "open seat" : `Seat ${s.seat + 1}`);
    return s.seat === game.seat ? `${who} (you)` : who;
  }).join(", ");
}

async function loadGames() {
  try {
    const games = await api("GET", "/api/me/games");
    if (!games.length) {
      fill($("my-games"), el("p", {class: "hint"}, "No games yet: create one in the ", el("a", {href: "/"}, "lobby"), "."));
      return;
    }
    fill($("my-games"), el("table", {class: "my-games"},
      el("thead", {}, el("tr", {}, ["Game", "Status", "Players", "Last move"].map((h) => el("th", {scope: "col"}, h)))),
      el("tbody", {}, games.map((g) => el("tr", {"data-game": g.id, "data-status": g.status},
        el("td", {}, el("a", {href: `/games/${encodeURIComponent(g.id)}`, "data-testid": `my-game-${g.id}`},
          `${titles[g.game] || g.game} ${g.id}`)),
        el("td", {class: `status ${g.status}`}, STATUS[g.status] || g.status,
          g.status === "invited" ? invitationButtons(g) : null),
        el("td", {}, players(g)),
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
    titles = Object.fromEntries((await meta()).games.map((g) => [g.name, g.title || g.name]));
  } catch { /* names as they are */ }
  await loadGames();
  document.body.dataset.ready = "true";
  watchMyGames(loadGames); // every minute: new turns and invitations told while the tab is hidden
}

$("refresh").addEventListener("click", loadGames);
$("password-form").addEventListener("submit", changePassword);
$("sign-out-everywhere").addEventListener("click", signOutEverywhere);
start();

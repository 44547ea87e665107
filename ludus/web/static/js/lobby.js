// The lobby: create a game of either game with the options its configuration allows, list games
// open to join, join, and watch. Create takes you straight into your seat; a seat for "Anyone with the
// link" waits in the game page's waiting room, whose link (with its Copy button) takes it.

import {api, gameUrl, meta, tokens} from "./api.js";
import {maybeSignedIn} from "./account.js";
import {rulesButton} from "./rules.js";
import {orderPicker, orderedItems} from "./order-picker.js";
import {el, fill, say, seatName} from "./util.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "ludus:name";
const MAX_NAME = 32; // the server's schemas.MAX_NAME_LENGTH
const BOT_STRENGTH = {random: "weakest", greedy: "one move ahead", ismcts: "searches 1 s a move"};
// A searching bot's strength is its thinking time a move (the server accepts 0.1 to 10 s).
const SEARCH_LEVELS = {ismcts: [["quick, 0.3 s a move", "seconds=0.3"], ["strongest, 3 s a move", "seconds=3"]]};
// The levels in a player's words (the server's own description, about its bots, is the fallback).
const LEVEL_WORDS = {
  beginner: "plays sensible moves, often not the best one",
  casual: "plays the move that looks best right now, at once",
  club: "looks ahead a moment before each decision",
  expert: "looks ahead longest: the strongest",
};

let info = null;
let shownGame = null; // the game whose options the form shows
const picks = {}; // the things clicked so far in each order picker, by "game:option"

function message(text, kind = "error") {
  say($("message"), text, kind);
}

function currentGame() {
  const checked = document.querySelector('input[name="game"]:checked');
  return info.games.find((g) => g.name === checked?.value) || info.games[0];
}

function playerCount(game) {
  const players = game.options.find((o) => o.name === "players");
  if (!players) return game.default_players;
  const select = $("opt-players");
  return select ? players.choices[Number(select.value)] : players.default;
}

/** The indices of an option's choices this player count allows (the server's own check, via /api/meta). */
function validChoices(option, players) {
  const all = option.choices.map((_, i) => i);
  return option.valid ? option.valid[String(players)] || all : all;
}

/** The options to send: every option shown (one with a single valid choice is left to the server's default). */
function chosenOptions(game) {
  const out = {};
  for (const o of game.options) {
    const input = $(`opt-${o.name}`);
    if (!input) continue;
    out[o.name] = input.tagName === "SELECT" ? o.choices[Number(input.value)] : JSON.parse(input.dataset.value);
  }
  return out;
}

/** A value as a person reads it: the game's words for it (a listed game's options, a plugin's own). */
function words(game, name, value) {
  const o = game?.options.find((x) => x.name === name);
  const i = o ? o.choices.findIndex((c) => JSON.stringify(c) === JSON.stringify(value)) : -1;
  if (i >= 0) return o.choice_labels[i];
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value).replaceAll("_", " ");
}

/** The choices a select offers for this player count: the valid ones, those with the same words as
 * one (the last kept, which the default then stands for: e.g. no solo target is the Normal one). */
function offered(o, players) {
  const kept = new Map();
  for (const i of validChoices(o, players)) {
    kept.delete(o.choice_labels[i]);
    kept.set(o.choice_labels[i], i);
  }
  return kept;
}

function optionSelect(o, players, previous) {
  const kept = offered(o, players);
  const valid = [...kept.values()];
  const byDefault = kept.get(o.choice_labels[o.choices.indexOf(o.default)]);
  const fallback = byDefault !== undefined ? byDefault : valid[0];
  const keep = previous[o.name] !== undefined && valid.includes(Number(previous[o.name]));
  const selected = keep ? Number(previous[o.name]) : fallback;
  return el("label", {},
    el("span", {id: `opt-${o.name}-label`}, o.label),
    el("select", {id: `opt-${o.name}`, name: o.name, onchange: o.name === "players" ? renderOptions : null},
      valid.map((i) => el("option", {value: i, selected: i === selected, "data-value": words(null, o.name, o.choices[i])},
        o.choice_labels[i] + (o.advanced && i === fallback ? " (default)" : "")))));
}

function optionPicker(o, players, items) {
  const game = currentGame();
  picks[`${game.name}:${o.name}`] ||= [];
  return el("div", {class: "order-option"},
    el("span", {id: `opt-${o.name}-label`}, o.label),
    orderPicker(o, items, validChoices(o, players), players, picks[`${game.name}:${o.name}`]));
}

function renderOptions() {
  const game = currentGame();
  // choices are kept by their index, which means something only within the same game
  const previous = shownGame !== game.name ? {}
    : Object.fromEntries([...document.querySelectorAll("#new-game select[name]")].map((s) => [s.name, s.value]));
  shownGame = game.name;
  const players = playerCount(game);
  const shown = game.options.filter((o) => offered(o, players).size > 1);
  const field = (o) => {
    const items = orderedItems(o);
    return items ? optionPicker(o, players, items) : optionSelect(o, players, previous);
  };
  fill($("options"), shown.filter((o) => !o.advanced).map(field));
  const advanced = shown.filter((o) => o.advanced);
  fill($("advanced-options"), advanced.map(field));
  $("advanced-rules").hidden = !advanced.length;
  renderSeats();
}

/** A seat's choices: a person or a bot by level; with "Advanced" open, also the bots by their spec. */
function seatChoices() {
  const levels = (info.levels || []).map((lv) =>
    el("option", {value: lv.name, title: levelWords(lv)}, `Bot — ${lv.name}`));
  const bots = info.bots.flatMap((b) => [
    el("option", {value: b}, `${b}${BOT_STRENGTH[b] ? ` (${BOT_STRENGTH[b]})` : ""}`),
    ...(SEARCH_LEVELS[b] || []).map(([label, param]) => el("option", {value: `${b}:${param}`}, `${b}:${param} (${label})`))]);
  const specs = $("advanced").open || !levels.length;
  return [el("option", {value: "human"}, "Person"),
    levels.length ? el("optgroup", {label: "Bots, weakest first"}, levels) : null,
    specs ? el("optgroup", {label: "Bots by program (advanced)"}, bots) : null];
}

function levelWords(lv) {
  return LEVEL_WORDS[lv.name] || lv.doc;
}

function renderSeats() {
  const game = currentGame();
  const n = playerCount(game);
  const previous = [...document.querySelectorAll("#seats select.seat-kind")].map((s) => s.value);
  const names = [...document.querySelectorAll("#seats .seat-name input")].map((s) => s.value);
  const offers = [...document.querySelectorAll("#seats .seat-offer")].map(offerOf);
  const fallbackBot = info.levels?.find((lv) => lv.name === "casual")?.name || (info.bots.includes("greedy") ? "greedy" : info.bots[0]);
  fill($("seats"), Array.from({length: n}, (_, i) => el("div", {class: "seat-row", "data-seat": i},
    el("label", {},
      el("span", {}, seatName(i), el("span", {class: "seat-you"})),
      el("select", {id: `seat-${i}`, name: `seat-${i}`, class: "seat-kind", "data-testid": `seat-${i}`, onchange: seatKindChanged},
        seatChoices())),
    el("label", {class: "seat-name"},
      el("span", {}, "their name (optional)"),
      el("input", {id: `seat-name-${i}`, maxlength: MAX_NAME, autocomplete: "off", value: names[i] || "",
        "data-testid": `seat-name-${i}`})),
    offerChooser(i, offers[i]))));
  for (let i = 0; i < n; i++) {
    const select = $(`seat-${i}`);
    select.value = previous[i] || (i === 0 ? "human" : fallbackBot || "human");
    if (!select.value) select.value = fallbackBot || "human"; // a bot by program, with "Advanced" closed
  }
  seatKindChanged();
  describeLevels();
}

/** A person's seat gets a name field, except the first: that one is yours (your name above). */
function seatKindChanged() {
  const kinds = [...document.querySelectorAll("#seats select.seat-kind")].map((s) => s.value);
  const yours = kinds.indexOf("human");
  for (const row of document.querySelectorAll("#seats .seat-row")) {
    const i = Number(row.dataset.seat);
    const offered = kinds[i] === "human" && i !== yours;
    const offer = offerOf(row.querySelector(".seat-offer")).offer;
    row.querySelector(".seat-offer").hidden = !offered;
    row.querySelector(".seat-invite").hidden = !offered || offer !== "invite";
    row.querySelector(".seat-name").hidden = !offered || offer !== "link";
    row.querySelector(".seat-you").textContent = i === yours ? " (you)" : "";
  }
  describeLevels();
}

/** How a person's seat (not yours) is offered: by the table's link, in the open lobby, or to a named player. */
function offerChooser(i, kept = {}) {
  const choices = [["link", "Anyone with the link"], ["open", "Open lobby"], ["invite", "Invite a player by name"]];
  return el("fieldset", {class: "seat-offer"},
    el("legend", {}, `${seatName(i)} is for`),
    choices.map(([value, label]) => el("label", {class: "row"},
      el("input", {type: "radio", name: `seat-offer-${i}`, value, checked: value === (kept.offer || "link"),
        "data-testid": `seat-offer-${i}-${value}`, onchange: seatKindChanged}), label)),
    el("label", {class: "seat-invite"},
      el("span", {}, "player's name"),
      el("input", {id: `seat-invite-${i}`, maxlength: 24, autocomplete: "off", value: kept.invite || "",
        "data-testid": `seat-invite-${i}`})));
}

function offerOf(box) {
  return {offer: box.querySelector("input[type=radio]:checked")?.value || "link", invite: box.querySelector(".seat-invite input").value};
}

/** A seat as the server takes it: a kind, or a person's seat offered by the link (the table waits for
 * whoever opens it), in the lobby or to a named player. */
function seatBody(kind, i, yours) {
  if (kind !== "human" || i === yours) return kind;
  const {offer, invite} = offerOf(document.querySelector(`#seats .seat-row[data-seat="${i}"] .seat-offer`));
  if (offer === "open") return {kind: "human", open: true};
  if (offer === "link") return {kind: "human", link: true};
  if (offer === "invite") {
    const name = invite.trim();
    if (!name) throw new Error(`${seatName(i)}: give the name of the player to invite`);
    return {kind: "human", invite: name};
  }
  throw new Error(`${seatName(i)}: choose who the seat is for`);
}

function describeLevels() {
  const chosen = new Set([...document.querySelectorAll("#seats select.seat-kind")].map((s) => s.value));
  const used = (info.levels || []).filter((lv) => chosen.has(lv.name));
  const spec = $("advanced").open;
  fill($("level-help"), used.map((lv) =>
    el("li", {}, el("strong", {}, lv.name), `: ${levelWords(lv)}`, spec ? ` (${lv.spec})` : "")));
}

/** A display name as the server stores it, or an error saying what is wrong (null: none given). */
function checkName(text, whose) {
  const name = text.trim();
  if (!name) return {name: null};
  if (name.length > MAX_NAME) return {error: `${whose} name has more than ${MAX_NAME} characters`};
  if (/[\p{C}\u2028\u2029]/u.test(name)) return {error: `${whose} name may not hold control characters`};
  return {name};
}

function myName() {
  const checked = checkName($("my-name").value, "Your");
  if (checked.error) throw new Error(checked.error);
  try {
    if (checked.name) localStorage.setItem(NAME_KEY, checked.name);
    else localStorage.removeItem(NAME_KEY);
  } catch { /* private mode */ }
  return checked.name;
}

async function create(event) {
  event.preventDefault();
  const game = currentGame();
  const options = chosenOptions(game);
  const seconds = $("turn-seconds").value.trim();
  const turnBased = $("turn-based").checked;
  if (seconds && !turnBased) options.turn_seconds = Number(seconds);
  if (!$("allow-hints").checked) options.hints = false;
  const n = playerCount(game);
  const seats = Array.from({length: n}, (_, i) => $(`seat-${i}`).value);
  let names;
  let bodies;
  try {
    const mine = myName();
    bodies = seats.map((kind, i) => seatBody(kind, i, seats.indexOf("human")));
    names = seats.map((kind, i) => {
      if (kind !== "human" || !(typeof bodies[i] === "string" || bodies[i].link)) return null;
      if (i === seats.indexOf("human")) return mine;
      const checked = checkName($(`seat-name-${i}`)?.value || "", `${seatName(i)}'s`);
      if (checked.error) throw new Error(checked.error);
      return checked.name;
    });
  } catch (exc) {
    message(exc.message);
    return;
  }
  $("create").disabled = true;
  try {
    const body = {game: game.name, options, seats: bodies};
    if (turnBased) {
      body.turn_hours = Number($("turn-hours").value);
      body.on_timeout = $("on-timeout").value;
    }
    if (names.some((x) => x)) body.names = names;
    const created = await api("POST", "/api/games", {body});
    await enterSeat(created);
  } catch (exc) {
    message(`The game was not created: ${exc.message}`);
    $("create").disabled = false;
  }
}

/** Straight into the creator's seat (the first person's); the seats offered wait in its waiting room. A
 * signed-in creator's session is the key to their seat: no token in the link, none kept in this browser. */
async function enterSeat(created) {
  const humans = created.seats.filter((s) => s.token);
  const mine = humans[0];
  const invites = Object.fromEntries(humans.slice(1).map((s) => [s.seat, s.token]));
  const bySession = mine !== undefined && await heldBySession(created.id, mine.seat);
  const own = bySession ? {} : {mine: mine?.token, seat: mine?.seat};
  tokens.save(created.id, {...own, game: created.game, invites, created: Date.now()});
  location.assign(gameUrl(created.id, bySession ? null : mine?.token));
}

/** Whether this browser's session (not a token) opens that seat of the game. */
async function heldBySession(gameId, seat) {
  if (!maybeSignedIn()) return false;
  try {
    return (await api("GET", `/api/games/${encodeURIComponent(gameId)}`)).seat === seat;
  } catch {
    return false;
  }
}

function seatText(s) {
  const who = s.name ? `${s.name}` : s.bot ? `Bot — ${s.bot}` : s.free ? "open" : "taken";
  return `${seatName(s.seat)}: ${who}`;
}

async function loadOpenGames() {
  try {
    const list = await api("GET", "/api/games");
    const games = Array.isArray(list) ? list : list.games || [];
    if (!games.length) {
      fill($("open-games"), el("p", {class: "hint"}, "No game is waiting for players."));
      return;
    }
    fill($("open-games"), el("table", {class: "open-games"},
      el("thead", {}, el("tr", {}, ["Game", "Options", "Seats", ""].map((h) => el("th", {}, h)))),
      el("tbody", {}, games.map((g) => el("tr", {"data-game": g.id},
        el("td", {}, gameOf(g.game)?.title || g.game, el("div", {class: "hint"}, g.id)),
        el("td", {}, optionWords(g)),
        el("td", {}, (g.seats || []).map(seatText).join(" · ")),
        el("td", {class: "row"},
          el("button", {type: "button", class: "primary", "data-testid": `join-${g.id}`, onclick: () => join(g.id)}, "Join"),
          el("a", {class: "button", href: gameUrl(g.id)}, "Watch")))))));
  } catch (exc) {
    fill($("open-games"), el("p", {class: "hint"}, `Cannot list games: ${exc.message}`));
  }
}

function gameOf(name) {
  return info.games.find((x) => x.name === name);
}

/** A listed game's options in its own words ("Players: 2 · Board: Baelo Claudia (12 rounds, hand of 3)"):
 * the player count and every option not at its default. */
function optionWords(g) {
  const game = gameOf(g.game);
  const byDefault = (k, v) => game?.options.some((o) => o.name === k && JSON.stringify(o.default) === JSON.stringify(v));
  return Object.entries(g.options || {}).filter(([k, v]) => k === "players" || !byDefault(k, v)).map(([k, v]) => {
    const label = game?.options.find((o) => o.name === k)?.label || k.replaceAll("_", " ");
    return `${label}: ${words(game, k, v)}`;
  }).join(" · ");
}

async function join(id) {
  try {
    const name = myName();
    const joined = await api("POST", `/api/games/${encodeURIComponent(id)}/join`, {body: name ? {name} : {}});
    tokens.save(id, {mine: joined.token, seat: joined.seat});
    location.assign(gameUrl(id, joined.token));
  } catch (exc) {
    message(`Cannot join game ${id}: ${exc.message}`);
    loadOpenGames();
  }
}

function renderMyGames() {
  const mine = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key.startsWith("ludus:game:")) continue;
    const id = key.slice("ludus:game:".length);
    const data = tokens.load(id);
    mine.push({id, ...data});
  }
  mine.sort((a, b) => (b.created || 0) - (a.created || 0));
  fill($("my-games"), mine.length
    ? el("ul", {}, mine.slice(0, 20).map((g) => el("li", {},
      el("a", {href: gameUrl(g.id, g.mine)}, `${gameOf(g.game)?.title || g.game || "game"} ${g.id}`),
      g.seat !== undefined ? ` (${seatName(g.seat)})` : "")))
    : el("p", {class: "hint"}, "None yet."));
}

/** An installed game as a card: a radio button (one click chooses it), its name, its pitch and a
 * drawing of a fresh board (none for a game that draws none). */
function gameCard(g, i) {
  const title = g.title || g.name;
  return el("label", {class: "game-card", "data-game": g.name},
    g.preview ? el("img", {class: "game-preview", src: g.preview, alt: "", loading: "lazy", width: 160, height: 120,
      onerror: (e) => e.target.remove()}) : el("span", {class: "game-preview none", "aria-hidden": "true"}, title[0]),
    el("span", {class: "game-name row"},
      el("input", {type: "radio", name: "game", value: g.name, checked: i === 0, "data-testid": `game-${g.name}`,
        onchange: renderOptions}), title),
    el("span", {class: "hint"}, g.tagline || g.doc));
}

/** The installed games' titles, as people list them: "A", "A and B", "A, B and C". */
function titles(games) {
  const names = games.map((g) => g.title || g.name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0] || "Board games";
}

async function start() {
  try {
    info = await meta();
  } catch (exc) {
    message(`Cannot reach the server: ${exc.message}`);
    return;
  }
  $("tagline").textContent = `${titles(info.games)}, online`;
  try { $("my-name").value = localStorage.getItem(NAME_KEY) || ""; } catch { /* private mode */ }
  fill($("games"), el("legend", {}, "Game"), el("div", {class: "game-cards"}, info.games.map(gameCard)));
  $("advanced").addEventListener("toggle", renderSeats);
  const rules = $("rules");
  for (const g of info.games) rules.append(rulesButton(g.name, g.title || g.name), " ");
  renderOptions();
  loadOpenGames();
  renderMyGames();
  document.body.dataset.ready = "true";
  setInterval(loadOpenGames, 10000);
}

$("create-form").addEventListener("submit", create);
$("turn-based").addEventListener("change", () => {
  const on = $("turn-based").checked;
  $("turn-based-options").hidden = !on;
  $("turn-seconds").disabled = on;
});
$("refresh").addEventListener("click", loadOpenGames);
$("watch-form").addEventListener("submit", (e) => {
  e.preventDefault();
  location.href = gameUrl($("watch-id").value.trim());
});
start();

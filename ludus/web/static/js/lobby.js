// The lobby: create a game of either game with every option, list games open to join, join,
// share invite links (each carries one seat's token), and watch.

import {api, gameUrl, meta, tokens} from "./api.js";
import {rulesButton} from "./rules.js";
import {copyText, el, fill, say, seatName} from "./util.js";

const $ = (id) => document.getElementById(id);
const BOT_STRENGTH = {random: "weakest", greedy: "medium", ismcts: "strong, 1 s a move"};
// A searching bot's strength is its thinking time a move (the server accepts 0.1 to 10 s).
const SEARCH_LEVELS = {ismcts: [["quick, 0.3 s a move", "seconds=0.3"], ["strongest, 3 s a move", "seconds=3"]]};

function botOptions(b) {
  const levels = (SEARCH_LEVELS[b] || []).map(([label, param]) =>
    el("option", {value: `${b}:${param}`}, `bot: ${b} (${label})`));
  return [el("option", {value: b}, `bot: ${b}${BOT_STRENGTH[b] ? ` (${BOT_STRENGTH[b]})` : ""}`), ...levels];
}
let info = null;

function message(text, kind = "error") {
  say($("message"), text, kind);
}

function currentGame() {
  const checked = document.querySelector('input[name="game"]:checked');
  return info.games.find((g) => g.name === checked?.value) || info.games[0];
}

function optionValue(game, option) {
  const select = $(`opt-${option.name}`);
  return select ? option.choices[Number(select.value)] : option.default;
}

function seatCount(game) {
  const players = game.options.find((o) => o.name === "players");
  return players ? optionValue(game, players) : game.default_players;
}

function renderOptions() {
  const game = currentGame();
  fill($("options"), game.options.map((o) => el("label", {},
    el("span", {}, o.name.replaceAll("_", " ")),
    el("select", {id: `opt-${o.name}`, name: o.name, onchange: o.name === "players" ? renderSeats : null},
      o.choices.map((c, i) => el("option", {value: i, selected: c === o.default}, display(c)))),
    o.doc ? el("span", {class: "hint"}, o.doc) : null)));
  renderSeats();
}

function display(value) {
  if (value === null || value === undefined) return "none";
  if (value === true) return "yes";
  if (value === false) return "no";
  return String(value).replaceAll("_", " ");
}

function renderSeats() {
  const game = currentGame();
  const n = seatCount(game);
  const previous = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const fallbackBot = info.bots.includes("greedy") ? "greedy" : info.bots[0];
  fill($("seats"), Array.from({length: n}, (_, i) => el("label", {},
    el("span", {}, seatName(i)),
    el("select", {id: `seat-${i}`, name: `seat-${i}`, "data-testid": `seat-${i}`},
      el("option", {value: "human"}, "person"),
      info.bots.flatMap(botOptions)))));
  for (let i = 0; i < n; i++) {
    $(`seat-${i}`).value = previous[i] || (i === 0 ? "human" : fallbackBot || "human");
  }
}

async function create(event) {
  event.preventDefault();
  const game = currentGame();
  const options = Object.fromEntries(game.options.map((o) => [o.name, optionValue(game, o)]));
  const seconds = $("turn-seconds").value.trim();
  if (seconds) options.turn_seconds = Number(seconds);
  const seats = Array.from({length: seatCount(game)}, (_, i) => $(`seat-${i}`).value);
  $("create").disabled = true;
  try {
    const created = await api("POST", "/api/games", {body: {game: game.name, options, seats}});
    message("");
    showCreated(created);
    loadOpenGames();
  } catch (exc) {
    message(`The game was not created: ${exc.message}`);
  } finally {
    $("create").disabled = false;
  }
}


function showCreated(created) {
  const humans = created.seats.filter((s) => s.token);
  const mine = humans[0];
  const invites = Object.fromEntries(humans.slice(1).map((s) => [s.seat, s.token]));
  tokens.save(created.id, {mine: mine?.token, seat: mine?.seat, game: created.game, invites, created: Date.now()});
  fill($("created"), el("div", {class: "panel", "data-testid": "created"},
    el("h2", {}, `Game ${created.id} created`),
    mine
      ? el("p", {}, el("a", {class: "button primary", href: gameUrl(created.id, mine.token), "data-testid": "play-link"},
        `Play as ${seatName(mine.seat)}`))
      : el("p", {}, el("a", {class: "button primary", href: gameUrl(created.id), "data-testid": "watch-link"}, "Watch the bots")),
    humans.slice(1).map((s) => inviteRow(created.id, s)),
    el("p", {}, "Spectators: ", el("a", {href: gameUrl(created.id)}, gameUrl(created.id)))));
  renderMyGames();
}

function inviteRow(id, seat) {
  const url = gameUrl(id, seat.token);
  const input = el("input", {value: url, readonly: true, size: 40, "data-testid": `invite-${seat.seat}`,
    "aria-label": `invite link for ${seatName(seat.seat)}`, onfocus: (e) => e.target.select()});
  const button = el("button", {type: "button", onclick: async () => {
    button.textContent = (await copyText(url, input)) ? "Copied" : "Select and copy";
  }}, "Copy");
  return el("p", {class: "row"}, `Invite for ${seatName(seat.seat)}:`, input, button);
}

async function loadOpenGames() {
  try {
    const list = await api("GET", "/api/games");
    const games = Array.isArray(list) ? list : list.games || [];
    if (!games.length) {
      fill($("open-games"), el("p", {class: "hint"}, "No game is waiting for players."));
      return;
    }
    fill($("open-games"), el("table", {},
      el("thead", {}, el("tr", {}, ["Game", "Options", "Seats", ""].map((h) => el("th", {}, h)))),
      el("tbody", {}, games.map((g) => el("tr", {"data-game": g.id},
        el("td", {}, g.game, el("div", {class: "hint"}, g.id)),
        el("td", {}, Object.entries(g.options || {}).map(([k, v]) => `${k.replaceAll("_", " ")}: ${display(v)}`).join(" · ")),
        el("td", {}, (g.seats || []).map((s) => `${seatName(s.seat)}: ${s.bot ? `bot ${s.bot}` : s.free ? "open" : "taken"}`).join(" · ")),
        el("td", {class: "row"},
          el("button", {type: "button", class: "primary", "data-testid": `join-${g.id}`, onclick: () => join(g.id)}, "Join"),
          el("a", {class: "button", href: gameUrl(g.id)}, "Watch")))))));
  } catch (exc) {
    fill($("open-games"), el("p", {class: "hint"}, `Cannot list games: ${exc.message}`));
  }
}

async function join(id) {
  try {
    const joined = await api("POST", `/api/games/${encodeURIComponent(id)}/join`);
    tokens.save(id, {mine: joined.token, seat: joined.seat});
    location.href = gameUrl(id, joined.token);
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
      el("a", {href: gameUrl(g.id, g.mine)}, `${g.game || "game"} ${g.id}`),
      g.seat !== undefined ? ` (${seatName(g.seat)})` : "")))
    : el("p", {class: "hint"}, "None yet."));
}

async function start() {
  try {
    info = await meta();
  } catch (exc) {
    message(`Cannot reach the server: ${exc.message}`);
    return;
  }
  fill($("games").querySelector("legend").parentNode, el("legend", {}, "Game"),
    info.games.map((g, i) => el("label", {class: "row"},
      el("span", {class: "row"}, el("input", {type: "radio", name: "game", value: g.name, checked: i === 0,
        "data-testid": `game-${g.name}`, onchange: renderOptions}), g.name),
      el("span", {class: "hint"}, g.doc))));
  const rules = $("rules");
  for (const g of info.games) rules.append(rulesButton(g.name), " ");
  renderOptions();
  loadOpenGames();
  renderMyGames();
  setInterval(loadOpenGames, 10000);
}

$("create-form").addEventListener("submit", create);
$("refresh").addEventListener("click", loadOpenGames);
$("watch-form").addEventListener("submit", (e) => {
  e.preventDefault();
  location.href = gameUrl($("watch-id").value.trim());
});
start();

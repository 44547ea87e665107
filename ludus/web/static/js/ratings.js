// The leaderboards (/ratings/{game}: GET /api/ratings/{game}, best first) and a player's page
// (/players/{name}: GET /api/players/{name}: ratings, a chart of the rating after each rated game, drawn
// here as SVG, and the newest games with their results). Names are put in the page as text (el()).

import {api, ApiError, meta} from "./api.js";
import {el, fill, say, svg} from "./util.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.replace(/\/+$/, "").split("/").map(decodeURIComponent);
let titles = {};

function when(seconds) {
  return new Date(seconds * 1000).toLocaleDateString([], {dateStyle: "medium"});
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({1: "st", 2: "nd", 3: "rd"}[n % 10] || "th");
  return `${n}${tail}`;
}

function playerLink(name) {
  return el("a", {href: `/players/${encodeURIComponent(name)}`}, name);
}

// -- the leaderboard ----------------------------------------------------------------------------------
async function leaderboard(games) {
  const game = parts[2] || games[0]?.name;
  if (!game) { fill($("leaderboard"), el("p", {class: "hint"}, "No game is installed.")); return; }
  const title = titles[game] || game;
  document.title = `ludus — ${title} leaderboard`;
  $("board-title").textContent = `${title} leaderboard`;
  fill($("game-links"), games.map((g) => el("li", {}, el("a", {href: `/ratings/${encodeURIComponent(g.name)}`,
    "aria-current": g.name === game ? "page" : null}, titles[g.name] || g.name))));
  let rows;
  try {
    rows = await api("GET", `/api/ratings/${encodeURIComponent(game)}`);
  } catch (exc) {
    fill($("leaderboard"));
    say($("message"), exc instanceof ApiError && exc.status === 404 ? `No game "${game}" here.` : `Cannot load the leaderboard: ${exc.message}`);
    return;
  }
  if (!rows.length) {
    fill($("leaderboard"), el("p", {class: "hint"}, "No rated games finished yet: create a rated game in the ",
      el("a", {href: "/"}, "lobby"), "."));
    return;
  }
  fill($("leaderboard"), el("table", {class: "board-table"},
    el("thead", {}, el("tr", {}, el("th", {scope: "col", class: "num"}, "#"), el("th", {scope: "col"}, "Player"),
      el("th", {scope: "col", class: "num"}, "Rating"), el("th", {scope: "col", class: "num"}, "Games"))),
    el("tbody", {}, rows.map((row, i) => el("tr", {"data-testid": "leaderboard-row", "data-name": row.name},
      el("td", {class: "num"}, i + 1), el("td", {}, playerLink(row.name)),
      el("td", {class: "num", title: `mu ${row.mu.toFixed(2)}, sigma ${row.sigma.toFixed(2)}`}, Math.round(row.rating)),
      el("td", {class: "num"}, row.games))))));
}

// -- a player's page -------------------------------------------------------------------------------------
/** An SVG line of the ratings after each rated game of one game, from 0 (before the first). Drawn in CSS
 * pixels, as wide as its place (a phone's is narrow) and never scaled, so that its labels keep their size. */
function chart(points, label, width) {
  const W = Math.round(Math.max(200, Math.min(640, width || 600))), H = 200, left = 44, right = 12, top = 12, bottom = 24;
  const values = [0, ...points.map((p) => p.rating)];
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 2) { hi += 1; lo -= 1; }
  const x = (i) => left + (values.length === 1 ? 0 : (i * (W - left - right)) / (values.length - 1));
  const y = (v) => top + ((hi - v) * (H - top - bottom)) / (hi - lo);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return svg("svg", {class: "rating-chart", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label},
    svg("line", {class: "axis", x1: left, x2: W - right, y1: y(0), y2: y(0)}),
    svg("line", {class: "axis", x1: left, x2: left, y1: top, y2: H - bottom}),
    svg("text", {x: left - 6, y: y(hi) + 4, "text-anchor": "end"}, Math.round(hi)),
    svg("text", {x: left - 6, y: y(lo) + 4, "text-anchor": "end"}, Math.round(lo)),
    lo < 0 && hi > 0 && svg("text", {x: left - 6, y: y(0) + 4, "text-anchor": "end"}, "0"),
    svg("text", {x: W - right, y: H - 6, "text-anchor": "end"}, `${points.length} rated game${points.length === 1 ? "" : "s"}`),
    svg("polyline", {class: "line", points: line}),
    values.slice(1).map((v, i) => svg("circle", {class: "dot", cx: x(i + 1), cy: y(v), r: 3.5},
      svg("title", {}, `${when(points[i].at)}: ${ordinal(points[i].place)} of ${points[i].players}, rating ${Math.round(v)}`))));
}

let drawn = null; // the chart shown: {history, game, width}, drawn again when its place changes width

function renderChart(history, game) {
  const points = history.filter((h) => h.game === game);
  const title = titles[game] || game;
  const place = $("rating-chart");
  place.dataset.game = game;
  fill(place); // measured empty: the place's own width, not the last chart's
  drawn = {history, game, width: place.clientWidth};
  fill(place, chart(points, `${title} rating after each of ${points.length} rated games`, drawn.width));
  document.querySelectorAll("#player-ratings [aria-pressed]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.game === game)));
}

function result(g) {
  if (g.status !== "over") return g.status === "abandoned" ? "abandoned" : g.left ? "left; playing on" : "playing";
  if (!g.place) return "over";
  return `${ordinal(g.place)} of ${g.players}${g.left ? " (left)" : ""}`;
}

async function player() {
  const name = parts[2] || "";
  let info;
  try {
    info = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  } catch (exc) {
    $("player-title").textContent = "No such player";
    fill($("player-games"));
    say($("message"), exc instanceof ApiError && exc.status === 404 ? `No player "${name}" here.` : `Cannot load the player: ${exc.message}`);
    return;
  }
  document.title = `ludus — ${info.name}`;
  $("player-title").textContent = info.name;
  const best = [...info.ratings].sort((a, b) => b.games - a.games)[0];
  fill($("player-ratings"), info.ratings.length
    ? info.ratings.map((r) => el("li", {"data-game": r.game},
      info.ratings.length > 1
        ? el("button", {type: "button", class: "link-button", "aria-pressed": "false", "data-game": r.game,
          title: "show this game's chart", onclick: () => renderChart(info.history, r.game)}, titles[r.game] || r.game)
        : el("span", {class: "rating-game"}, titles[r.game] || r.game),
      el("strong", {}, Math.round(r.rating)),
      el("span", {class: "hint"}, `${r.games} rated game${r.games === 1 ? "" : "s"} · `,
        el("a", {href: `/ratings/${encodeURIComponent(r.game)}`}, "leaderboard"))))
    : el("li", {}, "No rated games yet."));
  if (best) renderChart(info.history, best.game);
  else fill($("rating-chart"), el("p", {class: "hint"}, "The chart starts with the first rated game."));
  if (!info.games.length) { fill($("player-games"), el("p", {class: "hint"}, "No games yet.")); return; }
  fill($("player-games"), el("table", {class: "results"},
    el("thead", {}, el("tr", {}, ["Game", "Result", "Rated", "Started"].map((h) => el("th", {scope: "col"}, h)))),
    el("tbody", {}, info.games.map((g) => el("tr", {"data-testid": "player-game", "data-game": g.id},
      el("td", {}, el("a", {href: `/games/${encodeURIComponent(g.id)}`}, `${titles[g.game] || g.game} ${g.id}`)),
      el("td", {}, result(g)),
      el("td", {}, g.rated ? "rated" : "—"),
      el("td", {}, when(g.created_at)))))));
}

async function start() {
  let games = [];
  try {
    games = (await meta()).games;
    titles = Object.fromEntries(games.map((g) => [g.name, g.title || g.name]));
  } catch { /* names stand in for titles */ }
  if (parts[1] === "players") await player();
  else await leaderboard(games);
  document.body.dataset.ready = "true";
}

addEventListener("resize", () => {
  if (drawn && $("rating-chart").clientWidth !== drawn.width) renderChart(drawn.history, drawn.game);
});
start();

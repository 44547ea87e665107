// Garum's pieces read away from play: the end's tally of every seat's points, the rules dialog's
// scoring charts, and the hand's pieces a hint marks. Re-exported by board.js.

import {chip, el} from "/static/js/util.js";

// -- the end------------------------------------------------------------------------------------
/** Each seat's score: bonuses and every scored line of each of its colours. */
export function breakdown(view, seatLabel) {
  const obs = view.observation;
  const rows = [];
  for (let seat = 0; seat < view.scores.length; seat++) {
    for (const c of obs.colours.filter((x) => x.player === seat)) {
      const lines = obs.lines.filter((l) => l.colour === c.colour);
      const linePoints = lines.reduce((s, l) => s + l.points, 0);
      rows.push(el("tr", {},
        el("td", {}, seatLabel(seat)),
        el("td", {}, chip(c.colour), ` ${c.name}`),
        el("td", {class: "num"}, c.bonus),
        el("td", {}, lines.length ? lines.map((l) => el("div", {},
          `${l.kind === "D" ? "dominus" : "vilicus"} ${l.line}: ${l.specimens} fish → ${l.points}`)) : "—"),
        el("td", {class: "num"}, linePoints),
        el("td", {class: "num"}, c.bonus + linePoints)));
    }
    rows.push(el("tr", {class: "seat-total"}, el("th", {}, seatLabel(seat)), el("th", {colspan: 4}, "total"),
      el("th", {class: "num", "data-testid": `total-${seat}`}, view.scores[seat])));
  }
  // a wide tally scrolls inside its own box, so a phone's page never grows sideways
  return el("div", {class: "table-scroll"}, el("table", {class: "garum-tally"},
    el("thead", {}, el("tr", {}, ["Seat", "Colour", "Bonuses", "Lines", "Line points", "Points"].map((h) =>
      el("th", {class: ["Bonuses", "Line points", "Points"].includes(h) ? "num" : null}, h)))),
    el("tbody", {}, rows)));
}

/** The rules dialog's part drawn from the game's data (/api/meta `help`): the scoring charts, the fish. */
export function rulesHelp(help) {
  const name = (b) => b.replace("_", " ").replace(/\b\w/g, (c) => c.toUpperCase());
  return [el("h3", {}, "Scoring chart of a worker's line"),
    ...Object.entries(help.boards || {}).map(([board, b]) => {
      const rows = b.chart;
      const last = rows.length - 1;
      const head = rows.map((r, i) => (i === 0 ? `≤ ${r[0]}` : i === last ? `${r[0]}+` : String(r[0])));
      return el("div", {class: "table-scroll"}, el("table", {class: "rules-chart", "data-board": board},
        el("caption", {}, `${name(board)}: ${b.rounds} rounds, hand of ${b.hand_size}; bonus spaces ${b.species_bonus} `
          + `(species), ${b.joker_bonus} (joker)`),
        el("thead", {}, el("tr", {}, el("th", {}, "fish on the line"), head.map((h) => el("th", {class: "num"}, h)))),
        el("tbody", {},
          el("tr", {}, el("th", {}, "vilicus"), rows.map((r) => el("td", {class: "num"}, r[1]))),
          el("tr", {}, el("th", {}, "dominus"), rows.map((r) => el("td", {class: "num"}, r[2]))))));
    }),
    el("p", {}, "Fish: ", Object.entries(help.species || {}).flatMap(([k, v]) => [chip(k), ` ${v} `]))];
}

/**
 * The hand's pieces that begin a placement `action` a hint names (the tile to pick first, then its turn):
 * the hint marks them when no board target plays or selects the action itself.
 */
export function hintTargets(action, root = document) {
  const place = action.match(/^c\d+\.[1-4] ([A-Z]{4})$/);
  if (!place) return [];
  const turn = [...root.querySelectorAll("[data-orientation]")].filter((e) => e.getAttribute("data-orientation") === place[1]);
  if (turn.length) return turn;
  // a hand tile lists the turns it may lie in (data-fish, drawn by the board from the legal moves)
  return [...root.querySelectorAll("[data-tile]:not([disabled])")]
    .filter((e) => (e.getAttribute("data-fish") || "").split(" ").includes(place[1]));
}

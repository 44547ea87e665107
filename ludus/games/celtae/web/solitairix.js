// Solitairix on the board: its panel with its tile drawn (the side in play, its four quarters from the
// game's data, the active quarter marked), the card it played, and each new turn of it replayed step
// by step as a bot's turn is seen: the card drawn, the marker moving from its old corner, the tile
// turning, the swap, the action, each step's pieces marked, one step a beat (at once when the person
// prefers reduced motion). The engine plays its whole turn inside the human's last action; the
// server's log entry names its steps and their pieces (`play`: text and data-key of each).

import {el, svg} from "/static/js/util.js";
import {SOLO_TILE} from "./panels.js";
import {cap, plural} from "./words.js";

const BEAT_MS = 900; // one step a beat
const KEY = "ludus:celtae-sx-replayed"; // the last turn replayed, per game page (a reload does not replay it)

const replay = {key: null, steps: [], shown: 0, timer: null, root: null, turn: null};

/** The tile as an SVG: the side in play, its four quarters (clockwise from the top left), `quarter` marked. */
export function tileSvg(side, quarter) {
  const quarters = SOLO_TILE[side - 1] || [];
  const W = 128;
  const H = 70;
  const at = [[0, 0], [1, 0], [1, 1], [0, 1]]; // quarters 1-4 clockwise, as the tile turns
  const drawing = svg("svg", {class: "cb-sx-tile", viewBox: `0 0 ${2 * W + 6} ${2 * H + 26}`, role: "img",
    "aria-label": `Solitairix's tile, side ${side}, quarter ${quarter} in play`, "data-testid": "solitairix-tile",
    "data-side": String(side), "data-quarter": String(quarter)},
  svg("text", {x: 3, y: 15, class: "cb-sx-side"}, `Side ${side}`));
  quarters.forEach((q, i) => {
    const [cx, cy] = at[i];
    const x = 3 + cx * W;
    const y = 22 + cy * H;
    const on = i + 1 === quarter;
    drawing.append(svg("g", {class: `cb-sx-quarter${on ? " on" : ""}`, "data-quarter": String(i + 1)},
      svg("rect", {x, y, width: W - 2, height: H - 2, rx: 5}),
      svg("text", {x: x + 5, y: y + 15, class: "cb-sx-q-title"}, `${i + 1} · ${q.actions.map(cap).join(" › ")}`),
      svg("text", {x: x + 5, y: y + 36}, q.swap === "refresh" ? "refresh the area" : `swap ${q.swap}`),
      svg("text", {x: x + 5, y: y + 56}, `discard ${q.discards.join(" ")}`)));
  });
  return drawing;
}

function pace() {
  return matchMedia?.("(prefers-reduced-motion: reduce)")?.matches ? 0 : BEAT_MS;
}

function seenKey() {
  try { return sessionStorage.getItem(`${KEY}:${location.pathname}`); } catch { return null; }
}

function keepSeen(key) {
  try { sessionStorage.setItem(`${KEY}:${location.pathname}`, key); } catch { /* private mode */ }
}

/**
 * The log's newest Solitairix turn: replayed once, from its first step, when it is new to this page
 * (`live`: a live game page; the replay viewer shows its turns at once).
 */
export function follow(log, live) {
  const entry = log.findLast?.((e) => e.solitairix && Array.isArray(e.play));
  if (!entry) return;
  const key = `${entry.after}:${entry.action}`;
  if (key === replay.key) return;
  clearTimeout(replay.timer);
  const fresh = live && key !== seenKey();
  Object.assign(replay, {key, steps: entry.play, turn: entry.turn, shown: fresh ? 1 : entry.play.length});
  keepSeen(key);
  if (fresh) tick();
}

function tick() {
  show(replay.root);
  if (replay.shown >= replay.steps.length) return;
  const wait = pace();
  const next = () => { replay.shown += 1; tick(); };
  if (wait) replay.timer = setTimeout(next, wait);
  else next();
}

/** Solitairix's panel: target, tile, what it has won, the card it played, its turn step by step. */
export function panel(sx, cardFace, disc) {
  const last = sx.last_turn;
  const card = sx.drawn || last?.card;
  return el("article", {class: "cb-seat seat-1 cb-sx", "data-key": "solitairix", "aria-label": "Solitairix"},
    el("header", {class: "cb-row"}, disc(1, "Solitairix"), el("strong", {}, "Solitairix"),
      el("span", {class: "cb-score"}, `target ${sx.target}`)),
    el("div", {class: "cb-row cb-sx-top"},
      el("div", {class: "cb-sx-tile-box", "data-key": "solitairix-tile"}, tileSvg(sx.side, sx.quarter)),
      card ? el("div", {class: "cb-sx-card"}, el("span", {class: "cb-small"}, sx.drawn ? "its card now" : "card it played"),
        cardFace(card, "solitairix-card")) : null),
    el("div", {class: "cb-row cb-stats"}, `worker ${sx.worker ? sx.worker : "none"} · discs ${sx.discs_placed}`
      + ` · cubes ${sx.cubes_placed} · Roman tiles ${sx.roman_tiles} · druid tiles ${sx.druid_tiles}`
      + ` · ${plural(sx.druids, "druid")} · bonus tiles ${sx.bonus_tiles}`),
    el("div", {class: "cb-sx-play", "data-testid": "solitairix-turn", "aria-live": "polite"}));
}

/** Draw the replay as far as it has gone on `root` (the board just drawn, or the one shown). */
export function show(root) {
  replay.root = root || replay.root;
  const board = replay.root;
  const box = board?.querySelector?.(".cb-sx-play");
  if (!box || !replay.steps.length) return;
  const {steps, shown, turn} = replay;
  const done = shown >= steps.length;
  box.dataset.replay = done ? "done" : "running";
  box.dataset.step = String(shown);
  box.replaceChildren(el("strong", {}, done ? "Its last turn" : `Its turn, step ${shown} of ${steps.length}`),
    el("ol", {class: "cb-sx-steps"}, steps.slice(0, shown).map((s, i) => el("li",
      {class: i === shown - 1 && !done ? "now" : null, "data-testid": "solitairix-step"}, cap(s.text)))));
  for (const n of board.querySelectorAll(".sx-step")) n.classList.remove("sx-step");
  // before its move is shown, the marker stands where Solitairix found it (never once another seat
  // has moved it on), and its tile shows the quarter it had
  const step = done ? steps.length : shown - 1;
  const moved = steps.findIndex((s) => s.marker);
  if (step < moved && board.querySelector(`.cb-corner.here[data-key="corner-${turn.marker}"]`)) {
    placeMarker(board, turn.marker_before);
    board.dataset.sxMarker = "before";
  } else if (step >= moved && board.dataset.sxMarker === "before") {
    placeMarker(board, turn.marker);
    delete board.dataset.sxMarker;
  }
  const turned = steps.findIndex((s) => s.quarter);
  const tile = board.querySelector(".cb-sx-tile-box");
  const quarter = step < turned ? turn.quarter_before : turn.quarter;
  if (tile && tile.querySelector("svg")?.dataset.quarter !== String(quarter)) tile.replaceChildren(tileSvg(turn.side, quarter));
  if (done) return;
  for (const key of steps[step].keys || []) {
    for (const n of board.querySelectorAll(`[data-key="${key}"]`)) n.classList.add("sx-step");
  }
}

function placeMarker(board, corner) {
  const here = board.querySelector(".cb-corner.here");
  const there = board.querySelector(`[data-key="corner-${corner}"]`);
  if (!here || !there || here === there) return;
  const badge = here.querySelector(".cb-marker");
  here.classList.remove("here");
  there.classList.add("here");
  if (badge) there.append(badge);
}

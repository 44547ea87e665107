// Garum in the browser: clickable overlays on the board, the hand picker, the log, the end tally.
//
// The board itself comes from the server's render_svg (the same renderer as `ludus render`);
// drawBoard() below is a plain fallback used only when that renderer is missing.
// Board geometry: 16 x 16 fish cells; cetarium n sits at grid[r][c] (4 x 4 cells); slot s of
// a cetarium is its quarter 1 top-left, 2 top-right, 3 bottom-left, 4 bottom-right;
// line hN is fish row N, vN fish column N.

import {meta} from "/static/js/api.js";
import {comesFrom} from "/static/js/motion.js";
import {logLine, notationToggle, seatTitle} from "/static/js/log.js";
import {installTooltips, tip} from "/static/js/tooltip.js";
import {chip, el, fill, svg} from "/static/js/util.js";
import {fishCells, SPECIES, tileSvg, tileText, turns} from "./tiles.js";

export {rotate, SPECIES, tileSvg} from "./tiles.js";

const PLACE = /^c(\d+)\.([1-4]) ([BGYR]{4})$/;
const WORKER = /^([VD]) ([hv])(\d+)$/;
const CHOOSE = /^choose c(\d+)$/;

export {breakdown, hintTargets, rulesHelp} from "./tally.js";

export const name = "garum";
export const words = {hands: "Your tiles", seatInfo: "Colours", placeholder: "e.g. c14.2 BBGY, V h5, pass"};
export const overlays = true; // moves are also clicked on the board

let help = null; // the server's rules help for Garum (charts, bonus points), from /api/meta
meta().then((m) => { help = m.games?.find((g) => g.name === "garum")?.help || null; }).catch(() => {});
let projected = null; // the latest view's panels: each line and seat as if the game ended now
let zoom = false; // the board opens fitted to the screen; zoomed (a toggle), its cells are 44 px and more
let zoomedOn = null; // the cetarium the zoomed board was last scrolled to
installTooltips();

function cetariumAt(obs, n) {
  for (let r = 0; r < obs.grid.length; r++) {
    const c = obs.grid[r].indexOf(n);
    if (c >= 0) return [r, c];
  }
  return null;
}

function slotOrigin(obs, cet, slot) {
  const [gr, gc] = cetariumAt(obs, cet);
  return [gc * 4 + 2 * ((slot - 1) % 2), gr * 4 + 2 * Math.floor((slot - 1) / 2)]; // x, y
}

function colourOf(obs, letter) {
  return obs.colours.find((c) => c.colour === letter);
}

export function describeSeat(obs, seat) {
  const chips = obs.colours.filter((c) => c.player === seat).map((c) => chip(c.colour, `${c.name} (${c.species})`));
  const now = projected?.seats?.[seat];
  if (now === undefined || obs.phase === "over") return chips;
  return [...chips, " ", tip(el("span", {class: "hint", "data-testid": `seat-projected-${seat}`}, `projected ${now}`),
    `${now} points if the game ended now: bonuses plus every worker's line as the board stands`)];
}

const plus = (n) => (n > 0 ? `+${n}` : String(n));

/**
 * The panels beside the board, from the server's view.panels (its end scoring on the board as it
 * stands): each seat's score if the game ended now, each colour's workers, pile and points, and
 * every worker's line with its fish. The live score counts bonuses only until the end.
 */
export function panels(view) {
  seenView = view;
  markLastMoves();
  projected = view.panels || null;
  const obs = view.observation;
  if (!projected || !obs?.colours) return null;
  const over = obs.phase === "over";
  const byColour = projected.colours || {};
  const seats = (projected.seats || []).map((total, seat) => el("tr", {class: seat === view.seat ? "seat-you" : null},
    el("th", {scope: "row", "data-testid": `projected-seat-${seat}`}, seatTitle(seat, view.seats), seat === view.seat ? " (you)" : ""),
    el("td", {}, obs.colours.filter((c) => c.player === seat).map((c) => chip(c.colour, `${c.name} (${c.species})`))),
    el("td", {class: "num"}, view.scores?.[seat] ?? ""),
    el("td", {class: "num strong", "data-testid": `projected-${seat}`}, total)));
  const shown = new Set();
  const colours = obs.colours.filter((c) => !c.ghost).map((c) => {
    const partner = c.shares_workers_with;
    const sharedShown = partner && shown.has(partner);
    shown.add(c.name);
    const mine = byColour[c.colour] || {bonus: c.bonus, lines: 0, total: c.bonus};
    return el("tr", {},
      el("th", {scope: "row"}, tip(el("span", {}, chip(c.colour), ` ${c.species}`),
        `${c.name} (${c.species}), played by ${seatTitle(c.player, view.seats)}`)),
      el("td", {class: "num", "data-testid": `workers-${c.colour}`},
        tip(el("span", {}, sharedShown ? "shared" : `${c.vilicus}V · ${c.dominus}D`),
          sharedShown ? `one worker set with ${partner}: counted on its row`
            : `${c.vilicus} vilicus and ${c.dominus} dominus left to place`)),
      el("td", {class: "num", "data-testid": `pile-${c.colour}`},
        tip(el("span", {}, `${c.pile}`), `${c.pile} tiles left in the pile, ${c.hand_size} in hand`)),
      el("td", {class: "num"}, mine.bonus),
      el("td", {class: "num"}, plus(mine.lines)),
      el("td", {class: "num strong"}, mine.total));
  });
  const lines = (projected.lines || []).map((l) => tip(el("li", {class: "garum-line", "data-testid": `line-${l.line}`},
    chip(l.colour), ` ${l.kind === "D" ? "dominus" : "vilicus"} ${l.line}: `,
    el("strong", {}, `${l.specimens} ${SPECIES[l.colour]?.name || l.colour}`),
    ` → ${plus(l.points)}`, l.open && !over ? el("span", {class: "hint"}, ` · ${l.open} empty, at best ${plus(l.best)}`) : ""),
  `${SPECIES[l.colour]?.colour || l.colour} ${l.kind === "D" ? "dominus" : "vilicus"} on ${l.line}: ${l.specimens} `
    + `${SPECIES[l.colour]?.name || ""} there now, scoring ${plus(l.points)} if the game ended now`
    + (l.open ? `; ${l.open} cells still empty (all ${SPECIES[l.colour]?.name || ""}: ${plus(l.best)})` : "")));
  return el("div", {class: "garum-panels", "data-testid": "garum-panels"},
    el("h2", {}, over ? "Final score" : "If the game ended now"),
    el("div", {class: "table-scroll"}, el("table", {class: "garum-seats"},
      el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Colours"),
        el("th", {class: "num"}, tip(el("span", {}, "Now"), "points scored so far: bonuses (lines score at the end)")),
        el("th", {class: "num"}, tip(el("span", {}, "Projected"), "bonuses plus every worker's line as it stands")))),
      el("tbody", {}, seats))),
    el("h3", {}, "Colours"),
    el("div", {class: "table-scroll"}, el("table", {class: "garum-colours"},
      el("thead", {}, el("tr", {}, el("th", {}, "Colour"),
        el("th", {class: "num"}, tip(el("span", {}, "Workers"), "vilicus (V) and dominus (D) left")),
        el("th", {class: "num"}, tip(el("span", {}, "Pile"), "tiles left in the pile")),
        el("th", {class: "num"}, "Bonus"), el("th", {class: "num"}, "Lines"), el("th", {class: "num"}, "Total"))),
      el("tbody", {}, colours))),
    el("h3", {}, "Workers' lines"),
    lines.length ? el("ul", {class: "garum-lines"}, lines) : el("p", {class: "hint"}, "No worker on the board yet."));
}

export function status(view) {
  const obs = view.observation;
  // a turn whose timer ran out, said at once (until that seat decides again), not only in the log
  const news = view.notices?.length
    ? el("span", {class: "garum-notice", role: "status", "data-testid": "notice"}, view.notices.join(" · ")) : null;
  if (view.terminal) return news || "";
  const who = obs.current_colour ? [" · colour ", chip(obs.current_colour, SPECIES[obs.current_colour].colour)] : [];
  const doing = {
    place: "place a tile", worker: "place a worker or pass", ghost: "place the ghost's tile",
    choose: "choose the round's cetarium",
  }[obs.phase] || obs.phase;
  return [
    news, // first: the timer's note (game.js adds after the status) then follows the phase
    `Round ${obs.round}/${obs.rounds}`,
    obs.cetarium ? ` · cetarium ${obs.cetarium}` : "",
    ...who,
    ` · to ${doing}`,
  ];
}

// -- fallback board -------------------------------------------------------------------------
/** The board drawn in the browser, only when the server has no SVG renderer. */
export function drawBoard(obs) {
  const root = svg("svg", {viewBox: "-1.4 -1.4 18.6 18.6", role: "img", "aria-label": "Garum board",
    "data-board-box": "0 0 16 16"});
  root.append(svg("rect", {x: -1.4, y: -1.4, width: 18.6, height: 18.6, fill: "#f6efe0"}));
  const bonusAt = new Map(obs.bonuses.map((b) => [`${b.cell[0]},${b.cell[1]}`, b.kind]));
  obs.grid.forEach((row, gr) => row.forEach((cet, gc) => {
    if (!cet) return;
    const x = gc * 4;
    const y = gr * 4;
    const current = cet === obs.cetarium;
    root.append(svg("rect", {x, y, width: 4, height: 4, fill: "#e9dcc0", stroke: current ? "#ff9f1c" : "#6b5b3e",
      "stroke-width": current ? 0.2 : 0.1}));
    root.append(svg("path", {d: `M${x + 2} ${y}v4M${x} ${y + 2}h4`, stroke: "#6b5b3e", "stroke-width": 0.04,
      "stroke-dasharray": "0.15 0.1"}));
  }));
  obs.fish.forEach((line, r) => [...line].forEach((ch, c) => {
    if (SPECIES[ch]) {
      root.append(fishCells(ch, c, r));
    } else if (ch === "." && bonusAt.has(`${r},${c}`)) {
      const kind = bonusAt.get(`${r},${c}`);
      const sp = SPECIES[kind];
      root.append(
        svg("circle", {cx: c + 0.5, cy: r + 0.5, r: 0.36, fill: sp ? sp.fill : "#fff", stroke: "#222", "stroke-width": 0.04}),
        svg("text", {x: c + 0.5, y: r + 0.68, "text-anchor": "middle", "font-size": 0.45, "font-weight": 700,
          fill: sp ? sp.ink : "#000"}, kind === "*" ? "★" : kind),
      );
    }
  }));
  obs.grid.forEach((row, gr) => row.forEach((cet, gc) => {
    if (!cet) return;
    root.append(
      svg("rect", {x: gc * 4 + 1.55, y: gr * 4 + 1.7, width: 0.9, height: 0.6, rx: 0.1, fill: "#fff", opacity: 0.85}),
      svg("text", {x: gc * 4 + 2, y: gr * 4 + 2.15, "text-anchor": "middle", "font-size": 0.45, "font-weight": 700}, cet),
    );
  }));
  for (let i = 0; i < 16; i++) {
    root.append(
      svg("text", {x: 16.15, y: i + 0.65, "font-size": 0.38, fill: "#555"}, `h${i + 1}`),
      svg("text", {x: i + 0.5, y: 16.55, "font-size": 0.34, fill: "#555", "text-anchor": "middle"}, `v${i + 1}`),
    );
  }
  for (const w of obs.workers) {
    const axis = w.line[0];
    const n = Number(w.line.slice(1)) - 1;
    const [cx, cy] = axis === "h" ? [-0.7, n + 0.5] : [n + 0.5, -0.7];
    const sp = SPECIES[w.colour];
    const shape = w.kind === "D"
      ? svg("rect", {x: cx - 0.45, y: cy - 0.45, width: 0.9, height: 0.9, fill: sp.fill, stroke: "#000", "stroke-width": 0.1})
      : svg("circle", {cx, cy, r: 0.38, fill: sp.fill, stroke: "#000", "stroke-width": 0.05});
    const g = svg("g", {}, svg("title", {}, `${sp.colour} ${w.kind === "D" ? "dominus" : "vilicus"} on ${w.line}`), shape,
      svg("text", {x: cx, y: cy + 0.17, "text-anchor": "middle", "font-size": 0.45, "font-weight": 700, fill: sp.ink},
        w.colour + (w.kind === "D" ? "D" : "")));
    root.append(g);
  }
  return root;
}

export function renderOptions(obs) {
  return obs.cetarium ? {highlight: obs.cetarium} : {};
}

/** Where the 16 x 16 fish grid lies in a board SVG, in its user units: [x, y, w, h] or null. */
export function boardBox(root) {
  const marked = root.getAttribute("data-board-box") || root.querySelector("[data-board-box]")?.getAttribute("data-board-box");
  if (marked) {
    const box = marked.trim().split(/[\s,]+/).map(Number);
    if (box.length === 4 && box.every(Number.isFinite)) return box;
  }
  // the server's renderer draws every grid square as rect.cetarium or rect.hole: their union is the grid
  const squares = [...root.querySelectorAll("rect.cetarium, rect.hole")];
  if (squares.length) {
    const num = (r, a) => parseFloat(r.getAttribute(a));
    const x0 = Math.min(...squares.map((r) => num(r, "x")));
    const y0 = Math.min(...squares.map((r) => num(r, "y")));
    const x1 = Math.max(...squares.map((r) => num(r, "x") + num(r, "width")));
    const y1 = Math.max(...squares.map((r) => num(r, "y") + num(r, "height")));
    if ([x0, y0, x1, y1].every(Number.isFinite) && x1 > x0 && y1 > y0) return [x0, y0, x1 - x0, y1 - y0];
  }
  const node = root.querySelector("#board, [data-board], .board-grid");
  if (node && typeof node.getBBox === "function") {
    const b = node.getBBox();
    if (b.width > 0 && b.height > 0) return [b.x, b.y, b.width, b.height];
  }
  return null;
}

// -- interaction -----------------------------------------------------------------------------
/**
 * The interactive part for the seat to move: returns {controls, overlay(group), onKey(e), narrow}:
 * narrow(action) keeps the list of legal moves to those of the tile (or worker) picked.
 * ctx: {obs, legal, selection, setSelection(sel), play(action)}.
 */
export function interaction(ctx) {
  const {obs, legal} = ctx;
  const sel = ctx.selection || {};
  const places = legal.map((a) => [a, a.match(PLACE)]).filter(([, m]) => m);
  const workers = legal.map((a) => [a, a.match(WORKER)]).filter(([, m]) => m);
  const chooses = legal.map((a) => [a, a.match(CHOOSE)]).filter(([, m]) => m);
  const controls = el("div", {class: "garum-controls"});
  const overlay = svg("g");
  let onKey = () => false;
  let narrow = null;
  keepFocusOnBoard(overlay);

  if (places.length) {
    const legalFish = new Set(places.map(([, m]) => m[3]));
    const tiles = obs.phase === "ghost" ? [obs.ghost_tile] : (colourOf(obs, obs.current_colour)?.hand || []);
    const options = tiles.map((fish) => turns(fish).filter((f) => legalFish.has(f)));
    const chosen = sel.tile !== undefined && options[sel.tile]?.length ? sel.tile : null;
    const fish = chosen === null ? null : (options[chosen].includes(sel.fish) ? sel.fish : options[chosen][0]);
    const pick = (i) => options[i]?.length && ctx.setSelection({tile: i, fish: options[i][0]});
    const turn = () => {
      if (chosen === null) return;
      const list = options[chosen];
      ctx.setSelection({tile: chosen, fish: list[(list.indexOf(fish) + 1) % list.length]});
    };
    const who = obs.phase === "ghost" ? "The ghost's tile" : "Your hand";
    controls.append(
      el("h3", {}, `${who} (colour `, chip(obs.current_colour), ")"),
      el("p", {class: "hint", id: "garum-step"},
        ...(chosen === null ? ["Step 1: pick a tile", el("span", {class: "kbd-help"}, " (keys 1–4)"), "."] // no keys on touch
          : ["Step 2: click a highlighted quarter of the cetarium", el("span", {class: "kbd-help"}, "; R turns the tile, Esc cancels"), "."])),
      el("div", {class: "hand", role: "group", "aria-label": "tiles in hand"}, tiles.map((f, i) =>
        tip(el("button", {type: "button", class: "tile-btn", "data-tile": i, "data-board-select": `tile-${i + 1}`,
          "aria-pressed": String(chosen === i),
          "aria-label": `tile ${i + 1}: ${f}`, "data-fish": options[i].join(" "), // its legal turns
          disabled: !options[i].length, onclick: () => pick(i)},
        tileSvg(chosen === i ? fish : f), el("span", {}, String(i + 1))), tileText(chosen === i ? fish : f)))),
    );
    if (chosen !== null) {
      narrow = (action) => !PLACE.test(action) || options[chosen].includes(action.match(PLACE)[3]);
      controls.append(
        el("div", {class: "orientations", role: "group", "aria-label": "orientation"},
          options[chosen].map((f) => tip(el("button", {type: "button", class: "tile-btn", "data-orientation": f,
            "data-board-select": `orientation-${f}`,
            "aria-pressed": String(f === fish), "aria-label": `orientation ${f}`,
            onclick: () => ctx.setSelection({tile: chosen, fish: f})}, tileSvg(f)), tileText(f)))),
        el("div", {class: "row"},
          el("button", {type: "button", onclick: turn, disabled: options[chosen].length < 2}, "Turn (R)"),
          el("button", {type: "button", "data-testid": "cancel", onclick: () => ctx.setSelection(null)}, "Cancel (Esc)")),
      );
      const preview = svg("g", {class: "preview", "aria-hidden": "true", "data-testid": "preview"});
      preview.setAttribute("visibility", "hidden");
      const showAt = (x, y) => {
        preview.replaceChildren(fishCells(fish, x, y), bonusBadges(obs, fish, x, y));
        preview.setAttribute("visibility", "visible");
      };
      let hovered = null;
      const follow = () => {
        // one preview: under the pointer, else at the target the keyboard is on
        const focused = overlay.querySelector(".hit:focus");
        const at = hovered || focused;
        if (at) showAt(Number(at.getAttribute("x")), Number(at.getAttribute("y")));
        else preview.setAttribute("visibility", "hidden");
      };
      for (const [action, m] of places) {
        if (m[3] !== fish) continue;
        const cet = Number(m[1]);
        const slot = Number(m[2]);
        const [x, y] = slotOrigin(obs, cet, slot);
        const hit = svg("rect", {x, y, width: 2, height: 2, class: "hit", tabindex: 0, role: "button",
          "data-board-action": action, "aria-label": `place ${fish} in cetarium ${cet}, quarter ${slot}`});
        // the tile, once drawn on the board, comes from the hand (motion.js)
        const fromHand = () => comesFrom(`tile c${cet}.${slot}`,
          controls.querySelector(`[data-tile="${chosen}"] svg`)?.getBoundingClientRect());
        hit.addEventListener("click", fromHand);
        hit.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") fromHand(); });
        hit.addEventListener("pointerenter", () => { hovered = hit; follow(); });
        hit.addEventListener("pointerleave", () => { hovered = null; follow(); });
        hit.addEventListener("focus", follow);
        hit.addEventListener("blur", () => setTimeout(follow));
        overlay.append(hit);
      }
      overlay.append(preview); // last: drawn above the targets, never catching the pointer
    }
    onKey = (e) => {
      if (/^[1-4]$/.test(e.key) && Number(e.key) <= tiles.length) { pick(Number(e.key) - 1); return true; }
      if ((e.key === "r" || e.key === "R") && chosen !== null) { turn(); return true; }
      return false;
    };
  }

  if (workers.length || (legal.includes("pass") && obs.phase === "worker")) {
    const kinds = [...new Set(workers.map(([, m]) => m[1]))];
    const kind = kinds.includes(sel.kind) ? sel.kind : kinds[0];
    if (sel.kind && kinds.includes(sel.kind)) narrow = (action) => !WORKER.test(action) || action.startsWith(`${kind} `);
    const me = colourOf(obs, obs.current_colour);
    controls.append(
      el("h3", {}, "Place a worker (colour ", chip(obs.current_colour), ") or pass"),
      el("div", {class: "row", role: "group", "aria-label": "worker"},
        kinds.map((k) => tip(el("button", {type: "button", "data-worker": k, "data-board-select": `worker-${k}`,
          "aria-pressed": String(k === kind),
          onclick: () => ctx.setSelection({kind: k})},
        k === "V" ? `Vilicus (${me?.vilicus ?? "?"} left)` : `Dominus (${me?.dominus ?? "?"} left)`),
        k === "V" ? "a vilicus scores its line by the chart" : "the dominus scores its line double (and loses double)")),
        legal.includes("pass") ? el("button", {type: "button", "data-testid": "pass", "data-board-action": "pass",
          onclick: () => ctx.play("pass")},
          "Pass") : null),
      el("p", {class: "hint"}, "Click a highlighted row or column (keys V / D pick the worker, P passes)."),
    );
    const [gr, gc] = cetariumAt(obs, obs.cetarium) || [0, 0];
    for (const [action, m] of workers) {
      if (m[1] !== kind) continue;
      const n = Number(m[3]) - 1;
      const fishNow = lineFish(obs, m[2], n, obs.current_colour);
      const label = `${kind === "V" ? "vilicus" : "dominus"} on ${m[2] === "h" ? "row" : "column"} ${m[2]}${n + 1}`;
      const g = svg("g", {class: "hit line", tabindex: 0, role: "button", "data-board-action": action, "aria-label": label,
        "data-tip": `${label}: ${fishNow} ${SPECIES[obs.current_colour]?.name || ""} on it now`});
      // a whole cell thick across the board but the cetarium (44 px and more on the zoomed board), and a
      // tab two cells long in the margin, even lines' on the left (top), odd lines' on the right (bottom):
      // 24 px and more even on a phone's fitted board, never overlapping a neighbour's tab
      const tab = n % 2 === 0 ? -1.3 : 16;
      const [before, after] = m[2] === "h" ? [gc * 4, 12 - gc * 4] : [gr * 4, 12 - gr * 4];
      const strip = (from, long) => (m[2] === "h" ? {x: from, y: n + 0.02, width: long, height: 0.96}
        : {x: n + 0.02, y: from, width: 0.96, height: long});
      const [t0, t1] = [Math.max(0, n - 0.48), Math.min(16, n + 1.48)]; // a row's tab clear of the corners
      g.append(svg("rect", {class: "tab", ...(m[2] === "h" ? {x: tab, y: t0, width: 1.3, height: t1 - t0}
        : {x: n - 0.48, y: tab, width: 1.96, height: 1.3})}));
      if (before > 0) g.append(svg("rect", strip(0, before)));
      if (after > 0) g.append(svg("rect", strip(16 - after, after)));
      overlay.append(g);
    }
    onKey = (e) => {
      const k = e.key.toUpperCase();
      if ((k === "V" || k === "D") && kinds.includes(k)) { ctx.setSelection({kind: k}); return true; }
      if (k === "P" && legal.includes("pass")) { ctx.play("pass"); return true; }
      return false;
    };
  }

  if (chooses.length) {
    controls.append(el("h3", {}, "Choose the round's cetarium"), el("p", {class: "hint"}, "Click a highlighted cetarium."));
    for (const [action, m] of chooses) {
      const at = cetariumAt(obs, Number(m[1]));
      if (!at) continue;
      overlay.append(svg("rect", {x: at[1] * 4, y: at[0] * 4, width: 4, height: 4, class: "hit", tabindex: 0,
        role: "button", "data-board-action": action, "aria-label": `choose cetarium ${m[1]}`,
        "data-tip": `cetarium ${m[1]}: this round's tiles go here`}));
    }
  }
  return {controls, overlay, onKey, narrow};
}

/** After a click or Enter on the board, the keyboard stays on the board (the targets are redrawn). */
function keepFocusOnBoard(group) {
  const hold = (e) => {
    const wrap = e.currentTarget.closest?.(".board-wrap") || document.getElementById("board");
    if (!wrap) return;
    wrap.tabIndex = -1;
    wrap.focus({preventScroll: true});
  };
  group.addEventListener("click", hold);
  group.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") hold(e); });
}

/** How many fish of a colour's species lie on line (axis "h" row / "v" column) index n now. */
function lineFish(obs, axis, n, letter) {
  const cells = axis === "h" ? [...(obs.fish[n] || "")] : obs.fish.map((row) => row[n]);
  return cells.filter((ch) => ch === letter).length;
}

/** A tile in words: its fish in reading order. */

/**
 * Over the preview, each bonus space it would cover: a ring, and the points the placer gains
 * there (+2 species, +1 joker; 0 when the species does not match). The preview never hides a bonus.
 */
function bonusBadges(obs, fish, x, y) {
  const g = svg("g", {class: "preview-bonus"});
  const bonusAt = new Map((obs.bonuses || []).map((b) => [`${b.cell[0]},${b.cell[1]}`, b.kind]));
  const board = help?.boards?.[obs.board] || {species_bonus: 2, joker_bonus: 1};
  const ownOnly = obs.config?.species_bonus === "own";
  [...fish].forEach((letter, i) => {
    const cx = x + (i % 2);
    const cy = y + Math.floor(i / 2);
    const kind = bonusAt.get(`${cy},${cx}`);
    if (!kind) return;
    let gain = 0;
    if (kind === "*") gain = board.joker_bonus;
    else if (kind === letter && (!ownOnly || kind === obs.current_colour)) gain = board.species_bonus;
    g.append(
      svg("circle", {cx: cx + 0.5, cy: cy + 0.5, r: 0.42, fill: "none", stroke: "#fff", "stroke-width": 0.12}),
      svg("circle", {cx: cx + 0.5, cy: cy + 0.5, r: 0.42, fill: "none", stroke: "#111", "stroke-width": 0.05,
        "stroke-dasharray": "0.12 0.08"}),
      svg("rect", {x: cx + 0.42, y: cy + 0.02, width: 0.56, height: 0.38, rx: 0.08, fill: gain ? "#fff7d6" : "#eee",
        stroke: "#111", "stroke-width": 0.03}),
      svg("text", {x: cx + 0.7, y: cy + 0.31, "text-anchor": "middle", "font-size": 0.3, "font-weight": 700,
        "font-family": "sans-serif", fill: "#111"}, gain ? `+${gain}` : (kind === "*" ? "★" : kind)),
    );
  });
  return g;
}

/** Hands the seat may see (its own colours'), shown when it is not its turn too. */
export function hands(obs) {
  const mine = obs.colours.filter((c) => c.hand);
  if (!mine.length) return null;
  return el("div", {}, mine.map((c) => el("div", {class: "row"}, chip(c.colour), `${c.name}:`,
    el("span", {class: "hand"}, c.hand.map((f) => tip(el("span", {class: "tile-btn", "aria-label": `tile ${f}`, tabindex: 0},
      tileSvg(f)), tileText(f)))),
    el("span", {class: "hint"}, `pile ${c.pile} · vilicus ${c.vilicus} · dominus ${c.dominus} · bonus ${c.bonus}`))));
}

// -- the last move of every other seat -----------------------------------------------------------
let seenView = null; // the latest view: its log says what each other seat did last
let watching = false;

/** Each other seat's last turn: its trailing run of entries in the server's ordered log. */
export function lastTurns(log, me) {
  const out = new Map();
  for (let i = log.length - 1; i >= 0; i--) {
    const s = log[i].seat;
    if (s === me || s < 0 || out.has(s)) continue;
    const run = [];
    for (let j = i; j >= 0 && log[j].seat === s; j--) run.unshift(log[j].action);
    out.set(s, run);
  }
  return out;
}

/**
 * Mark on the board's drawing (the server's SVG, redrawn at each change) the pieces of each other
 * seat's last turn: the fish of its tile, its worker, the cetarium it chose, with data-last-move="<seat>"
 * and a short animation (css/garum.css). Watches the board so that every redraw is marked.
 */
function markLastMoves() {
  const wrap = document.getElementById("board");
  if (!wrap) return;
  if (!watching) {
    watching = true;
    new MutationObserver(markLastMoves).observe(wrap, {childList: true});
  }
  const root = wrap.querySelector(".board-svg > svg");
  const view = seenView;
  if (!root || !view?.log || root.dataset.lastMarked === String(view.version)) return;
  root.dataset.lastMarked = String(view.version);
  for (const old of root.querySelectorAll(".last-move")) { // a newer view on a drawing not yet redrawn
    old.classList.remove("last-move");
    old.removeAttribute("data-last-move");
  }
  const obs = view.observation;
  const tag = (node, s) => {
    if (!node) return;
    node.setAttribute("data-last-move", String(s));
    node.classList.add("last-move");
  };
  for (const [s, run] of lastTurns(view.log, view.seat)) {
    for (const action of run) {
      let m;
      if ((m = action.match(PLACE)) && cetariumAt(obs, Number(m[1]))) {
        const [x, y] = slotOrigin(obs, Number(m[1]), Number(m[2]));
        for (let i = 0; i < 4; i++) tag(root.querySelector(`g.fish[data-cell="${y + Math.floor(i / 2)},${x + (i % 2)}"]`), s);
      } else if ((m = action.match(WORKER))) {
        tag(root.querySelector(`g.worker[data-line="${m[2]}${m[3]}"]`), s);
      } else if ((m = action.match(CHOOSE))) {
        tag(root.querySelector(`g.cetarium-number[data-cetarium="${m[1]}"]`), s);
      }
    }
  }
}

/**
 * A view whose log marks each seat's last turn on the drawings that follow, for a page without a
 * live view (the replay viewer: its step's actions, seats from the steps before; `seat` null).
 */
export function lastMoveLog(view) {
  seenView = view;
  markLastMoves();
}

// -- the move log --------------------------------------------------------------------------------
// The server's ordered log only (view.log): each entry's acting colour, round and sentence come from
// the server (ludus/garum/render.py log_detail), so nothing is rebuilt from the board by guessing.
export const serverLog = true;

export function moveLog(obs, seen = {}, view = null) {
  if (!view?.log) return [];
  notationToggle(document.getElementById("log"));
  const me = view.seat;
  let round = null;
  let prev = null;
  return view.log.map((e) => {
    const opens = e.round !== undefined && e.round !== round ? e.round : null;
    if (opens !== null) round = e.round;
    const turn = e.colour !== prev || opens !== null;
    prev = e.colour;
    const sp = SPECIES[e.colour];
    return {seat: e.seat, action: e.action, text: e.text || e.action, round: opens, turn,
      timedOut: !!e.timed_out, bot: e.played_by, auto: !!e.auto, mine: me !== null && me !== undefined && e.seat === me,
      name: seatTitle(e.seat, view.seats), chip: e.colour ? chip(e.colour, sp ? `${sp.colour} (${sp.name})` : e.colour) : null};
  });
}

export function noteMove(seen) {
  return seen;
}

export function forgetMove(seen) {
  return seen;
}

export function trackWorkers(prev, obs, seen) {
  return seen;
}

export function logItem(entry) {
  return entry.seat === undefined ? [entry.text] : logLine(entry);
}

/** A board's name as people write it: "baelo_claudia" is Baelo Claudia. */
export function boardName(board) {
  return String(board ?? "").split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

export function fillSummary(node, obs) {
  const order = obs.aureus?.order;
  const toggle = el("button", {type: "button", class: "garum-zoom-toggle", "data-testid": "zoom",
    "aria-pressed": String(zoom), onclick: () => { zoom = !zoom; zoomedOn = null; applyZoom(obs); toggle.setAttribute("aria-pressed", String(zoom)); }},
  "Zoom the board");
  tip(toggle, "Zoomed: every row and column a finger wide, the board scrolling sideways; off: the whole board");
  fill(node,
    el("div", {class: "row"}, toggle,
      el("span", {}, `Board: ${boardName(obs.board)} · round ${obs.round}/${obs.rounds} · revealed aureus: ${obs.aureus.revealed.join(", ") || "—"}`)),
    order ? el("div", {}, `Aureus order (Haruspex): ${order.join(", ")}`) : null);
  applyZoom(obs);
}

/**
 * The zoomed board (the toggle, for bigger cells): 44 px and more, the board scrolling sideways inside its
 * section, brought to the round's cetarium whenever that changes; the page itself never moves.
 */
function applyZoom(obs) {
  document.body.classList.toggle("garum-zoom", zoom);
  const wrap = document.getElementById("board");
  const section = wrap?.parentElement;
  if (!section) return;
  section.classList.add("garum-board-section");
  if (!zoom) { section.scrollLeft = 0; return; }
  if (!obs.cetarium || zoomedOn === obs.cetarium) return;
  zoomedOn = obs.cetarium;
  const scroll = (tries) => {
    const at = cetariumAt(obs, obs.cetarium);
    const root = wrap.querySelector(".board-svg > svg");
    const box = root ? boardBox(root) : null;
    const vb = root?.viewBox?.baseVal;
    if (!at || !box || !vb?.width) { // the board is still on its way from the server
      if (tries > 0) setTimeout(() => scroll(tries - 1), 100);
      return;
    }
    const scale = wrap.clientWidth / vb.width;
    const centre = (box[0] + (at[1] * 4 + 2) * box[2] / 16 - vb.x) * scale;
    section.scrollLeft = Math.max(0, centre - section.clientWidth / 2);
  };
  requestAnimationFrame(() => scroll(20));
}

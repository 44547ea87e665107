// The board on a page: the server's SVG (one renderer shared with `ludus render`), or the game
// module's fallback drawing, plus a clickable overlay laid over the 16 x 16 board box.

import {meta} from "./api.js";
import * as generic from "./generic.js";
import {settle, snapshot} from "./motion.js";
import {svg} from "./util.js";

/**
 * The module that draws and plays game `name` (a promise): the one the game declares (its hooks'
 * `browser`, listed by /api/meta as `board`), loaded only when a page knows its game; generic.js
 * for a game without one. The game's style sheet (`styles`) is added to the page first.
 */
export async function gameModule(name) {
  const game = await meta().then((m) => m.games?.find((g) => g.name === name)).catch(() => null);
  if (game?.styles) await addStyles(name, game.styles);
  return game?.board ? import(game.board) : generic;
}

/** The game's style sheet in the page's head, once (resolved when it has loaded, or failed). */
function addStyles(name, url) {
  if (document.querySelector(`link[data-game-styles="${CSS.escape(name)}"]`)) return Promise.resolve();
  return new Promise((done) => {
    const link = document.createElement("link");
    Object.assign(link, {rel: "stylesheet", href: url, onload: done, onerror: done});
    link.dataset.gameStyles = name;
    document.head.append(link);
  });
}

/** Parse SVG text into an element, or null when it is not SVG. */
export function parseSvg(text) {
  if (!text) return null;
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (!root || root.nodeName.toLowerCase() !== "svg" || doc.querySelector("parsererror")) return null;
  return document.importNode(root, true);
}

/**
 * Put a board into `wrap`: `svgText` from the server if given (or its parseSvg() element), else
 * the module's own drawing.
 * Returns {root, box}: box is where overlays go ([x, y, w, h] in the root's units) or null.
 * The pieces that changed place travel from where they were (motion.js).
 */
export function showBoard(wrap, module, obs, svgText) {
  const before = snapshot(wrap);
  const board = drawInto(wrap, module, obs, svgText);
  settle(wrap, before);
  return board;
}

function drawInto(wrap, module, obs, svgText) {
  const holder = document.createElement("div");
  holder.className = "board-svg";
  wrap.replaceChildren(holder);
  wrap.classList.toggle("board-own", !!module.ownBoard);
  if (module.ownBoard) {
    // the module draws the whole board from the observation, its pieces clickable in place
    const own = module.drawBoard(obs);
    holder.replaceChildren(own);
    return {root: own, box: null, units: [16, 16]};
  }
  let root = svgText instanceof SVGElement ? svgText : parseSvg(svgText); // parsed ahead (a replay's next step)
  if (root) {
    holder.append(root);
    const box = module.boardBox(root);
    if (box || !module.overlays) return {root, box, units: box && module.units ? module.units(root) : [16, 16]};
  }
  root = module.drawBoard(obs);
  holder.replaceChildren(root);
  return {root, box: root instanceof SVGElement ? module.boardBox(root) : null, units: [16, 16]};
}

/** Lay `group` (drawn in the board's units, 16 x 16 unless the module says) over the board, replacing any previous one. */
export function setOverlay(wrap, board, group) {
  wrap.querySelector(".board-overlay")?.remove();
  if (!group || !board?.box || !(board.root instanceof SVGElement)) return null;
  const [x, y, w, h] = board.box;
  const vb = board.root.getAttribute("viewBox") ||
    `0 0 ${parseFloat(board.root.getAttribute("width")) || 100} ${parseFloat(board.root.getAttribute("height")) || 100}`;
  const overlay = svg("svg", {class: "board-overlay", viewBox: vb,
    preserveAspectRatio: board.root.getAttribute("preserveAspectRatio") || "xMidYMid meet"});
  const [uw, uh] = board.units || [16, 16];
  const inner = svg("g", {transform: `translate(${x} ${y}) scale(${w / uw} ${h / uh})`});
  inner.append(group);
  overlay.append(inner);
  wrap.append(overlay);
  return overlay;
}

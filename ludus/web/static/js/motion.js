// Moved pieces travel (FLIP): before a board is redrawn, snapshot() records where each piece is;
// after it, settle() plays each piece that changed place from where it was to where it now is, and
// each new piece in (scaled up from nothing, or from where the page said it comes from: comesFrom).
//
// A piece is any element with data-piece="<what it is>" (a worker's kind, a seat's disc, a tile by
// its place ...) and optionally data-place="<where it stands>" (its space on the board; the piece's
// own name when absent). A piece found at the same place before and after stays put, whatever the
// layout did; the others are paired with the vanished pieces of the same name, nearest first.
// Transforms only, about 300 ms: nothing waits for them (a click lands at once). No motion when the
// person prefers reduced motion, when <html data-motion="off"> or localStorage "ludus:motion" is "off",
// and by default on a page driven by automation (tests, tools) unless "ludus:motion" is "on".

const DURATION = 300;
const STORE = "ludus:motion";
const ORIGIN_MS = 10_000; // how long a comesFrom() hint waits for its piece to be drawn
const origins = new Map(); // piece name -> {rect, at}

function stored() {
  try {
    return localStorage.getItem(STORE);
  } catch {
    return null; // storage refused (a sandboxed frame): the defaults hold
  }
}

/** Whether pieces travel on this page now. */
export function enabled() {
  if (typeof document === "undefined" || typeof Element.prototype.animate !== "function") return false;
  if (typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  const asked = document.documentElement.dataset.motion || stored();
  if (asked === "off") return false;
  if (asked === "on") return true;
  return !navigator.webdriver;
}

const placeOf = (node) => node.dataset.place || node.dataset.piece;

function visible(rect) {
  return rect.width > 0 || rect.height > 0;
}

/** Where every piece under `container` is now: name -> [{place, rect}], or null when nothing will move. */
export function snapshot(container) {
  if (!container || !enabled()) return null;
  const out = new Map();
  for (const node of container.querySelectorAll("[data-piece]")) {
    const rect = node.getBoundingClientRect();
    if (!visible(rect)) continue;
    const name = node.dataset.piece;
    if (!out.has(name)) out.set(name, []);
    out.get(name).push({place: placeOf(node), rect});
  }
  return out;
}

/** Say that piece `name`, about to be drawn, comes from `rect` (a tile leaving the hand). */
export function comesFrom(name, rect) {
  if (rect && visible(rect)) origins.set(name, {rect, at: Date.now()});
}

/**
 * After the redraw of `container` (once the code drawing it has finished, in a microtask): each
 * piece travels from its place in `before` (snapshot()) to its new one. Returns nothing; marks each
 * animated piece data-moved="move" or "enter".
 */
export function settle(container, before) {
  if (!before || !container) return;
  queueMicrotask(() => play(container, before));
}

function play(container, before) {
  if (!container.isConnected || !enabled()) return;
  const byName = new Map();
  for (const node of container.querySelectorAll("[data-piece]")) {
    const name = node.dataset.piece;
    if (!byName.has(name)) byName.set(name, []);
    byName.get(name).push(node);
  }
  const drawnBefore = [...before.values()].some((list) => list.length);
  for (const [name, nodes] of byName) {
    const old = [...(before.get(name) || [])];
    const moved = [];
    for (const node of nodes) { // a piece at the same place as before stays
      const i = old.findIndex((o) => o.place === placeOf(node));
      if (i >= 0) old.splice(i, 1);
      else moved.push(node);
    }
    const hint = origins.get(name);
    origins.delete(name);
    for (const node of moved) {
      const rect = node.getBoundingClientRect();
      if (!visible(rect)) continue;
      const from = nearest(old, rect) || (hint && Date.now() - hint.at < ORIGIN_MS ? hint.rect : null);
      if (from) travel(node, rect, from);
      else if (drawnBefore) enter(node);
    }
  }
}

/** The rect in `rects` nearest to `rect` (removed from the list), or null. */
function nearest(rects, rect) {
  let best = -1;
  let dist = Infinity;
  rects.forEach((o, i) => {
    const d = Math.hypot(centre(o.rect)[0] - centre(rect)[0], centre(o.rect)[1] - centre(rect)[1]);
    if (d < dist) [best, dist] = [i, d];
  });
  return best < 0 ? null : rects.splice(best, 1)[0].rect;
}

const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];

/** Screen pixels per unit of the node's own coordinates ([1, 1] for HTML). */
function unitScale(node) {
  if (!(node instanceof SVGGraphicsElement)) return [1, 1];
  const ctm = node.parentNode?.getScreenCTM?.();
  return ctm && ctm.a && ctm.d ? [ctm.a, ctm.d] : [1, 1];
}

function animate(node, keyframes, kind) {
  if (node instanceof SVGElement) {
    if (node.hasAttribute("transform")) return; // a CSS transform would replace it mid-flight
    node.style.transformBox = "fill-box";
    node.style.transformOrigin = "center";
  } else if (getComputedStyle(node).display === "inline") {
    node.style.display = "inline-block"; // a transform needs a box
  }
  node.dataset.moved = kind;
  const animation = node.animate(keyframes, {duration: DURATION, easing: "ease-out"});
  animation.id = "ludus-motion";
}

function travel(node, rect, from) {
  const [cx, cy] = centre(rect);
  const [fx, fy] = centre(from);
  const scale = Math.min(4, Math.max(0.25, from.width / (rect.width || 1)));
  const [ux, uy] = unitScale(node);
  const dx = (fx - cx) / ux;
  const dy = (fy - cy) / uy;
  if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5 && Math.abs(scale - 1) < 0.02) return;
  animate(node, [{transform: `translate(${dx}px, ${dy}px) scale(${scale})`}, {transform: "none"}], "move");
}

function enter(node) {
  animate(node, [{transform: "scale(0.2)", opacity: 0}, {transform: "none", opacity: 1}], "enter");
}

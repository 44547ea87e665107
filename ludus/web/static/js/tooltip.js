// Tooltips for the pieces of a board: any element (HTML or SVG) carrying data-tip="text" shows
// that text in one bubble when hovered, focused by the keyboard, or pressed for half a second on
// a touch screen. The bubble is role="tooltip" and the element names it with aria-describedby
// while it shows, so a screen reader reads it too. One bubble at a time, never two.
//
// The bubble never stands in the player's way: it goes on a click or tap, when the pointer leaves
// its piece, on any scroll (a keyboard-focused piece keeps it, moved along), when the focus or the
// window's focus moves elsewhere, and on Escape; after a click or a scroll it stays away until the
// pointer has moved on. It is placed at the free spot of the screen nearest its piece that covers no live
// target (an element with data-board-action or data-board-select, its own piece included), and is
// not shown at all when there is no such spot. A redraw of the page places it again, or hides it
// when its piece is gone.

const LIVE = "[data-board-action], [data-board-select]";
const GAP = 6; // px between the bubble and the screen's edge or its piece
const STILL = 10; // px the pointer may move after a click before a tooltip may show again

let bubble = null;
let owner = null;
let byFocus = false; // the bubble shows for the keyboard focus (kept, moved along, on a scroll)
let pressTimer = null;
let stillAt = null; // {x, y} of the pointer at the last click or scroll: no tooltip until it moves on
let pointer = null; // {x, y} of the pointer's last event
let placedAt = null; // where the piece was when its bubble showed: a scroll that moved it hides it

/** Give `node` a tooltip; returns node. An empty text removes it. */
export function tip(node, text) {
  if (!node) return node;
  if (text) node.setAttribute("data-tip", text);
  else node.removeAttribute("data-tip");
  node.removeAttribute("title"); // a native tooltip would show the same text a second time
  return node;
}

function makeBubble() {
  bubble = document.createElement("div");
  bubble.id = "ludus-tooltip";
  bubble.className = "tooltip";
  bubble.setAttribute("role", "tooltip");
  bubble.hidden = true;
  // styled here (script styles are allowed by the pages' CSP): every page gets the same bubble
  Object.assign(bubble.style, {position: "fixed", zIndex: "50", maxWidth: "min(22rem, 92vw)",
    background: "#2b2a33", color: "#fff", padding: ".35rem .55rem", borderRadius: "6px", fontSize: ".9rem",
    lineHeight: "1.3", pointerEvents: "none", boxShadow: "0 2px 8px rgba(0,0,0,.35)"});
  document.body.append(bubble);
}

function textOf(node) {
  const title = node.getAttribute("title"); // set later by a redraw: said in the bubble, not a second tooltip
  if (title) {
    node.removeAttribute("title");
    node.setAttribute("data-tip-more", title);
  }
  const more = node.getAttribute("data-tip-more");
  const base = node.getAttribute("data-tip");
  return more && base && !base.includes(more) ? `${base} (${more})` : base;
}

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The boxes the bubble must not cover: every shown live target, and the piece it explains. */
function obstacles(node) {
  const boxes = [...document.querySelectorAll(LIVE)].map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  boxes.push(node.getBoundingClientRect());
  return boxes;
}

/** The free spot of the screen nearest `node` for a bubble of `width` × `height`, or null. */
export function freeSpot(node, width, height) {
  const box = node.getBoundingClientRect();
  const screenW = document.documentElement.clientWidth;
  const screenH = document.documentElement.clientHeight;
  if (box.bottom < 0 || box.top > screenH || box.right < 0 || box.left > screenW) return null;
  const blocked = obstacles(node);
  const clampX = (x) => Math.max(GAP, Math.min(x, screenW - width - GAP));
  const clampY = (y) => Math.max(GAP, Math.min(y, screenH - height - GAP));
  const centre = clampX(box.left + box.width / 2 - width / 2);
  const xs = new Set([centre, clampX(box.left), clampX(box.right - width), clampX(box.right + GAP),
    clampX(box.left - width - GAP)]);
  for (let x = GAP; x <= screenW - width - GAP; x += 24) xs.add(x);
  const ys = new Set([clampY(box.top - height - GAP), clampY(box.bottom + GAP), clampY(box.top)]);
  for (let y = GAP; y <= screenH - height - GAP; y += 16) ys.add(y);
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  let best = null;
  let bestDistance = Infinity;
  for (const y of ys) {
    for (const x of xs) {
      const distance = Math.hypot(x + width / 2 - cx, (y + height / 2 - cy) * 1.5); // above or below first
      if (distance >= bestDistance) continue;
      const spot = {left: x, top: y, right: x + width, bottom: y + height};
      if (blocked.some((b) => overlaps(spot, b))) continue;
      best = spot;
      bestDistance = distance;
    }
  }
  return best;
}

function place() {
  if (!owner || !bubble) return;
  if (!owner.isConnected) { hide(); return; }
  bubble.style.visibility = "hidden"; // measured where it cannot be seen
  bubble.style.left = "0px";
  bubble.style.top = "0px";
  bubble.hidden = false;
  const spot = freeSpot(owner, bubble.offsetWidth, bubble.offsetHeight);
  if (!spot) { hide(); return; } // nowhere free: no bubble rather than one over a target
  bubble.style.left = `${Math.round(spot.left)}px`;
  bubble.style.top = `${Math.round(spot.top)}px`;
  bubble.style.visibility = "";
}

function show(node, focus = false) {
  const text = textOf(node);
  if (!text) { hide(); return; }
  if (!bubble) makeBubble();
  if (owner && owner !== node) owner.removeAttribute("aria-describedby");
  owner = node;
  byFocus = focus;
  bubble.textContent = text;
  node.setAttribute("aria-describedby", bubble.id);
  const box = node.getBoundingClientRect();
  placedAt = {x: box.left, y: box.top};
  place();
}

export function hide() {
  clearTimeout(pressTimer);
  if (bubble) bubble.hidden = true;
  if (owner) owner.removeAttribute("aria-describedby");
  owner = null;
  byFocus = false;
}

function tipOf(target) {
  return target instanceof Element ? target.closest("[data-tip]") : null;
}

function onPointerMove(e) {
  const moved = !stillAt || Math.hypot(e.clientX - stillAt.x, e.clientY - stillAt.y) > STILL;
  const still = pointer && Math.abs(e.clientX - pointer.x) <= 1 && Math.abs(e.clientY - pointer.y) <= 1;
  pointer = {x: e.clientX, y: e.clientY};
  if (e.pointerType === "touch") {
    if (moved) clearTimeout(pressTimer);
    return;
  }
  const node = tipOf(e.target);
  if (still && node !== owner) { // the page moved under a still pointer (a scroll, a redraw): no new bubble
    if (owner && !byFocus) hide();
    return;
  }
  if (!moved) return; // the same spot since a click or a scroll
  stillAt = null;
  if (node && node !== owner) show(node);
  else if (!node && owner && !byFocus) hide();
}

/** Listen once on the document (every later board redraw is covered). */
export function installTooltips() {
  if (document.body.dataset.tooltips) return;
  document.body.dataset.tooltips = "on";
  document.addEventListener("pointerover", onPointerMove);
  document.addEventListener("pointermove", onPointerMove, {passive: true});
  document.addEventListener("pointerout", (e) => {
    if (e.pointerType !== "touch" && owner && !byFocus && !(e.relatedTarget instanceof Element && owner.contains(e.relatedTarget))) hide();
  });
  document.addEventListener("focusin", (e) => {
    const node = tipOf(e.target);
    if (node && !stillAt) show(node, true); // a click's own focus is no reason to show it again
    else hide();
  });
  document.addEventListener("focusout", (e) => {
    if (byFocus && owner && !(e.relatedTarget instanceof Element && owner.contains(e.relatedTarget))) hide();
  });
  document.addEventListener("pointerdown", (e) => {
    hide();
    stillAt = pointer = {x: e.clientX, y: e.clientY};
    const node = tipOf(e.target);
    if (e.pointerType === "touch" && node) pressTimer = setTimeout(() => show(node), 500);
  }, {capture: true});
  for (const kind of ["pointerup", "pointercancel"]) {
    document.addEventListener(kind, () => clearTimeout(pressTimer), {passive: true});
  }
  document.addEventListener("scroll", () => {
    clearTimeout(pressTimer);
    if (!owner) return;
    const box = owner.getBoundingClientRect();
    const moved = !placedAt || Math.abs(box.left - placedAt.x) > 1 || Math.abs(box.top - placedAt.y) > 1;
    // a scroll that moved the piece hides the bubble; one that ended before it showed (a piece
    // scrolled into view, then hovered) leaves it, checked again
    if (moved && !(byFocus && owner.contains(document.activeElement))) {
      hide();
      stillAt = pointer;
    } else place();
  }, {passive: true, capture: true});
  window.addEventListener("blur", hide);
  window.addEventListener("resize", hide);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hide();
    else stillAt = null; // the keyboard's focus may show tooltips again
  });
  let pending = false;
  new MutationObserver((records) => {
    if (!owner || pending || records.every((r) => r.target === bubble)) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; place(); });
  }).observe(document.body, {childList: true, subtree: true});
}

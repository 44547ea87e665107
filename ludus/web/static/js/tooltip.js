// Tooltips for the pieces of a board: any element (HTML or SVG) carrying data-tip="text" shows
// that text in one bubble when hovered, focused by the keyboard, or pressed for half a second on
// a touch screen. The bubble is role="tooltip" and the element names it with aria-describedby
// while it shows, so a screen reader reads it too. One bubble at a time, never two.

let bubble = null;
let owner = null;
let pressTimer = null;

/** Give `node` a tooltip; returns node. An empty text removes it. */
export function tip(node, text) {
  if (!node) return node;
  if (text) node.setAttribute("data-tip", text);
  else node.removeAttribute("data-tip");
  node.removeAttribute("title"); // a native tooltip would show the same text a second time
  return node;
}

function show(node) {
  const title = node.getAttribute("title"); // set later by a redraw: said in the bubble, not a second tooltip
  if (title) {
    node.removeAttribute("title");
    node.setAttribute("data-tip-more", title);
  }
  const more = node.getAttribute("data-tip-more");
  const base = node.getAttribute("data-tip");
  const text = more && base && !base.includes(more) ? `${base} (${more})` : base;
  if (!text) return;
  if (!bubble) {
    bubble = document.createElement("div");
    bubble.id = "ludus-tooltip";
    bubble.className = "tooltip";
    bubble.setAttribute("role", "tooltip");
    // styled here (script styles are allowed by the pages' CSP): every page gets the same bubble
    Object.assign(bubble.style, {position: "absolute", zIndex: "50", maxWidth: "min(22rem, 92vw)",
      background: "#2b2a33", color: "#fff", padding: ".35rem .55rem", borderRadius: "6px", fontSize: ".9rem",
      lineHeight: "1.3", pointerEvents: "none", boxShadow: "0 2px 8px rgba(0,0,0,.35)"});
    document.body.append(bubble);
  }
  if (owner && owner !== node) owner.removeAttribute("aria-describedby");
  owner = node;
  bubble.textContent = text;
  bubble.hidden = false;
  node.setAttribute("aria-describedby", bubble.id);
  const box = node.getBoundingClientRect();
  const width = Math.min(bubble.offsetWidth, document.documentElement.clientWidth - 8);
  const left = Math.max(4, Math.min(box.left + box.width / 2 - width / 2,
    document.documentElement.clientWidth - width - 4));
  const above = box.top - bubble.offsetHeight - 6;
  const top = above >= 4 ? above : box.bottom + 6; // above the piece, so it never hides what is under the finger
  bubble.style.left = `${Math.round(left + window.scrollX)}px`;
  bubble.style.top = `${Math.round(top + window.scrollY)}px`;
}

export function hide() {
  clearTimeout(pressTimer);
  if (bubble) bubble.hidden = true;
  if (owner) owner.removeAttribute("aria-describedby");
  owner = null;
}

function tipOf(event) {
  return event.target instanceof Element ? event.target.closest("[data-tip]") : null;
}

/** Listen once on the document (every later board redraw is covered). */
export function installTooltips() {
  if (document.body.dataset.tooltips) return;
  document.body.dataset.tooltips = "on";
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const node = tipOf(e);
    if (node) show(node);
    else if (owner && !(e.target instanceof Element && owner.contains(e.target))) hide();
  });
  document.addEventListener("pointerout", (e) => {
    if (e.pointerType !== "touch" && owner && !(e.relatedTarget instanceof Element && owner.contains(e.relatedTarget))) hide();
  });
  document.addEventListener("focusin", (e) => {
    const node = tipOf(e);
    if (node) show(node);
    else hide();
  });
  document.addEventListener("pointerdown", (e) => {
    hide();
    const node = tipOf(e);
    if (e.pointerType === "touch" && node) pressTimer = setTimeout(() => show(node), 500);
  });
  for (const kind of ["pointerup", "pointercancel", "scroll"]) {
    document.addEventListener(kind, () => clearTimeout(pressTimer), {passive: true});
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
}

// Celtae's panels and tooltips, beside celtae.js (which calls decorate() once per drawing):
// each seat's scoring categories A–K so far (the server's view.panels, from the engine's own
// ludus/celtae/scoring.py), the leaders' texts from the data files (served in /api/meta: one
// source for the server's drawing, this board and the rules help), and a tooltip on every
// component of the board (cards, leaders, citadels, stacks, garrison spaces, progress cards).

import {meta} from "/static/js/api.js";
import {installTooltips, tip} from "/static/js/tooltip.js";
import {el} from "/static/js/util.js";

const help = await meta().then((m) => m.games?.find((g) => g.name === "celtae")?.help || {}).catch(() => ({}));

/** Leader name -> [side A text, side B text], from ludus/celtae/data/leaders.json. */
export const LEADERS = help.leaders || {};
const CATEGORIES = help.categories || {};
const COLOURS = help.colours || {O: "orange", P: "pink", U: "purple", T: "teal"};
const ICONS = help.icons || {w: "warrior", t: "trap", f: "fortress"};
const BONUS = help.bonus || {};
/** Solitairix's tile: each side's four quarters ({actions, swap, discards}), from the data files. */
export const SOLO_TILE = help.solo_tile || [];

/** The rondel's steps in words, their strength as a gain or a cost (from the data files). */
export const RONDEL = (() => {
  const strength = help.rondel?.move_strength || [1, 0, -3];
  const steps = (n) => `${n} step${n === 1 ? "" : "s"}`;
  const effect = (n, one = true) => {
    const k = strength[n - 1] ?? 0;
    if (!k) return one ? "is free" : "free";
    return `${one ? (k > 0 ? "gains" : "costs") : (k > 0 ? "+" : "costs ")}${one ? " " : ""}${Math.abs(k)} strength`;
  };
  return {
    strength,
    refresh: help.rondel?.refresh_cost ?? 1,
    step: (n) => `${steps(n)}\n${effect(n, false)}`,
    summary: [1, 2, 3].map((n) => `${steps(n)} ${n === 1 ? effect(n) : effect(n).replace("gains", "gain").replace("costs", "cost").replace("is free", "are free")}`).join(", "),
  };
})();

let categories = null; // the latest view's categories A..K per seat (with "total")
installTooltips();

/** Keep the view's panels for the next drawing; Celtae shows them inside each seat's board. */
export function panels(view) {
  categories = view.panels?.categories || null;
  return null;
}

const cardCode = (node) => (node.getAttribute("aria-label") || "").match(/\(([OPUT][wtf])\)/)?.[1];

function cardTip(code) {
  const colour = COLOURS[code[0]] || code[0];
  const icon = ICONS[code[1]] || code[1];
  return `${colour} ${icon} card: pays for ${colour} citadels when building; its ${icon} icon makes sets for `
    + `strength in battle and pays for a ${icon} garrison space`;
}

function leaderTip(name) {
  const [a, b] = LEADERS[name] || ["", ""];
  return `${name}. Side A: ${a} Side B (heroic, if flipped when 3 progress markers remain): ${b}`;
}

/** Tooltips on the drawn board's components, and the categories A–K in each seat's board. */
export function decorate(root, obs) {
  const each = (selector, text) => root.querySelectorAll(selector).forEach((node) => {
    const value = text(node);
    if (value) tip(node, value);
  });
  each("[data-key^='market-'], [data-key^='hand-'], [data-key='solitairix-card']", (n) => {
    const code = cardCode(n);
    return code ? cardTip(code) : null;
  });
  each("[data-key^='leader-']:not([data-key='leader-flip']):not([data-key='leader-keep'])", (n) => {
    const name = Object.keys(LEADERS).find((l) => `leader-${l.toLowerCase()}` === n.dataset.key);
    return name ? leaderTip(name) : null;
  });
  each(".cb-seat .cb-leader > strong", (n) => {
    const name = n.textContent.split(" · ")[0];
    return LEADERS[name] ? leaderTip(name) : null;
  });
  each("[data-key^='citadel-']", (n) => {
    const [, region, letter] = n.dataset.key.split("-");
    const citadel = obs.citadels?.find((c) => c.region === region && c.colour === COLOURS[letter]);
    const bonus = citadel && BONUS[citadel.bonus] ? ` Its bonus tile (${citadel.bonus}): ${BONUS[citadel.bonus]}.` : "";
    return `${n.getAttribute("aria-label")}: build a disc here by paying cards of its colour (builders make it `
      + `cheaper); once the citadel is complete every disc on it scores 1 point (A).${bonus}`;
  });
  each("[data-key^='roman-']", (n) => `${n.getAttribute("aria-label")}: the top tile shows its points and the `
    + "strength that beats it; defeat it in battle (cards of one icon, soldiers multiply) and keep it: its points (D)");
  each("[data-key^='druid-']", (n) => `${n.getAttribute("aria-label")}: the top tile shows its points and the `
    + "tribe workers it needs; send them to the order to take it: its points (C)");
  each("[data-key^='garrison-'][data-key*='-N-'], [data-key^='garrison-'][data-key*='-S-']", (n) =>
    `${n.getAttribute("aria-label")}: after a battle there, pay a card with this icon to place a garrison cube; `
    + "the most cubes in a region score 1 point each (E), all your cubes placed 1 more (H)");
  each("[data-key^='progress-']", (n) => {
    const card = obs.progress?.[Number(n.dataset.key.slice(9))];
    return card ? `Progress card: ${card.card}. At the end every seat that meets it scores 1 point per marker on it `
      + `(J); it has ${card.marks} of ${card.slots}${obs.solo ? "; solo: unmet with markers costs them" : ""}` : null;
  });
  if (!categories) return;
  root.querySelectorAll("article.cb-seat[data-key^='seat-']").forEach((article) => {
    const s = Number(article.dataset.key.slice(5));
    const cats = categories[s];
    if (!cats) return;
    article.append(el("div", {class: "cb-row cb-cats", "data-testid": `categories-${s}`, role: "group",
      "aria-label": `scoring so far, ${cats.total} points`},
    el("span", {class: "cb-label"}, "Scoring"),
    Object.keys(CATEGORIES).length ? Object.entries(CATEGORIES).map(([k, c]) => tip(el("span",
      {class: "cb-stat cb-cat", "data-category": k, tabindex: 0}, `${k} ${cats[k] ?? 0}`),
    `${k}, ${c.name}: ${c.text}. So far ${cats[k] ?? 0}.`))
      : Object.entries(cats).filter(([k]) => k !== "total").map(([k, v]) => el("span", {class: "cb-stat cb-cat"}, `${k} ${v}`)),
    el("strong", {class: "cb-cat-total"}, `= ${cats.total}`)));
  });
}

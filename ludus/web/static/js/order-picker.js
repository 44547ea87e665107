// An option whose choices are orders of the same few things (e.g. the colours seats take, round the
// table) chosen by clicking the things in order, or dragging one onto another, instead of picking
// one of dozens of listed permutations. It sends the very choice the server lists.

import {el, fill, seatName} from "./util.js";

/** The things an option orders, in the order of its first full-length choice, or null when its
 * choices are not orders ("a,b,c" strings of distinct things, besides one null: "the default order"). */
export function orderedItems(option) {
  const lists = option.choices.filter((c) => c !== null).map((c) => (typeof c === "string" ? c.split(",") : null));
  if (lists.length < 2 || lists.some((l) => !l || l.length < 2 || new Set(l).size !== l.length)) return null;
  const longest = Math.max(...lists.map((l) => l.length));
  const first = lists.find((l) => l.length === longest);
  return [...first, ...new Set(lists.flat().filter((x) => !first.includes(x)))];
}

/**
 * The picker of one option: `valid` the indices of its choices this player count allows, `players`
 * the seats (the i-th thing chosen goes to seat i mod players, round the table). `picked` (kept by
 * the caller across redraws) holds the things clicked so far; the rest follow in the default order.
 * The element's `dataset.value` is the JSON of the choice to send.
 */
export function orderPicker(option, items, valid, players, picked) {
  const box = el("div", {class: "order-picker", id: `opt-${option.name}`, role: "group",
    "aria-labelledby": `opt-${option.name}-label`, "data-testid": `order-${option.name}`});
  const size = Math.max(...valid.filter((i) => option.choices[i] !== null).map((i) => option.choices[i].split(",").length));
  const fallback = option.choices.indexOf(null);
  const draw = () => {
    picked.splice(size);
    const order = picked.length ? [...picked, ...items.filter((x) => !picked.includes(x))].slice(0, size) : null;
    const value = order ? order.join(",") : null;
    const index = option.choices.indexOf(value);
    box.dataset.value = JSON.stringify(index >= 0 ? value : option.choices[fallback >= 0 ? fallback : valid[0]]);
    const chips = items.map((item) => {
      const at = picked.indexOf(item);
      const button = el("button", {type: "button", class: "order-chip", draggable: "true", "aria-pressed": String(at >= 0),
        "data-item": item,
        title: at >= 0 ? `${item}: chosen ${ordinal(at + 1)}; click to take it back` : `choose ${item} next`,
        onclick: () => { toggle(item); draw(); },
        ondragstart: (e) => e.dataTransfer.setData("text/plain", item),
        ondragover: (e) => e.preventDefault(),
        ondrop: (e) => { e.preventDefault(); swap(e.dataTransfer.getData("text/plain"), item); draw(); }},
      el("span", {class: "order-rank", "aria-hidden": "true"}, at >= 0 ? String(at + 1) : ""), item);
      // a thing that names a colour shows it (set through the CSSOM: the pages allow no inline styles)
      if (CSS.supports("color", item)) button.style.setProperty("--chip", item);
      return button;
    });
    fill(box,
      el("div", {class: "order-chips"}, chips),
      el("p", {class: "order-result", "aria-live": "polite"}, describe(order, players, items, size,
        fallback >= 0 ? option.choice_labels[fallback] : "")),
      fallback >= 0 ? el("button", {type: "button", class: "order-reset", disabled: !picked.length,
        "data-testid": `order-${option.name}-reset`, onclick: () => { picked.splice(0); draw(); }}, "Default order") : null);
  };
  const toggle = (item) => {
    const at = picked.indexOf(item);
    if (at >= 0) picked.splice(at, 1);
    else if (picked.length < size) picked.push(item);
  };
  // a thing dropped on another takes its place in the order shown (the whole order becomes chosen)
  const swap = (from, to) => {
    if (!items.includes(from) || from === to) return;
    const order = [...picked, ...items.filter((x) => !picked.includes(x))];
    const a = order.indexOf(from);
    const b = order.indexOf(to);
    [order[a], order[b]] = [order[b], order[a]];
    picked.splice(0, picked.length, ...order.slice(0, size));
  };
  draw();
  return box;
}

function ordinal(n) {
  return ["first", "second", "third", "fourth", "fifth", "sixth"][n - 1] || `number ${n}`;
}

/** The order in words: who gets what ("Seat 1: blue and yellow · Seat 2: green and red"), and what is left. */
function describe(order, players, items, size, defaultWords) {
  if (!order) return `${defaultWords || "The default order"}. Click them in the order the seats take them, or drag one onto another.`;
  const seats = Array.from({length: players}, (_, s) => order.filter((_, i) => i % players === s));
  const left = items.filter((x) => !order.includes(x));
  return [seats.map((got, s) => `${seatName(s)}: ${got.join(" and ")}`).join(" · "),
    left.length ? ` · not chosen: ${left.join(", ")}` : ""].join("") + (order.length === size ? "" : " …");
}

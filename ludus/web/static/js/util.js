// Small DOM helpers shared by the pages.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: el("button", {class: "x", onclick: f}, "text", child). */
export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as el(). */
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace every child of node. */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A coloured chip with its letter, so that colour is never the only cue. */
export function chip(letter, title = "") {
  return el("span", {class: `chip sp-${letter}`, title: title || null}, letter);
}

/** Show a message in a message box (kind "error" or "info"); empty text hides it. */
export function say(node, text, kind = "error") {
  node.className = `message ${kind}`;
  node.textContent = text || "";
}

/** Copy text to the clipboard, falling back to selecting it for the user. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) { input.focus(); input.select(); }
    return false;
  }
}

/** Offer text (or a JSON value) as a file download. */
export function download(name, value) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 1) + "\n";
  const blob = new Blob([text], {type: "application/json"});
  const url = URL.createObjectURL(blob);
  const a = el("a", {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function seatName(seat) {
  return `Seat ${seat + 1}`;
}

// A short rules summary of each game, one click away on every page: the game's own `rules` file and
// the help its board module draws from the game's data.

import {meta} from "./api.js";
import {gameModule} from "./board.js";
import {el} from "./util.js";


/** A dialog with a game's rules summary; returns the button that opens it. */
export function rulesButton(gameName, title = gameName) {
  const dialog = el("dialog", {"aria-label": `Rules of ${title}`});
  const body = el("div");
  const summary = el("div", {class: "rules-summary"}, el("h2", {}, title), el("p", {}, "No summary yet."));
  body.append(summary);
  const more = el("div", {class: "rules-more", "data-testid": "rules-more"});
  body.append(more);
  const close = el("button", {class: "primary", onclick: () => dialog.close()}, "Close");
  dialog.append(el("p", {class: "row dialog-close"}, close), body); // Esc closes too
  document.body.append(dialog);
  const open = () => {
    dialog.showModal();
    if (!more.childElementCount) fillMore(gameName, summary, more);
  };
  return el("button", {type: "button", "data-testid": `rules-${gameName}`, onclick: open}, `Rules: ${title}`);
}

/**
 * The game's own summary (its `rules` file, an HTML fragment shipped in the game's package and served
 * by this server: never text a client sent) and the parts of the help that come from the game's data
 * on the server (/api/meta's `help`), drawn by the game's board module (`rulesHelp`).
 */
async function fillMore(gameName, summary, node) {
  let game = null;
  try {
    game = (await meta()).games?.find((g) => g.name === gameName) || null;
  } catch { /* the placeholder stays */ }
  if (!game) return;
  if (game.title) summary.querySelector("h2").textContent = game.title;
  if (game.rules) {
    const text = await fetch(game.rules).then((r) => (r.ok ? r.text() : null)).catch(() => null);
    if (text) summary.innerHTML = text;
  }
  const module = await gameModule(gameName);
  if (game.help && !node.childElementCount && typeof module.rulesHelp === "function") node.append(...module.rulesHelp(game.help));
}

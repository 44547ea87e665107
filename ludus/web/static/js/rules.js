// A short rules summary of each game, one click away on every page.

import {el} from "./util.js";

const RULES = {
  garum: `
    <h2>Garum in short</h2>
    <p><strong>Goal:</strong> score the most points from influence lines controlled by your workers,
    and from bonus spaces.</p>
    <p><strong>Round:</strong> an aureus names the round's cetarium (brine tank; in the Emperor variant
    the first player names it, in Haruspex the order is known from the start). Each colour in turn:</p>
    <ol>
      <li><strong>Place a tile</strong> from your hand in a free quarter of that cetarium
        (you may turn it first when rotation is on).</li>
      <li><strong>Optionally place a worker</strong> — a vilicus (5 each) or your dominus (1) — on a fish row
        (<code>h1</code>…) or column (<code>v1</code>…) crossing that cetarium. One worker per line; no worker
        in an area whose other cetaria were all full.</li>
      <li><strong>Draw</strong> a tile (automatic).</li>
    </ol>
    <p><strong>Bonuses:</strong> cover a species bonus with that species: 2 points; cover a joker (★) with any fish: 1 point.</p>
    <p><strong>End:</strong> when every cetarium is full, each worker scores its line by the number of fish of its
    colour's species on it (Troia: ≤4 → −1/−2, 5 → 1/2, 6 → 2/4, 7 → 4/8, 8 → 7/14, 9+ → 11/22 for vilicus/dominus).
    Ties: fewer vilicus on the board wins.</p>
    <p><strong>Players:</strong> 2 players play two colours each; with 3 players a ghost colour is placed
    by the first player and scores nothing.</p>
    <p><strong>Species:</strong> B blue tuna · G green mackerel · Y yellow mollusc · R red shellfish.</p>
    <p><strong>Here:</strong> pick a tile in your hand (keys <kbd>1</kbd>–<kbd>4</kbd>), turn it
    (<kbd>R</kbd>), then click a highlighted quarter of the cetarium; <kbd>Esc</kbd> cancels.
    For a worker choose vilicus or dominus, then click a highlighted line, or pass.</p>`,
  celtae: `
    <h2>Celtae in short</h2>
    <p><strong>Goal:</strong> the most points from citadels, bonus tiles, druids, Roman armies, garrisons,
    your player board, progress cards and your leader.</p>
    <p><strong>Turn:</strong> move the action marker 1–3 spaces clockwise (1: gain a strength point; 3: spend 3),
    optionally swap one of your 3 active workers with one on the chosen action space (spend 1 strength first
    to refresh that space from the centre), then perform the action in that region:</p>
    <ul>
      <li><strong>Farm</strong>: take the leftmost market card free, more cards by your farmers.</li>
      <li><strong>Build</strong>: discard cards of a citadel's colour (builders make it cheaper) to build a disc and take its bonus.</li>
      <li><strong>Battle</strong>: discard cards with the same icon for strength (soldiers multiply), defeat the top
        Roman army, then garrison a cube by discarding a matching card.</li>
      <li><strong>Recruit</strong>: move active workers into your tribe (nobles allow more); send tribe workers to
        the Druid Order for a druid.</li>
    </ul>
    <p><strong>Progress:</strong> each time the marker crosses the river a progress marker goes onto a progress card;
    when the last one is placed the round finishes and everyone takes a final double turn.</p>
    <p><strong>Solo (Solitairix):</strong> you alternate with a card-driven opponent who hinders you; beat the
    difficulty's target score.</p>
    <p><strong>Here:</strong> every decision is one move in the list (or on the board); colours carry letters
    (O orange, P pink, U purple, T teal).</p>`,
};

/** A dialog with a game's rules summary; returns the button that opens it. */
export function rulesButton(gameName) {
  const dialog = el("dialog", {"aria-label": `Rules of ${gameName}`});
  const body = el("div");
  if (RULES[gameName]) body.innerHTML = RULES[gameName]; // fixed text of this file, never from the network
  else body.append(el("h2", {}, gameName), el("p", {}, "No summary yet."));
  const close = el("button", {class: "primary", onclick: () => dialog.close()}, "Close");
  dialog.append(el("p", {class: "row dialog-close"}, close), body); // Esc closes too
  document.body.append(dialog);
  return el("button", {type: "button", "data-testid": `rules-${gameName}`, onclick: () => dialog.showModal()},
    `Rules: ${gameName}`);
}

export const RULE_GAMES = Object.keys(RULES);

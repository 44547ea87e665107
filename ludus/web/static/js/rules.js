// A short rules summary of each game, one click away on every page.

import {meta} from "./api.js";
import {chip, el} from "./util.js";

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
    colour's species on it, by the board's chart (below; a dominus scores double).
    Ties: fewer vilicus on the board wins.</p>
    <p><strong>Players:</strong> 2 players play two colours each; with 3 players a ghost colour is placed
    by the first player and scores nothing.</p>
    <p><strong>Species:</strong> B blue tuna · G green mackerel · Y yellow mollusc · R red shellfish.</p>
    <p><strong>Here:</strong> pick a tile in your hand (keys <kbd>1</kbd>–<kbd>4</kbd>), turn it
    (<kbd>R</kbd>), then click a highlighted quarter of the cetarium; <kbd>Esc</kbd> cancels.
    For a worker choose vilicus or dominus, then click a highlighted line, or pass. The panel
    <em>If the game ended now</em> scores every worker's line as it stands; hover, focus or press a piece
    for a while to read what it is. On a phone, <em>Zoom the board</em> makes every row and column a finger wide.</p>`,
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
    <p><strong>Here:</strong> click the pieces on the board (the list of moves stays as a fallback); colours
    carry letters (O orange, P pink, U purple, T teal). Hover, focus or press a piece for a while to read what
    it is; each seat's board shows its scoring categories A–K so far.</p>`,
};

/** A dialog with a game's rules summary; returns the button that opens it. */
export function rulesButton(gameName) {
  const dialog = el("dialog", {"aria-label": `Rules of ${gameName}`});
  const body = el("div");
  if (RULES[gameName]) body.innerHTML = RULES[gameName]; // fixed text of this file, never from the network
  else body.append(el("h2", {}, gameName), el("p", {}, "No summary yet."));
  const more = el("div", {class: "rules-more", "data-testid": "rules-more"});
  body.append(more);
  const close = el("button", {class: "primary", onclick: () => dialog.close()}, "Close");
  dialog.append(el("p", {class: "row dialog-close"}, close), body); // Esc closes too
  document.body.append(dialog);
  const open = () => {
    dialog.showModal();
    if (!more.childElementCount) fillMore(gameName, more);
  };
  return el("button", {type: "button", "data-testid": `rules-${gameName}`, onclick: open}, `Rules: ${gameName}`);
}

/** The parts of the help that come from the game's data on the server (/api/meta): one source. */
async function fillMore(gameName, node) {
  let help = null;
  try {
    help = (await meta()).games?.find((g) => g.name === gameName)?.help || null;
  } catch { /* the summary above still stands */ }
  if (!help || node.childElementCount) return;
  if (gameName === "garum") node.append(...garumHelp(help));
  if (gameName === "celtae") node.append(...celtaeHelp(help));
}

function garumHelp(help) {
  const name = (b) => b.replace("_", " ").replace(/\b\w/g, (c) => c.toUpperCase());
  return [el("h3", {}, "Scoring chart of a worker's line"),
    ...Object.entries(help.boards || {}).map(([board, b]) => {
      const rows = b.chart;
      const last = rows.length - 1;
      const head = rows.map((r, i) => (i === 0 ? `≤ ${r[0]}` : i === last ? `${r[0]}+` : String(r[0])));
      return el("div", {class: "table-scroll"}, el("table", {class: "rules-chart", "data-board": board},
        el("caption", {}, `${name(board)}: ${b.rounds} rounds, hand of ${b.hand_size}; bonus spaces ${b.species_bonus} `
          + `(species), ${b.joker_bonus} (joker)`),
        el("thead", {}, el("tr", {}, el("th", {}, "fish on the line"), head.map((h) => el("th", {class: "num"}, h)))),
        el("tbody", {},
          el("tr", {}, el("th", {}, "vilicus"), rows.map((r) => el("td", {class: "num"}, r[1]))),
          el("tr", {}, el("th", {}, "dominus"), rows.map((r) => el("td", {class: "num"}, r[2]))))));
    }),
    el("p", {}, "Fish: ", Object.entries(help.species || {}).flatMap(([k, v]) => [chip(k), ` ${v} `]))];
}

function celtaeHelp(help) {
  const out = [el("h3", {}, "Scoring categories")];
  out.push(el("dl", {class: "rules-categories"}, Object.entries(help.categories || {}).flatMap(([k, c]) =>
    [el("dt", {}, `${k} · ${c.name}`), el("dd", {}, c.text)])));
  out.push(el("h3", {}, "Cards"), el("p", {}, "Each card has a colour and an icon: ",
    Object.entries(help.colours || {}).flatMap(([k, v]) => [chip(k), ` ${v} `]), "· icons ",
    Object.entries(help.icons || {}).map(([k, v]) => el("span", {}, el("code", {}, k), ` ${v} `)),
    "(a card is written colour + icon: Ow is an orange warrior). Build with cards of the citadel's colour; fight ",
    "with cards of one icon; a garrison space takes a card with its icon."));
  out.push(el("h3", {}, "Bonus tiles"), el("ul", {class: "rules-bonus"}, Object.entries(help.bonus || {}).map(([k, text]) =>
    el("li", {}, el("strong", {}, k), ` — ${text}`))));
  out.push(el("h3", {}, "Leaders"), el("ul", {class: "rules-leaders"}, Object.entries(help.leaders || {}).map(([n, [a, b]]) =>
    el("li", {"data-leader": n}, el("strong", {}, n), ` — A: ${a} B: ${b}`))));
  return out;
}

export const RULE_GAMES = Object.keys(RULES);

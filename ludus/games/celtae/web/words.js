// Celtae's words: the names of its pieces, a plain sentence for each logged action, the rules
// dialog's part drawn from the game's data. Read by board.js (the board and the log).

import {chip, el} from "/static/js/util.js";

// Final Scoring in the rulebook, letter by letter.
export const CATEGORIES = {
  A: "A citadels", B: "B bonus tiles", C: "C druid tiles", D: "D Roman armies", E: "E garrison majorities",
  F: "F tribe spaces", G: "G empty disc spaces", H: "H all cubes placed", I: "I strength + cards", J: "J progress",
  K: "K leader",
};
export const COLOURS = {O: "orange", P: "pink", U: "purple", T: "teal"};
export const COLOUR_LETTER = {orange: "O", pink: "P", purple: "U", teal: "T"};
export const ICONS = {w: "warrior", t: "trap", f: "fortress"};
export const ICON_LETTER = {warrior: "w", trap: "t", fortress: "f"};
export const WORKERS = {F: "farmer", B: "builder", S: "soldier", N: "noble", D: "druid"};
export const REGION = {N: "north", S: "south"};
export const CORNERS = ["NE", "SE", "SW", "NW"];
export const CUBES = 4; // garrison cubes per seat
// the marker goes clockwise round the areas: NW -> NE along the north, down the east (Battle), ...
export const AREAS = [
  {title: "Farm / Build · North", acts: ["farm N", "build N"], arrow: "→"},
  {title: "Battle", acts: ["battle N", "battle S"], arrow: "↓"},
  {title: "Farm / Build · South", acts: ["farm S", "build S"], arrow: "←"},
  {title: "Recruit", acts: ["recruit N", "recruit S"], arrow: "↑"},
];
// what "done" means in each step, by the engine's phase text (a choice worded, never "pass")
export const DONE = [
  [/^refresh/, "Keep the area as it is"], [/^swap/, "Swap no worker"], [/^spend a bonus token/, "No extra worker"],
  [/^take market/, "Buy no more cards"], [/^recruit a worker with/, "Recruit no worker"], [/^draw market/, "Draw no more cards"],
  [/^discard cards/, "Discard no more cards"], [/^fight/, "Do not fight"], [/^place a garrison/, "Place no garrison cube"],
  [/^recruit workers/, "Recruit no more"], [/^send tribe/, "Do not take the druid tile"], [/^pay cards for a druid/, "Buy no druid worker"],
];

export const FLIP = {undecided: "side B? not decided yet", decided: "side B? decided (secret until all decide)",
  flip: "flips to side B", keep: "keeps side A"};
export const seatNo = (s) => `Seat ${s + 1}`;
export const cardName = (c) => `${COLOURS[c[0]] || c[0]} ${ICONS[c[1]] || c[1]}`;
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
/** A noun with its indefinite article: every word of the game that starts with a vowel letter sounds one. */
export const an = (noun) => `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"];
export const ordinal = (n) => ORDINALS[n - 1] || `number ${n}`;

/** The rondel's action area where an action ("farm N", "battle S" ...) is performed. */
export function areaOf(action) {
  const [verb, R] = action.split(" ");
  if (verb === "battle") return 1;
  if (verb === "recruit") return 3;
  return R === "N" ? 0 : 2;
}

export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

// -- the log's sentences -----------------------------------------------------------------------
// (the server words each action from the state it was played in; these are the replay viewer's,
// from the notation alone)
const SENTENCES = {
  leader: (x) => `chose ${cap(x)} as leader`,
  discard: (x) => `discarded ${an(cardName(x))}`,
  move: (x) => `moved the marker ${plural(Number(x), "step")}`,
  anywhere: () => "spent a token to act anywhere",
  farm: (x) => `chose to farm in the ${REGION[x]}`,
  build: (x) => `chose to build in the ${REGION[x]}`,
  battle: (x) => `chose to battle in the ${REGION[x]}`,
  recruit: (x) => `chose to recruit in the ${REGION[x]}`,
  refresh: () => "refreshed the action area from the centre",
  swap: (x, y) => `swapped their ${WORKERS[x]} for the area's ${ordinal(Number(y))} worker`,
  extra: () => "spent a token as an extra worker",
  take: (x, y, r) => `took the ${ordinal(Number(x))} market card${r ? ` in the ${REGION[r]}` : ""}`,
  citadel: (x, y, r) => `chose the ${COLOURS[x]} citadel${r ? ` in the ${REGION[r]}` : ""}`,
  pay: (x) => `paid ${an(cardName(x))}`,
  fight: (x, y, r) => `fought the Roman army${r ? ` in the ${REGION[r]}` : ""}`,
  garrison: (x) => `placed a garrison cube, paying ${an(cardName(x))}`,
  enlist: (x) => `recruited ${an(WORKERS[x])} into the tribe`,
  druid: (x) => `took a druid tile${x ? ` (${an(WORKERS[x])} as the wildcard)` : ""}`,
  centre: (x) => `took the ${ordinal(Number(x))} worker of the centre`,
  release: (x) => `released ${an(WORKERS[x])}`,
  progress: (x) => `placed a progress marker on the ${ordinal(Number(x))} progress card`,
  flip: () => "flipped the leader to side B",
  keep: () => "kept the leader on side A",
  decided: () => "decided about the leader (secret until all have decided)",
  done: () => "went on without the optional choice",
};

/** One plain sentence for a logged action; the notation stays in the entry for the curious. */
export function sentence(action, region = null) {
  const [verb, x, y] = action.split(" ");
  const say = SENTENCES[verb];
  return say ? say(x, y, region) : action;
}

/** The rules dialog's part drawn from the game's data (/api/meta `help`): categories, cards, bonus tiles, leaders. */
export function rulesHelp(help) {
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

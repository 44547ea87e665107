// Celtae's prompts: what the seat is asked, in a sentence, and the labels of the buttons that have no
// piece on the board (a choice worded as what it does, never "pass").

import {RONDEL} from "./panels.js";
import {DONE, ICONS, WORKERS} from "./words.js";

export function prompt(obs, sel, bought) {
  if (sel?.key?.startsWith("swap-")) return `Swap your ${WORKERS[sel.key.slice(5)]}: now click the worker to take from the highlighted area.`;
  if (sel?.key === "druid") return "Which of your tribe's workers goes as the druid tile's wildcard? Click it in your tribe.";
  if (sel?.key?.startsWith("garrison-")) return `Pay which ${ICONS[sel.key.slice(9)]} card for the garrison? Click it in your hand.`;
  if (obs.pending?.kind === "leader flip") return "Flip your leader to side B, or keep side A (on your leader card).";
  if (obs.pending?.kind === "progress") return "Place a progress marker: click a progress card.";
  const hints = [
    [/^choose a leader/, "Choose your leader: click a leader card."],
    [/^discard a set-up/, "Discard a card: click it in your hand."],
    [/^move the action/, `Move the marker: click a highlighted corner, or an action beside one to go straight there (${RONDEL.summary}).`],
    [/^choose an action/, "Choose an action, or click straight away what it takes: a market card to farm, a citadel to build, a card of your hand for battle, your worker to recruit."],
    [/^refresh/, "Refresh the action area from the centre, or keep it."],
    [/^swap/, "Swap one of your active workers: click your worker first, then a worker in the area."],
    [/^spend a bonus token/, "Spend a token as an extra worker, or not."],
    [/^take market/, bought ? "Buy more market cards: click them in the market." : "Buy market cards with your farmers: click them in the market."],
    [/^choose a citadel/, "Choose the citadel to build on."],
    [/^pay cards of/, "Pay a card of the citadel's colour: click it in your hand."],
    [/^recruit a worker with/, "Recruit a worker with the bonus: click an active worker."],
    [/^draw market/, "Draw market cards with the bonus: click them."],
    [/^discard cards of one icon/, "Discard cards of one icon for strength: click them in your hand."],
    [/^fight/, "Fight the Roman army: click its stack."],
    [/^place a garrison/, "Place a garrison cube: click a card in your hand or a free garrison space."],
    [/^recruit workers/, "Recruit workers: click your active workers."],
    [/^send tribe/, "Take the druid tile: click the druid stack."],
    [/^pay cards for a druid/, "Pay cards for the druid worker: click them in your hand."],
    [/^take a worker from the centre/, "Take a worker from the centre: click it."],
    [/^release/, "Release workers down to 8: click them in your tribe."],
  ];
  const text = obs.phase || "";
  return hints.find(([re]) => re.test(text))?.[1] || `Your turn: ${text}.`;
}

const VERB = (obs) => (obs.action || "").split(" ")[0];

/** The prompt while the optional steps wait beside it: the move's own choice, live on the board. */
export function mainPrompt(obs, after) {
  const where = obs.action ? ` in the ${obs.action.endsWith("N") ? "north" : "south"}` : "";
  if (after.finish) {
    return {farm: `Farm${where}: take the free card (first in the market), or first use an option below.`,
      battle: `Battle${where}: nothing to fight with now; go to battle, or first use an option below.`}[VERB(obs)]
      || "Go on, or first use an option below.";
  }
  return {farm: `Farm${where}: click a market card to buy with your farmers (you also get the first, free), or take only the free card.`,
    build: `Build${where}: click the citadel to build on.`,
    battle: `Battle${where}: click cards of one icon in your hand to discard for strength, or the Roman army to fight.`,
    recruit: `Recruit${where}: click your active workers to recruit them.`}[VERB(obs)] || "Make your move on the board.";
}

/** "done" as the move itself (past the optional steps), named after the area's action. */
export function mainDoneLabel(obs) {
  return {farm: "Take only the free card", build: "Build nothing", battle: "Discard no card", recruit: "Recruit no more"}[VERB(obs)] || "Done";
}

/** The request that passes over the optional steps and ends the turn by itself. */
export function finishLabel(obs) {
  return {farm: "Take the free card", battle: "Go to battle", build: "Build", recruit: "Recruit"}[VERB(obs)] || "Go on";
}

export function doneLabel(obs, bought) {
  if (/^take market/.test(obs.phase || "")) return bought ? "Buy no more cards" : "Buy no card (keep only the free one)";
  return DONE.find(([re]) => re.test(obs.phase || ""))?.[1] || "Done";
}

/** The side control that lets a repeated choice go on (buy, recruit, discard more than one). */
export function severalLabel(verb) {
  return {take: "Buy several cards", enlist: "Recruit several workers", discard: "Discard several cards"}[verb] || "Several";
}

/** The prompt of a repeated choice made one at a time. */
export function severalPrompt(verb) {
  return {take: "Buy cards one by one: click each market card, then stop when you are done.",
    enlist: "Recruit workers one by one: click each of your active workers, then stop when you are done.",
    discard: "Discard cards of one icon one by one: click each in your hand, then stop when you are done."}[verb] || "";
}

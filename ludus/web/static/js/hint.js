// The Hint button of the game page: asks GET /api/games/{id}/hint for the seat to move and marks
// the hinted moves on the board, with the value and the reason beside it.
//
// Each hint is listed as one plain sentence (what the move does and why) with its value in words
// ("you'd finish ~3 points behind the leader"); the step-by-step reason folds out under "Details".
// Moves that lead to the same position come as one hint (its `same`): all of them are marked.
//
// The button shows only while this seat has legal moves and the game allows hints (its creator
// may say options.hints = false). A hinted move is marked where the page lets it be clicked: the
// element carrying data-board-action="<notation>", else the first step of a multi-step choice
// (data-board-select), else what the game's board module names (its hintTargets). Marks follow the board
// as it is redrawn, and go when the game moves on. 429 (too many hints) waits out Retry-After; 403 says why.

import {el, fill} from "./util.js";

const MARK = "hint-mark";
let style = null;

function loadStyle() {
  if (style) return;
  style = el("link", {rel: "stylesheet", href: "/static/css/hint.css"});
  document.head.append(style);
}

/** Whether the select key of a first step leads to `action` (the key names the verb, then its first argument). */
export function selectLeadsTo(key, action) {
  const [verb, rest] = key.split("-");
  const words = action.split(" ");
  if (words[0] !== verb) return false;
  return !rest || words.slice(1).some((w) => w === rest || w.endsWith(rest));
}

/** The clickable elements of the page that play `action` or begin it. */
export function targetsOf(action, root = document, gameTargets = null) {
  const exact = [...root.querySelectorAll("[data-board-action]")].filter((e) => e.getAttribute("data-board-action") === action);
  if (exact.length) return exact;
  const first = [...root.querySelectorAll("[data-board-select]")]
    .filter((e) => selectLeadsTo(e.getAttribute("data-board-select"), action));
  if (first.length) return first;
  return typeof gameTargets === "function" ? gameTargets(action, root) : [];
}

/** The value in words: the server's value_text, else the margin said plainly (an older server). */
export function valueWords(h) {
  if (h.value_text) return h.value_text;
  const v = Math.round(h.value);
  if (v === 0) return "you'd finish about level with the leader";
  return `you'd finish ~${Math.abs(v)} point${Math.abs(v) === 1 ? "" : "s"} ${v > 0 ? "ahead of your nearest rival" : "behind the leader"}`;
}

const capital = (text) => text ? text[0].toUpperCase() + text.slice(1) : text;

/**
 * Wire the Hint button: `page` is the game page's state (page.view), `token()` the seat's token,
 * `button` the Hint button and `box` where the hints are listed.
 */
export function initHints({page, gameId, token, button, box}) {
  let answer = null; // the last hints, for answer.version
  let waitUntil = 0;
  let timer = null;
  let asking = false;

  const allowed = () => {
    const v = page.view;
    return !!v && !v.terminal && v.seat !== null && v.legal_actions?.length > 0 && v.options?.hints !== false;
  };

  function clearMarks() {
    for (const e of document.querySelectorAll(`.${MARK}`)) {
      e.classList.remove(MARK);
      e.removeAttribute("data-hint-rank");
    }
  }

  function mark() {
    clearMarks();
    if (!answer || !page.view || answer.version !== page.view.version) return;
    answer.hints.forEach((h, i) => {
      const targets = [h.action, ...(h.same || [])].flatMap((a) => targetsOf(a, document, page.module?.hintTargets));
      for (const e of targets) {
        if (!e.classList.contains(MARK)) {
          e.classList.add(MARK);
          e.setAttribute("data-hint-rank", String(i + 1));
        }
      }
    });
    document.body.dataset.hintMarks = String(document.querySelectorAll(`.${MARK}`).length);
  }

  function show() {
    if (!answer || answer.version !== page.view?.version) {
      fill(box);
      box.hidden = true;
      return;
    }
    box.hidden = false;
    fill(box, el("h2", {}, "Hints"),
      el("ol", {class: "hint-list", "data-testid": "hint-list"}, answer.hints.map((h, i) => el("li", {"data-hint-action": h.action},
        el("span", {class: "hint-rank", "aria-hidden": "true"}, String(i + 1)),
        el("span", {class: "hint-sentence"}, h.sentence || h.why,
          targetsOf(h.action, document, page.module?.hintTargets).length ? null
            : el("span", {class: "hint"}, ` (in the list of moves: ${[h.action, ...(h.same || [])].join(" or ")})`)),
        el("span", {class: "hint-value"}, `${capital(valueWords(h))}.`),
        el("details", {class: "hint-details"}, el("summary", {}, "Details"),
          el("span", {class: "hint-why"}, h.why))))),
      el("p", {class: "hint"}, "Each value is the bot's estimate of where you'd finish if you play the move, then play well."));
  }

  function say(text) {
    box.hidden = false;
    fill(box, el("p", {class: "hint-note", "data-testid": "hint-note"}, text));
  }

  function update() {
    const ok = allowed();
    button.hidden = !ok;
    const waiting = Date.now() < waitUntil;
    button.disabled = asking || waiting;
    if (answer && answer.version !== page.view?.version) {
      answer = null;
      clearMarks();
      show();
    }
  }

  async function ask() {
    if (!allowed() || asking) return;
    asking = true;
    update();
    button.textContent = "Thinking…";
    const version = page.view.version;
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/hint?n=3`,
        {headers: {Accept: "application/json", ...(token() ? {Authorization: `Bearer ${token()}`} : {})}}); // else: the session's seat
      const body = await response.json().catch(() => ({}));
      if (response.status === 429) {
        const seconds = Number(response.headers.get("Retry-After")) || 30;
        waitUntil = Date.now() + seconds * 1000;
        clearTimeout(timer);
        timer = setTimeout(update, seconds * 1000 + 50);
        say(`Too many hints for now: ask again in ${seconds} s.`);
      } else if (response.status === 403) {
        say(`No hint: ${body.detail || "not allowed now"}.`);
      } else if (!response.ok) {
        say(`No hint: ${body.detail || `the server answered ${response.status}`}.`);
      } else if (body.version === page.view?.version && version === body.version) {
        answer = body;
        show();
        mark();
      }
    } catch (exc) {
      say(`No hint: cannot reach the server (${exc.message}).`);
    } finally {
      asking = false;
      button.textContent = "Hint";
      update();
    }
  }

  loadStyle();
  button.addEventListener("click", ask);
  // follow the page without hooks of its own: each view sets <body data-version>, each redraw
  // replaces the board's or the controls' children
  new MutationObserver(update).observe(document.body, {attributes: true, attributeFilter: ["data-version", "data-my-turn"]});
  let pending = false;
  const remark = () => {
    if (pending || !answer) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; mark(); });
  };
  for (const id of ["board", "controls", "hands"]) {
    const node = document.getElementById(id);
    if (node) new MutationObserver(remark).observe(node, {childList: true, subtree: true});
  }
  update();
  return {update, ask};
}

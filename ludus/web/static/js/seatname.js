// "Your name" on the game page: a seat holder (one who came by an invite link too) gives or changes
// the display name others see beside the seat and in the log (POST /api/games/{id}/name).

import {api} from "./api.js";
import {say} from "./util.js";

const MAX_NAME = 32; // the server's schemas.MAX_NAME_LENGTH

/** Wire the form: shown to a seat holder only, filled with the seat's current name. */
export function initSeatName({page, gameId, token, form}) {
  const input = form.querySelector("input");
  const note = form.querySelector(".seat-name-note");
  let shownFor = null; // the seat whose name the field holds (redrawn views do not overwrite typing)

  function update() {
    const view = page.view;
    // an account's seat shows the account's name: nothing to give
    form.hidden = !view || view.seat === null || !token() || !!view.seats?.find((s) => s.seat === view.seat)?.account;
    if (form.hidden || shownFor === view.seat) return;
    shownFor = view.seat;
    input.value = view.seats?.find((s) => s.seat === view.seat)?.name || "";
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (name.length > MAX_NAME || /[\p{C}\u2028\u2029]/u.test(name)) {
      say(note, `A name has at most ${MAX_NAME} characters and no control characters.`);
      return;
    }
    try {
      const named = await api("POST", `/api/games/${encodeURIComponent(gameId)}/name`, {token: token(), body: {name}});
      say(note, named.name ? `Others now see you as ${named.name}.` : "Your name was removed.", "info");
    } catch (exc) {
      say(note, `The name was not kept: ${exc.message}`);
    }
  });
  input.maxLength = MAX_NAME;
  new MutationObserver(update).observe(document.body, {attributes: true, attributeFilter: ["data-version", "data-seat"]});
  update();
}

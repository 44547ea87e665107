// Resetting a password, /reset: without a token, ask for a link by e-mail (the server answers alike for
// any name); with one (/reset#token=..., from the e-mail or the operator's `ludus accounts reset`),
// choose the new password, which signs you in. The token leaves the address bar at once.

import {api} from "./api.js";
import {say} from "./util.js";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.hash.slice(1)).get("token");
if (token) history.replaceState(history.state, "", location.pathname);

async function ask(event) {
  event.preventDefault();
  try {
    const answer = await api("POST", "/api/password-reset", {body: {name: $("reset-name").value.trim()}});
    say($("message"), answer.mail ? "If that account has an e-mail address, a reset link is on its way to it."
      : "This server sends no e-mail: ask its operator for a reset link (ludus accounts reset NAME).", "info");
  } catch (exc) {
    say($("message"), `Not sent: ${exc.message}`);
  }
}

async function setPassword(event) {
  event.preventDefault();
  try {
    const me = await api("POST", "/api/password-reset/confirm", {body: {token, password: $("reset-password").value}});
    say($("message"), `Your new password is set: signed in as ${me.name}.`, "info");
    location.assign("/me");
  } catch (exc) {
    say($("message"), `The password was not set: ${exc.message}`);
  }
}

$(token ? "set-form" : "ask-form").hidden = false;
$("ask-form").addEventListener("submit", ask);
$("set-form").addEventListener("submit", setPassword);
document.body.dataset.ready = "true";

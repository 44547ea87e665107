// The sign-in page, /signin: one form, two ways out: "Sign in" (name and password) or "Create account"
// (the e-mail address too, if given). Then this browser's guest seats are claimed for the account and
// the page goes on to ?next= (a path of this site) or to "My games".

import {api} from "./api.js";
import {claimSeats, nextPath} from "./account.js";
import {say} from "./util.js";

const $ = (id) => document.getElementById(id);

async function submit(event) {
  event.preventDefault();
  const creating = event.submitter?.id === "create-account";
  const name = $("name").value.trim();
  const password = $("password").value;
  const email = $("email").value.trim();
  if (!name || !password) {
    say($("message"), "Give a name and a password.");
    return;
  }
  const buttons = [$("sign-in"), $("create-account")];
  buttons.forEach((b) => { b.disabled = true; });
  try {
    const body = creating ? {name, password, ...(email ? {email} : {})} : {name, password};
    const me = await api("POST", creating ? "/api/accounts" : "/api/session", {body});
    say($("message"), creating ? `Welcome, ${me.name}.` : `Signed in as ${me.name}.`, "info");
    try { await claimSeats(me.name); } catch { /* the header tries again on the next page */ }
    location.assign(nextPath());
  } catch (exc) {
    const what = creating ? "The account was not created" : "Not signed in";
    say($("message"), `${what}: ${exc.message}`);
    $(creating ? "name" : "password").focus();
    buttons.forEach((b) => { b.disabled = false; });
  }
}

$("account-form").addEventListener("submit", submit);
document.body.dataset.ready = "true";

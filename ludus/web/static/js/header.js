// Every page's header: a "Sign in" link when signed out; the account's name, "My games" and a
// "Sign out" button when signed in. A signed-in browser's guest seats are claimed for the account.
// body.dataset.account says which ("signed-in" / "signed-out") once known.

import {claimSeats, signOut, whoAmI} from "./account.js";
import {el, fill} from "./util.js";

async function start() {
  const slot = document.getElementById("account");
  if (!slot) return;
  let me = null;
  try {
    me = await whoAmI();
  } catch {
    return; // the server is unreachable: the page says so itself
  }
  if (!me) {
    const here = location.pathname === "/signin" ? "/" : location.pathname;
    fill(slot, el("a", {href: `/signin?next=${encodeURIComponent(here)}`, "data-testid": "sign-in-link"}, "Sign in"));
    document.body.dataset.account = "signed-out";
    return;
  }
  const out = el("button", {type: "button", "data-testid": "sign-out", onclick: async () => {
    out.disabled = true;
    try { await signOut(); } finally { location.assign("/"); }
  }}, "Sign out");
  fill(slot, el("span", {class: "account-name", "data-testid": "account-name"}, me.name),
    el("a", {href: "/me", "data-testid": "my-games-link"}, "My games"), out);
  document.body.dataset.account = "signed-in";
  try { await claimSeats(me.name); } catch { /* tried again on the next page */ }
}

start();

// Accounts as the pages use them: who is signed in, signing out, and claiming this browser's guest
// seats for the account (the tokens api.js `tokens` keeps), so that nothing played as a guest is lost.

import {api, ApiError, tokens} from "./api.js";

const MAX_CLAIM = 100; // the server's account_games.MAX_CLAIM

const HINT = "ludus_signed_in"; // a cookie the server sets beside the session's (which no script reads)

/** Whether this browser may be signed in (the server's hint cookie): a guest's page asks nothing. */
export function maybeSignedIn() {
  return document.cookie.split(";").some((c) => c.trim() === `${HINT}=1`);
}

/** The signed-in account ({name, email, mail, ...}), or null when signed out. */
export async function whoAmI() {
  if (!maybeSignedIn()) return null;
  try {
    return await api("GET", "/api/me");
  } catch (exc) {
    if (exc instanceof ApiError && exc.status === 401) {
      document.cookie = `${HINT}=; Max-Age=0; Path=/; SameSite=Lax`; // the session ended elsewhere
      return null;
    }
    throw exc;
  }
}

export async function signOut() {
  await api("DELETE", "/api/session", {raw: true});
}

/** The games this browser keeps a seat token of: [{id, mine, ...}], from localStorage. */
function heldHere() {
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("ludus:game:")) found.push({id: key.slice("ludus:game:".length), ...tokens.load(key.slice("ludus:game:".length))});
    }
  } catch { /* private mode: nothing kept */ }
  return found;
}

/**
 * Claim for the account `name` the seats this browser played as a guest: its own seat's token of each
 * game (never the invite links it keeps for others). Each game is sent once per account.
 * Resolves to the server's answer ({claimed, held, refused}), or null when there was nothing to send.
 */
export async function claimSeats(name) {
  const pending = heldHere().filter((g) => typeof g.mine === "string" && g.mine && g.claimedBy !== name).slice(0, MAX_CLAIM);
  if (!pending.length) return null;
  const answer = await api("POST", "/api/me/claim", {body: {tokens: pending.map((g) => g.mine)}});
  for (const g of pending) tokens.save(g.id, {claimedBy: name});
  return answer;
}

/** A path of this site to go to after signing in (?next=...), else `fallback`: never another site. */
export function nextPath(fallback = "/me") {
  const next = new URLSearchParams(location.search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : fallback;
}

// The game API as the pages use it: JSON in and out, errors as ApiError with the server's reason.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

function reason(body, status) {
  if (body && typeof body.detail === "string") return body.detail;
  if (body && Array.isArray(body.detail)) return body.detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
  if (body && body.error && body.error.detail) return body.error.detail;
  return `the server answered ${status}`;
}

/** Call the API: api("POST", "/api/games", {body, token}). Resolves to the parsed JSON. */
export async function api(method, path, {body, token, raw} = {}) {
  const text = await apiText(method, path, {body: body === undefined ? undefined : JSON.stringify(body), token});
  return raw ? text : JSON.parse(text);
}

/**
 * Call the API with a JSON body given as text and resolve to the answer's text. Records go
 * through as text: their 63-bit seeds do not survive a round trip through JavaScript numbers.
 */
export async function apiText(method, path, {body, token} = {}) {
  const headers = {Accept: "application/json"};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {method, headers, body});
  } catch (exc) {
    throw new ApiError(0, `cannot reach the server (${exc.message})`);
  }
  const text = await response.text();
  if (!response.ok) {
    let data = null;
    try { data = JSON.parse(text); } catch { /* not JSON */ }
    throw new ApiError(response.status, reason(data, response.status));
  }
  return text;
}

/**
 * The SVG of the board as the server shows it to this seat (the spectator without a token), for
 * the view at `version`. Null when the game has no SVG renderer or has moved on meanwhile (a
 * newer view is on its way). The server draws only views it made: no observation is posted.
 */
export async function boardSvg(gameId, token, version) {
  const headers = {Accept: "image/svg+xml"};
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/svg?version=${version}`, {headers});
  if (response.status === 404 || response.status === 409) return null;
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new ApiError(response.status, reason(body, response.status));
  }
  return response.text();
}

let metaPromise = null;

/** Games (with options), bots: fetched once per page. */
export function meta() {
  metaPromise ||= api("GET", "/api/meta");
  return metaPromise;
}

/** The web socket address of a game's live views (a seat's token goes in its first message, never the URL). */
export function wsUrl(gameId) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws`;
}

/** A game page's link; a seat's token rides in the fragment, which browsers never send to a server. */
export function gameUrl(gameId, token) {
  const base = `${location.origin}/games/${encodeURIComponent(gameId)}`;
  return token ? `${base}#token=${encodeURIComponent(token)}` : base;
}

/**
 * The seat token this page was opened with: taken from the link (#token=..., or an old ?token=...),
 * kept in this tab's sessionStorage and cleared from the address bar and history at once.
 */
export function takeToken(gameId) {
  const key = `ludus:token:${gameId}`;
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  const fromQuery = new URLSearchParams(location.search).get("token");
  const found = fromHash || fromQuery;
  if (found) {
    try { sessionStorage.setItem(key, found); } catch { /* private mode: this load only */ }
    history.replaceState(history.state, "", location.pathname);
    return found;
  }
  try { return sessionStorage.getItem(key); } catch { return null; }
}

/** Forget this tab's token of a game (it was refused). */
export function dropToken(gameId) {
  try { sessionStorage.removeItem(`ludus:token:${gameId}`); } catch { /* private mode */ }
}

/** Tokens this browser holds, per game (so that the lobby can show invites again). */
export const tokens = {
  load(gameId) {
    try { return JSON.parse(localStorage.getItem(`ludus:game:${gameId}`)) || {}; } catch { return {}; }
  },
  save(gameId, data) {
    try { localStorage.setItem(`ludus:game:${gameId}`, JSON.stringify({...this.load(gameId), ...data})); } catch { /* private mode */ }
  },
};

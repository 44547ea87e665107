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
 * the view this page holds (`view`: its `version` and `ply`). The server draws that view even when
 * the game has moved on since (bots playing at once), so the page asks only for what it holds and
 * meets no error; null when the game has no SVG renderer, or when that view was undone meanwhile
 * (a newer view is on its way). The server draws only views it made: no observation is posted.
 * With `held` ({version, text}: the board this page last drew) the server may answer only the
 * lines that changed since it.
 */
export async function boardSvg(gameId, token, view, held = null) {
  const headers = {Accept: "image/svg+xml, application/json"};
  if (token) headers.Authorization = `Bearer ${token}`;
  const since = held ? `&since=${held.version}` : "";
  const ply = Number.isInteger(view.ply) ? `&ply=${view.ply}` : "";
  const path = `/api/games/${encodeURIComponent(gameId)}/svg?version=${view.version}${ply}${since}`;
  const response = await fetch(path, {headers});
  if (response.status === 404 || response.status === 409) return null;
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new ApiError(response.status, reason(body, response.status));
  }
  if ((response.headers.get("content-type") || "").startsWith("application/json")) {
    // line edits of the board this page holds (`held`), [start, count, lines], from the last to the first
    const {base, splices} = await response.json();
    if (!held || base !== held.version) return boardSvg(gameId, token, view);
    const lines = held.text.split("\n");
    for (let i = splices.length - 1; i >= 0; i--) lines.splice(splices[i][0], splices[i][1], ...splices[i][2]);
    return lines.join("\n");
  }
  return response.text();
}

let metaPromise = null;

/** Games (with options), bots: fetched once per page. */
export function meta() {
  metaPromise ||= api("GET", "/api/meta");
  return metaPromise;
}

const tableRatingsPromises = new Map();

/** A table's ratings (its seats' ratings, whether it is rated, whether bots may join): fetched once per page. */
export function tableRatings(gameId) {
  if (!tableRatingsPromises.has(gameId)) {
    tableRatingsPromises.set(gameId, api("GET", `/api/games/${encodeURIComponent(gameId)}/ratings`));
  }
  return tableRatingsPromises.get(gameId);
}

/**
 * The web socket address of a game's live views (a seat's token goes in its first message, never
 * the URL). With `patches`, every view after the first comes as a JSON patch (see applyPatch).
 */
export function wsUrl(gameId, {patches = false} = {}) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws${patches ? "?patches=1" : ""}`;
}

/**
 * `doc` changed by RFC 6902 operations (add, remove, replace: what the server's patches.py makes),
 * as a new value: only the containers on each operation's path are copied, the rest is shared, so
 * the old view stays as it was. Throws on an operation it cannot apply (the caller reloads the view).
 */
export function applyPatch(doc, ops) {
  let root = doc;
  for (const op of ops) {
    if (op.path === "") {
      if (op.op === "remove") throw new Error("cannot remove the whole document");
      root = op.value;
      continue;
    }
    const keys = op.path.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    const last = keys.pop();
    root = copyOf(root);
    let node = root;
    for (const key of keys) {
      if (node === null || typeof node !== "object" || !(key in node)) throw new Error(`no ${op.path}`);
      node[key] = copyOf(node[key]);
      node = node[key];
    }
    if (node === null || typeof node !== "object") throw new Error(`no ${op.path}`);
    if (Array.isArray(node)) {
      const index = last === "-" ? node.length : Number(last);
      const bound = op.op === "add" ? node.length : node.length - 1;
      if (!Number.isInteger(index) || index < 0 || index > bound) throw new Error(`no ${op.path}`);
      if (op.op === "add") node.splice(index, 0, op.value);
      else if (op.op === "remove") node.splice(index, 1);
      else if (op.op === "replace") node[index] = op.value;
      else throw new Error(`unknown operation ${op.op}`);
    } else if (op.op === "add" || (op.op === "replace" && last in node)) {
      node[last] = op.value;
    } else if (op.op === "remove" && last in node) {
      delete node[last];
    } else {
      throw new Error(`cannot ${op.op} ${op.path}`);
    }
  }
  return root;
}

function copyOf(value) {
  if (Array.isArray(value)) return value.slice();
  if (value !== null && typeof value === "object") return {...value};
  return value;
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

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

/** The SVG text of an observation, drawn by the server's renderer (null if it has none). */
export async function renderSvg(observation, options = {}) {
  const response = await fetch("/api/render", {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({observation, options}),
  });
  if (response.status === 404) return null;
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

/** The web socket address of a game's live views. */
export function wsUrl(gameId, token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws${query}`;
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

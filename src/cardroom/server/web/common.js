// Small helpers shared by every page: HTTP (with the signed-in account's CSRF token), the signed-in
// account, the stored seat token and name, DOM building. The header's account bar is account.js.

import { has, t } from "./i18n.js";

const CSRF_HEADER = "X-CSRF-Token";

/** The signed-in account ({key, name, role} or null) and its CSRF token, from GET /api/account
 * (docs/accounts.md); filled by loadAccount(), changed by setAccount() after signing in or out. */
export const session = { account: null, csrf: null, loaded: false };
let accountRequest = null;

/** GET /api/account once a page (``force``: ask again); the session. A failure counts as a guest. */
export function loadAccount(force = false) {
  if (!accountRequest || force) {
    accountRequest = fetch("/api/account", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null)
      .then((data) => {
        setAccount(data?.account ?? null, data?.csrf ?? null);
        return session;
      });
  }
  return accountRequest;
}

export function setAccount(account, csrf) {
  session.account = account || null;
  session.csrf = account ? csrf || null : null;
  session.loaded = true;
  accountRequest = Promise.resolve(session);
}

/** Whether an error is the server's refusal of a guest where an account is needed: 401, a 403 (a rated
 * table, a director's request), or a 409 about a name an account holds. */
export function needsSignIn(error) {
  if (!error) return false;
  if (error.status === 401 || error.status === 403) return true;
  return error.status === 409 && ["name_of_account", "not_an_account", "no_account"].includes(error.reason);
}

/** An argument of a refusal as the page shows it: lists joined, other values as JSON writes them. */
function shownArg(value) {
  if (Array.isArray(value)) return value.map(shownArg).join(", ");
  if (typeof value === "string" || typeof value === "number") return String(value);
  return JSON.stringify(value);
}

/** The page's words for a refused request's answer ``{detail, reason, args}`` (docs/server.md,
 * "Errors"): ``error.<reason>`` with its arguments, or the server's ``detail`` for a code the page
 * does not know. */
/** A refusal's arguments that are a table's seat (0 to 3, as the API numbers them): the pages number
 * seats from 1 (``bad_seat`` repeats what was sent, and stays as it is). */
const SEAT_ARGS = new Set(["seat", "held"]);

export function refusalWords(data) {
  const reason = data?.reason;
  if (typeof reason === "string" && has(`error.${reason}`)) {
    const args = Object.fromEntries(
      Object.entries(data.args ?? {}).map(([name, value]) => [
        name,
        SEAT_ARGS.has(name) && reason !== "bad_seat" && Number.isInteger(value) ? value + 1 : shownArg(value),
      ]),
    );
    return t(`error.${reason}`, args);
  }
  const detail = data && (data.detail ?? data.message ?? data.error);
  return typeof detail === "string" ? detail : "";
}

/** Call the HTTP API; the JSON answer (an error with ``status`` when refused). Signed in, a request
 * that changes something carries the session's CSRF token; ``headers`` adds more. */
export async function api(method, path, body, { headers = {} } = {}) {
  const changes = !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
  const send = async () => {
    const init = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    if (changes) {
      await loadAccount();
      if (session.csrf) init.headers[CSRF_HEADER] = session.csrf;
    }
    return fetch(path, init);
  };
  let response = await send();
  if (changes && response.status === 403) {
    // Signed in or out in another tab since this page asked: ask again, and retry once if that changed.
    const before = session.csrf;
    await loadAccount(true);
    if (session.csrf !== before) response = await send();
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (_) {
    data = { detail: text };
  }
  if (!response.ok) {
    const detail = data && (data.detail ?? data.message ?? data.error);
    const message = refusalWords(data) || (detail == null ? "" : JSON.stringify(detail));
    const error = new Error(message || `HTTP ${response.status}`);
    error.status = response.status;
    error.reason = data?.reason ?? null;
    error.args = data?.args ?? {};
    error.detail = typeof detail === "string" ? detail : null;
    throw error;
  }
  return data;
}

/** The seat token of a table lives in localStorage["cardroom:<table id>"]. */
export function tokenKey(tableId) {
  return `cardroom:${tableId}`;
}

export function loadToken(tableId) {
  try {
    const raw = localStorage.getItem(tokenKey(tableId));
    if (!raw) return null;
    // Accept a JSON object {"token": …} too, in case another client stored more.
    if (raw.startsWith("{")) {
      const parsed = JSON.parse(raw);
      return typeof parsed.token === "string" ? parsed.token : null;
    }
    return raw;
  } catch (_) {
    return null;
  }
}

export function saveToken(tableId, token) {
  try {
    localStorage.setItem(tokenKey(tableId), token);
  } catch (_) {
    // nothing to do: the seat is lost on reload
  }
}

export function forgetToken(tableId) {
  try {
    localStorage.removeItem(tokenKey(tableId));
  } catch (_) {
    // ignore
  }
}

export function loadName() {
  try {
    return localStorage.getItem("cardroom:name") || "";
  } catch (_) {
    return "";
  }
}

export function saveName(name) {
  try {
    localStorage.setItem("cardroom:name", name);
  } catch (_) {
    // ignore
  }
}

/** The close codes a page tells apart (docs/protocol.md, "Close codes"): it reconnects at once after
 * 1012 (the table's process changed), after the server's `retry_after` after 1013 (nobody can serve
 * the table now), and not at all after those of FINAL_CLOSES: 4401 (this browser was signed out),
 * 4404 (no such table), 4410 (the table expired). Any other close (4408 idle, 4409 the seat taken
 * again elsewhere, 4429 over a limit, a dropped connection) reconnects after a growing delay. */
export const CLOSE = {
  reconnect: 1012,
  tryAgain: 1013,
  signedOut: 4401,
  unknown: 4404,
  seatReplaced: 4409,
  expired: 4410,
  limited: 4429,
};

/** The close codes after which a page does not reconnect. */
export const FINAL_CLOSES = [CLOSE.signedOut, CLOSE.unknown, CLOSE.expired];

/** The origins a page may reach the card room at: its own first, then the other live processes'
 * public URLs (GET /api/nodes), without those a page served over https may not open (http ones). */
export function endpoints(own, nodes) {
  const secure = own.startsWith("https:");
  const found = [own];
  for (const url of nodes || []) {
    const origin = String(url).replace(/\/+$/, "");
    if (!/^https?:\/\/[^/]+$/.test(origin) || (secure && origin.startsWith("http:"))) continue;
    if (!found.includes(origin)) found.push(origin);
  }
  return found;
}

/** The websocket URL of a path at an origin (http → ws, https → wss). */
export function socketUrl(origin, path) {
  return origin.replace(/^http/, "ws") + path;
}

/** Where and when to reconnect after a websocket closed: ``closed`` is {code, opened (whether it had
 * opened), retryAfter (seconds, from the `unavailable` error before a 1013)}; ``attempt`` counts the
 * tries since the last open; ``count`` is the number of origins, ``current`` the index tried last;
 * ``jitter`` (0–1) spreads the clients of one process. The answer is {delay (ms), index}, or null
 * for no reconnecting. A socket that never opened tries the next origin (its process does not
 * answer); one that did tries its own again (that process forwards to the table's new owner). */
export function reconnectPlan(closed, attempt, count, current, jitter = 0) {
  if (FINAL_CLOSES.includes(closed.code)) return null;
  const origins = Math.max(1, count);
  const index = closed.opened ? current : (current + 1) % origins;
  let delay;
  if (closed.opened && closed.code === CLOSE.reconnect) delay = 100 + 400 * jitter;
  else if (closed.opened && closed.code === CLOSE.tryAgain) delay = 1000 * Math.min(30, Math.max(0.1, Number(closed.retryAfter) || 1)) + 250 * jitter;
  else delay = Math.min(5000, 300 * 2 ** Math.floor(attempt / origins)) + 100 * jitter;
  return { delay, index };
}

export function tableUrl(tableId) {
  return `${location.origin}/tables/${encodeURIComponent(tableId)}`;
}

/** Whether a seat's ``account`` key is a bot account's (``bot:<id>``; docs/ladder.md). */
export function isBotAccount(key) {
  return typeof key === "string" && key.startsWith("bot:");
}

/** h("div.cls#id", {attrs}, children…): a tiny element builder. */
/** The longest name of a table or an event the server takes (cardroom.server.tables.config.MAX_NAME). */
export const NAME_MAX = 40;

/** The direction of engine seats 0–3 (方位), as the tournament core has them (cardroom.tournament.seating
 * SEAT_WINDS): seat 0 北, 1 西, 2 南, 3 东; play goes 北 → 西 → 南 → 东. */
export const SEAT_WINDS = ["N", "W", "S", "E"];

/** Each side's seats in the order the printouts name them: side 0 (seats 0 & 2) 南北, side 1 东西. */
export const SIDE_SEATS = [
  [0, 2],
  [3, 1],
];

/** Fill ``el`` with ``children``, leaving out the absent ones (null, undefined, false) that
 * replaceChildren would write as text. */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return el;
}

export function h(spec, attrs = {}, ...children) {
  const [tagAndClasses, id] = spec.split("#");
  const [tag, ...classes] = tagAndClasses.split(".");
  const el = document.createElement(tag || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "testid") el.dataset.testid = value;
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_) {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch (_) {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

// Shared by the events, event, leaderboard, player and account pages (and the lobby's ratings snippet):
// the top bar, numbers and dates, titles, player links, and the director's token an event page keeps
// (docs/tournaments-api.md).

import { initAccountBar } from "./account.js";
import { h } from "./common.js";
import { applyI18n, bindLangButton, getLang, has, onLangChange, t } from "./i18n.js";

/** Fill the page's labels, wire the language button, re-render on a switch and fill the header's
 * account bar; the signed-in session, once known (account.js). */
export function initPage(render) {
  applyI18n();
  const button = document.querySelector("#lang");
  if (button) bindLangButton(button);
  if (render) onLangChange(render);
  return initAccountBar();
}

/** A number with a fixed number of decimals ("—" when missing). */
export function num(value, digits = 2) {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : t("common.none");
}

/** A signed change: "+1.23", "−0.50", "0". */
export function signed(value, digits = 2) {
  if (typeof value !== "number" || !Number.isFinite(value)) return t("common.none");
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return `${value > 0 ? "+" : "−"}${text}`;
}

export function changeClass(value) {
  if (typeof value !== "number" || !value) return "flat";
  return value > 0 ? "up" : "down";
}

/** An ISO 8601 time in the reader's locale, short. */
export function when(iso) {
  if (!iso) return t("common.none");
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return date.toLocaleString(getLang() === "zh" ? "zh-CN" : "en-GB", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  });
}

/** The time of day of an ISO 8601 time on a 24-hour clock (14:05, or 14:05:01 with ``seconds``), in
 * either language. */
export function clockTime(iso, { seconds = false } = {}) {
  if (!iso) return t("common.none");
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return date.toLocaleTimeString(getLang() === "zh" ? "zh-CN" : "en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    ...(seconds ? { second: "2-digit" } : {}),
    hourCycle: "h23",
  });
}

/** The platform title (笨蛋 … 掼蛋), glossed in English. */
export function titleLabel(title) {
  if (!title) return t("common.none");
  return has(`title.${title}`) ? t(`title.${title}`) : title;
}

export function titleChip(title) {
  return h("span.title-chip", { testid: "title", dataset: { title: title || "" }, text: titleLabel(title) });
}

export function playerHref(name) {
  return `/players/${encodeURIComponent(name)}`;
}

export function playerLink(name, testid = "player-link") {
  if (!name) return h("span", { text: t("common.none") });
  return h("a.player-link", { href: playerHref(name), testid, text: name });
}

/** A bot's name, marked as a bot wherever it is shown (no link: bots have no player page). */
export function botName(name, kind = "") {
  return h(
    "span.bot-name",
    { testid: "bot-name", dataset: { bot: kind || "" } },
    h("span", { text: name || t("badge.bot") }),
    " ",
    h("span.badge-light.bot-mark", { testid: "bot-mark", text: t("badge.bot") }),
  );
}

/** A player's name: a bot's marked as one (``bot``: its kind, or true), a person's a link to its page. */
export function nameOf(name, bot, testid = "player-link") {
  return bot ? botName(name, typeof bot === "string" ? bot : "") : playerLink(name, testid);
}

/** An event's phase as a coloured chip. */
export function phaseChip(phase) {
  return h(`span.status.phase-${phase || "registration"}`, {
    testid: "event-phase",
    dataset: { phase: phase || "" },
    text: has(`phase.${phase}`) ? t(`phase.${phase}`) : phase || "",
  });
}

// --- the director's token kept by the event page ------------------------------------------------------

function readStorage(key) {
  try {
    return localStorage.getItem(key);
  } catch (_) {
    return null;
  }
}

function writeStorage(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (_) {
    // storage unavailable: the token lives only on this page
  }
}

/** The director's token (for scripts; the director's own account needs none):
 * localStorage["cardroom:event:<id>"]. */
export function directorToken(eventId) {
  return readStorage(`cardroom:event:${eventId}`);
}

export function saveDirectorToken(eventId, token) {
  writeStorage(`cardroom:event:${eventId}`, token);
}

/** The leaderboard as a table; also used by the lobby's snippet (``compact``). */
export function leaderboardTable(rows, { compact = false } = {}) {
  const columns = compact
    ? [
        ["lb.rank", "num", (row) => String(row.rank)],
        ["lb.name", "", (row) => playerLink(row.name)],
        ["lb.rating", "num", (row) => num(row.rating)],
        ["lb.points", "num", (row) => String(row.points ?? 0)],
        ["lb.title.col", "", (row) => titleChip(row.title)],
      ]
    : [
        ["lb.rank", "num", (row) => String(row.rank)],
        ["lb.name", "", (row) => playerLink(row.name)],
        ["lb.rating", "num", (row) => num(row.rating)],
        ["lb.range", "num", (row) => `${num(row.mu - 2 * row.sigma)}–${num(row.mu + 2 * row.sigma)}`],
        ["lb.points", "num", (row) => String(row.points ?? 0)],
        ["lb.title.col", "", (row) => titleChip(row.title)],
        ["lb.matches", "num", (row) => String(row.matches ?? 0)],
        ["lb.wdl", "num", (row) => `${row.wins ?? 0}-${row.draws ?? 0}-${row.losses ?? 0}`],
      ];
  const cls = (extra) => (extra ? `.${extra}` : "");
  return h(
    "div.table-scroll",
    {},
    h(
      `table.data-table.leaderboard${compact ? ".compact" : ""}`,
      { testid: compact ? "lobby-leaderboard-table" : "leaderboard-table" },
      h(
        "thead",
        {},
        h("tr", {}, ...columns.map(([key, extra]) => h(`th${cls(extra)}.col-${key.slice(3)}`, { text: t(key) }))),
      ),
      h(
        "tbody",
        {},
        ...rows.map((row) =>
          h(
            "tr",
            { testid: "leaderboard-row", dataset: { name: row.name, rank: String(row.rank) } },
            ...columns.map(([key, extra, cell]) =>
              h(`td${cls(extra)}.col-${key.slice(3)}`, { dataset: { col: key.slice(3) } }, cell(row)),
            ),
          ),
        ),
      ),
    ),
  );
}

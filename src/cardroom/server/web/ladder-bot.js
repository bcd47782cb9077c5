// A ladder bot's page (/ladder/bots/{bot}): who it is, each entrant (generation) with its rating and
// record, its record against each house bot with 95% intervals, its matches newest first with their
// tables to watch or replay, and its records to download, from GET /api/ladder/{bot} (docs/ladder.md,
// "Reading it").

import { api, h } from "./common.js";
import { t } from "./i18n.js";
import { initPage, num, signed, when } from "./pages.js";

const $ = (sel) => document.querySelector(sel);

const bot = decodeURIComponent(location.pathname.replace(/^\/ladder\/bots\//, "").replace(/\/$/, ""));
const view = { data: null, names: {}, error: null, missing: false };

/** The bot of an entrant's key: ``bot:7#2`` → ``bot:7``. */
const botOf = (key) => key.slice(0, key.lastIndexOf("#")) || key;

export function ladderBotHref(key) {
  return `/ladder/bots/${encodeURIComponent(botOf(key))}`;
}

/** An http(s) address as a link, anything else as plain text (the server takes no other, but a page
 * never makes a link of a script). */
function safeLink(address) {
  let url = null;
  try {
    url = new URL(address);
  } catch (_) {
    url = null;
  }
  if (url && (url.protocol === "http:" || url.protocol === "https:")) {
    return h("a", { href: url.href, rel: "nofollow noopener noreferrer", target: "_blank", testid: "bot-link", text: address });
  }
  return h("span", { testid: "bot-link", text: address });
}

function entrantLabel(entrant) {
  return entrant.house ? t("ladder.house") : t("ladder.generation", { generation: entrant.generation });
}

function nameOfKey(key) {
  const name = view.names[key] ?? botOf(key);
  const own = botOf(key) === bot;
  return own ? h("strong", { text: name }) : h("a", { href: ladderBotHref(key), testid: "bot-page-link", text: name });
}

function dataTable(testid, headings, rows) {
  return h(
    "div.table-scroll",
    {},
    h(
      "table.data-table",
      { testid },
      h("thead", {}, h("tr", {}, ...headings.map(([key, extra]) => h(extra ? `th.${extra}` : "th", { text: t(key) })))),
      h("tbody", {}, ...rows),
    ),
  );
}

function cell(col, value, extra = "") {
  return h(extra ? `td.${extra}` : "td", { dataset: { col } }, value);
}

function about(data) {
  const shown = data.bot;
  const parts = [];
  if (shown.house) parts.push(h("p.muted", { testid: "bot-house", text: t("ladderbot.house") }));
  if (shown.owner) parts.push(h("p", { testid: "bot-owner", text: t("ladderbot.owner", { owner: shown.owner }) }));
  if (shown.description) {
    const lines = shown.description.split("\n").flatMap((line, index) => (index ? [h("br"), line] : [line]));
    parts.push(h("p.bot-description", { testid: "bot-description" }, ...lines));
  }
  if (shown.link) parts.push(h("p", {}, safeLink(shown.link)));
  return parts;
}

function entrantsTable(entrants) {
  return dataTable(
    "entrants-table",
    [
      ["ladderbot.entrant", ""],
      ["ladder.rank", "num"],
      ["ladder.rating", "num"],
      ["ladder.range", "num"],
      ["ladder.matches", "num"],
      ["ladder.wdl", "num"],
      ["ladder.faults", "num"],
      ["ladder.seen", ""],
    ],
    entrants.map((row) =>
      h(
        "tr",
        { testid: "entrant-row", dataset: { key: row.key } },
        cell("entrant", entrantLabel(row)),
        cell("rank", String(row.rank), "num"),
        cell("rating", num(row.mu), "num"),
        cell("range", `${num(row.low)}–${num(row.high)}`, "num"),
        cell("matches", String(row.matches), "num"),
        cell("wdl", `${row.wins}-${row.draws}-${row.losses}`, "num"),
        cell("faults", String(row.faults), "num"),
        cell("seen", row.house ? t("ladder.always") : row.last_seen ? when(row.last_seen) : t("common.none")),
      ),
    ),
  );
}

function percent(value) {
  return typeof value === "number" ? `${(value * 100).toFixed(1)}%` : t("common.none");
}

function interval(low, high, format) {
  if (typeof low !== "number" || typeof high !== "number") return h("span.muted", { text: t("ladderbot.no_interval") });
  return `${format(low)} – ${format(high)}`;
}

function versusTable(entrants) {
  const rows = entrants.flatMap((entrant) =>
    (entrant.versus ?? []).map((row) =>
      h(
        "tr",
        { testid: "versus-row", dataset: { entrant: entrant.key, house: row.house } },
        cell("entrant", entrantLabel(entrant)),
        cell("house", view.names[`${row.house}#1`] ?? row.house),
        cell("matches", String(row.matches), "num"),
        cell("wdl", `${row.wins}-${row.draws}-${row.losses}`, "num"),
        cell("win_rate", percent(row.win_rate), "num"),
        cell("win_rate_ci", interval(row.win_rate_low, row.win_rate_high, percent), "num"),
        cell("margin", signed(row.margin), "num"),
        cell("margin_ci", interval(row.margin_low, row.margin_high, (value) => signed(value)), "num"),
      ),
    ),
  );
  if (!rows.length) return h("p.muted", { text: t("ladderbot.versus_none") });
  return dataTable(
    "versus-table",
    [
      ["ladderbot.entrant", ""],
      ["ladderbot.house_bot", ""],
      ["ladder.matches", "num"],
      ["ladder.wdl", "num"],
      ["ladderbot.win_rate", "num"],
      ["ladderbot.win_rate_ci", "num"],
      ["ladderbot.margin", "num"],
      ["ladderbot.margin_ci", "num"],
    ],
    rows,
  );
}

function result(match, ours) {
  if (typeof match.margin !== "number") return t(`ladderbot.status.${match.status}`);
  const margin = ours === "a" ? match.margin : -match.margin;
  if (margin > 0) return t("ladderbot.won", { margin });
  if (margin < 0) return t("ladderbot.lost", { margin: -margin });
  return t("ladderbot.drawn");
}

function tableLinks(match) {
  return match.tables.flatMap((pair, index) =>
    pair.map((table, swapped) =>
      h(
        "span.ladder-table",
        {},
        h("a", { href: `/tables/${encodeURIComponent(table)}`, testid: "watch-link", text: t("ladderbot.table", { pair: index + 1, side: swapped ? "b" : "a" }) }),
        " (",
        h("a", { href: `/api/tables/${encodeURIComponent(table)}/record`, testid: "record-link", text: t("ladderbot.record") }),
        ") ",
      ),
    ),
  );
}

function matchesTable(matches) {
  if (!matches.length) return h("p.muted", { testid: "matches-none", text: t("ladderbot.matches_none") });
  return dataTable(
    "matches-table",
    [
      ["ladderbot.day", ""],
      ["ladderbot.status", ""],
      ["ladderbot.team", ""],
      ["ladderbot.opponents", ""],
      ["ladderbot.result", ""],
      ["ladderbot.tables", ""],
    ],
    matches.map((match) => {
      const ours = match.team_a.some((key) => botOf(key) === bot) ? "a" : "b";
      const [team, others] = ours === "a" ? [match.team_a, match.team_b] : [match.team_b, match.team_a];
      const names = (keys) => keys.flatMap((key, index) => (index ? [" + ", nameOfKey(key)] : [nameOfKey(key)]));
      return h(
        "tr",
        { testid: "match-row", dataset: { match: match.id, status: match.status } },
        cell("day", match.day),
        cell("status", t(`ladderbot.status.${match.status}`)),
        cell("team", names(team)),
        cell("opponents", names(others)),
        cell("result", result(match, ours)),
        cell("tables", tableLinks(match)),
      );
    }),
  );
}

function render() {
  const error = $("#error");
  error.hidden = !view.error;
  if (view.error) error.textContent = view.missing ? t("ladderbot.unknown", { bot }) : t("common.error", { message: view.error });
  const data = view.data;
  document.title = `${data ? data.bot.name : t("ladderbot.title")} · ${t("lobby.heading")}`;
  $("#bot-name").textContent = data ? data.bot.name : bot;
  for (const section of document.querySelectorAll("[data-bot-section]")) section.hidden = view.missing;
  const download = $("#download");
  download.href = `/api/ladder/${encodeURIComponent(bot)}/records`;
  download.hidden = !data;
  if (!data) {
    const loading = view.error ? [] : [h("p.muted", { text: t("common.loading") })];
    for (const id of ["#about", "#entrants", "#versus", "#matches"]) $(id).replaceChildren(...(id === "#about" ? loading : []));
  } else {
    $("#about").replaceChildren(...about(data));
    $("#entrants").replaceChildren(entrantsTable(data.entrants));
    $("#versus").replaceChildren(versusTable(data.entrants));
    $("#matches").replaceChildren(matchesTable(data.matches));
  }
  window.__ladderBot = { ready: data !== null || view.error !== null, data, error: view.error };
}

async function load() {
  try {
    const [data, ladder] = await Promise.all([api("GET", `/api/ladder/${encodeURIComponent(bot)}`), api("GET", "/api/ladder")]);
    view.names = Object.fromEntries((ladder?.entrants ?? []).map((row) => [row.key, row.name]));
    view.data = data;
    view.error = null;
    view.missing = false;
  } catch (error) {
    view.error = error.message;
    view.missing = error.status === 404;
  }
  render();
}

initPage(render);
render();
load();
setInterval(load, 30000);

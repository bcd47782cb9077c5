// The bot ladder (/ladder): each entrant's rank, name and generation, rating and range, matches, faults
// and when last seen, from GET /api/ladder, and the matches being played (ladder-live.js) (docs/ladder.md,
// "The ladder in the card room").

import { api, h } from "./common.js";
import { t } from "./i18n.js";
import { liveMatches } from "./ladder-live.js";
import { initPage, num, when } from "./pages.js";

const $ = (sel) => document.querySelector(sel);

const view = { rows: null, live: null, error: null };

const COLUMNS = [
  ["ladder.rank", "num", (row) => String(row.rank)],
  [
    "ladder.name",
    "",
    (row) => h("span", {}, h("a", { href: `/ladder/bots/${encodeURIComponent(row.bot)}`, testid: "ladder-bot-link", text: row.name }), " ", h("span.muted", { text: row.house ? t("ladder.house") : t("ladder.generation", { generation: row.generation }) })),
  ],
  ["ladder.rating", "num", (row) => num(row.mu)],
  ["ladder.range", "num", (row) => `${num(row.low)}–${num(row.high)}`],
  ["ladder.matches", "num", (row) => String(row.matches)],
  ["ladder.wdl", "num", (row) => `${row.wins}-${row.draws}-${row.losses}`],
  ["ladder.faults", "num", (row) => String(row.faults)],
  ["ladder.seen", "", (row) => (row.house ? t("ladder.always") : row.last_seen ? when(row.last_seen) : "—")],
];

function ladderTable(rows) {
  return h(
    "div.table-scroll",
    {},
    h(
      "table.data-table.leaderboard",
      { testid: "ladder-table" },
      h("thead", {}, h("tr", {}, ...COLUMNS.map(([key, extra]) => h(extra ? `th.${extra}` : "th", { text: t(key) })))),
      h(
        "tbody",
        {},
        ...rows.map((row) =>
          h(
            "tr",
            { testid: "ladder-row", dataset: { key: row.key, rank: String(row.rank) } },
            ...COLUMNS.map(([key, extra, cell]) => h(extra ? `td.${extra}` : "td", { dataset: { col: key.slice(7) } }, cell(row))),
          ),
        ),
      ),
    ),
  );
}

function render() {
  const board = $("#board");
  const error = $("#error");
  error.hidden = !view.error;
  if (view.error) error.textContent = t("common.error", { message: view.error });
  if (view.rows === null) {
    board.replaceChildren(h("p.muted", { text: t("common.loading") }));
  } else if (!view.rows.length) {
    board.replaceChildren(h("p.muted", { testid: "ladder-empty", text: t("ladder.none") }));
  } else {
    board.replaceChildren(ladderTable(view.rows));
  }
  $("#live").replaceChildren(liveMatches(view.live));
  window.__ladder = { ready: view.rows !== null && view.live !== null, rows: view.rows, live: view.live };
}

async function load() {
  try {
    const [data, live] = await Promise.all([api("GET", "/api/ladder"), api("GET", "/api/ladder/live")]);
    view.rows = data?.entrants ?? [];
    view.live = live?.matches ?? [];
    view.error = null;
  } catch (error) {
    view.error = error.message;
    view.rows = view.rows ?? [];
    view.live = view.live ?? [];
  }
  render();
}

initPage(render);
render();
load();
setInterval(load, 15000);

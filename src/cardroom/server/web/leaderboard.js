// The leaderboard (/leaderboard): every rated player's openskill rating (μ − 3σ), rating points (积分)
// and title (笨蛋 … 掼蛋), from GET /api/leaderboard (docs/tournaments-api.md).

import { api, h } from "./common.js";
import { t } from "./i18n.js";
import { initPage, leaderboardTable } from "./pages.js";

const $ = (sel) => document.querySelector(sel);

const view = { by: new URLSearchParams(location.search).get("by") === "points" ? "points" : "rating", rows: null, error: null };

function render() {
  const board = $("#board");
  const error = $("#error");
  error.hidden = !view.error;
  if (view.error) error.textContent = t("common.error", { message: view.error });
  $("#by").value = view.by;
  if (view.rows === null) {
    board.replaceChildren(h("p.muted", { text: t("common.loading") }));
  } else if (!view.rows.length) {
    board.replaceChildren(h("p.muted", { testid: "leaderboard-empty", text: t("lb.none") }));
  } else {
    board.replaceChildren(leaderboardTable(view.rows));
  }
  window.__leaderboard = { ready: view.rows !== null, by: view.by, rows: view.rows };
}

async function load() {
  try {
    const data = await api("GET", `/api/leaderboard?by=${view.by}&limit=200`);
    view.rows = data?.players ?? [];
    view.error = null;
  } catch (error) {
    view.error = error.message;
    view.rows = view.rows ?? [];
  }
  render();
}

initPage(render);
$("#by").addEventListener("change", () => {
  view.by = $("#by").value;
  const url = new URL(location.href);
  url.searchParams.set("by", view.by);
  history.replaceState(null, "", url);
  load();
});
render();
load();
setInterval(load, 15000);

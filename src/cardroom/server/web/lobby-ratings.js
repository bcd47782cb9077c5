// The lobby's ratings snippet: the top players (GET /api/leaderboard?limit=5) and links to the full
// leaderboard and the events. Loaded by index.html beside lobby.js.

import { api, h } from "./common.js";
import { onLangChange, t } from "./i18n.js";
import { leaderboardTable } from "./pages.js";

let rows = null;

function render() {
  const box = document.querySelector("#lobby-leaderboard");
  if (!box) return;
  if (rows === null) box.replaceChildren(h("p.note", { text: t("common.loading") }));
  else if (!rows.length) box.replaceChildren(h("p.note", { testid: "lobby-leaderboard-empty", text: t("lb.none") }));
  else box.replaceChildren(leaderboardTable(rows, { compact: true }));
}

async function load() {
  try {
    const data = await api("GET", "/api/leaderboard?limit=5");
    rows = data?.players ?? [];
  } catch (_) {
    rows = rows ?? [];
  }
  render();
}

onLangChange(render);
render();
load();
setInterval(load, 30000);

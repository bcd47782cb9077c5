// A player's page (/players/{name}): rating, rating points, title, rank and record, and the recent
// rated matches with links to their tables (replay) and records (GET /api/players/{name},
// docs/tournaments-api.md).

import { api, h } from "./common.js";
import { t } from "./i18n.js";
import { changeClass, initPage, nameOf, num, signed, titleChip, when } from "./pages.js";

const $ = (sel) => document.querySelector(sel);

const name = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const view = { player: null, error: null, notFound: false };

function stat(labelKey, value, testid) {
  return h(`div.stat.${testid}`, { testid }, h("span.stat-label", { text: t(labelKey) }), h("span.stat-value", {}, value));
}

function renderStats() {
  const box = $("#stats");
  const p = view.player;
  $("#player-name").textContent = p?.name || name;
  document.title = `${p?.name || name} · ${t("player.title")}`;
  const error = $("#error");
  error.hidden = !(view.error || view.notFound);
  error.textContent = view.notFound ? t("player.notfound", { name }) : view.error ? t("common.error", { message: view.error }) : "";
  if (!p) {
    box.replaceChildren(view.error || view.notFound ? "" : h("p.muted", { text: t("common.loading") }));
    return;
  }
  box.replaceChildren(
    stat("player.rating", h("span", { text: num(p.rating) }, h("small.muted", { testid: "rating-range", text: ` · ${t("player.range", { low: num(p.mu - 2 * p.sigma), high: num(p.mu + 2 * p.sigma) })}` })), "stat-rating"),
    stat("player.points", String(p.points ?? 0), "stat-points"),
    stat("player.titleLabel", titleChip(p.title), "stat-title"),
    stat("player.rank", p.rank ? `#${p.rank}` : t("common.none"), "stat-rank"),
    stat(
      "player.record",
      t("player.record.value", { matches: p.matches ?? 0, wins: p.wins ?? 0, draws: p.draws ?? 0, losses: p.losses ?? 0 }),
      "stat-record",
    ),
  );
}

function where(match) {
  const event = match.event;
  if (!event) return h("span.muted", { text: t("player.casual") });
  return h("a", {
    href: `/events/${encodeURIComponent(event.id)}`,
    testid: "match-event",
    text: t("player.event", { name: event.name || event.id, round: event.round, table: event.table }),
  });
}

/** Each cell names its column (data-label), for the phone's stacked rows. */
function labelled(heads, row) {
  [...row.children].forEach((cell, index) => {
    cell.dataset.label = t(heads[index]);
  });
  return row;
}

function renderRecent() {
  const box = $("#recent");
  const recent = view.player?.recent;
  if (!view.player) {
    box.replaceChildren();
    return;
  }
  if (!recent?.length) {
    box.replaceChildren(h("p.muted", { text: t("player.recent.none") }));
    return;
  }
  const heads = ["player.when", "player.where", "player.partner", "player.opponents", "player.result", "player.levels", "player.change", "player.links"];
  box.replaceChildren(
    h(
      "div.table-scroll",
      {},
      h(
        "table.data-table.recent",
        { testid: "recent-table" },
        h("thead", {}, h("tr", {}, ...heads.map((key) => h("th", { text: t(key) })))),
        h(
          "tbody",
          {},
          ...recent.map((match) =>
            labelled(heads, h(
              "tr",
              { testid: "recent-match", dataset: { tableId: match.table_id, result: match.result || "" } },
              h("td", { text: when(match.at) }),
              h("td", {}, where(match), typeof match.seat === "number" ? h("small.muted", { text: ` · ${t("player.seat", { n: match.seat + 1 })}` }) : null),
              h("td", {}, nameOf(match.partner, match.partner_bot)),
              h("td", {}, ...(match.opponents || []).flatMap((o, i) => [i ? " · " : "", nameOf(o, match.opponents_bot?.[i])])),
              h("td", {}, h(`span.result.${match.result}`, { text: t(`result.${match.result}`) })),
              h("td.num", { text: (match.levels || []).join(" : ") }),
              h(
                "td.num",
                {},
                h(`span.${changeClass(match.rating_change)}`, { text: signed(match.rating_change) }),
                " / ",
                h(`span.${changeClass(match.points_change)}`, { text: signed(match.points_change, 0) }),
                match.withheld
                  ? h("small.muted.withheld", {
                      testid: "withheld",
                      text: ` · ${t(`player.withheld.${match.withheld}`, { auto: match.auto_decisions ?? 0, decisions: match.decisions ?? 0 })}`,
                    })
                  : null,
              ),
              h(
                "td.links",
                {},
                h("a.btn.small", { href: match.table || `/tables/${encodeURIComponent(match.table_id)}`, testid: "replay-link", text: t("player.replay") }),
                h("a.btn.small", { href: match.record || `/api/tables/${encodeURIComponent(match.table_id)}/record`, testid: "record-link", text: t("player.recordLink") }),
              ),
            )),
          ),
        ),
      ),
    ),
  );
}

function render() {
  renderStats();
  renderRecent();
  window.__player = { ready: Boolean(view.player) || view.notFound || Boolean(view.error), player: view.player };
}

async function load() {
  try {
    view.player = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    view.error = null;
    view.notFound = false;
  } catch (error) {
    if (error.status === 404) view.notFound = true;
    else view.error = error.message;
  }
  render();
}

initPage(render);
render();
load();

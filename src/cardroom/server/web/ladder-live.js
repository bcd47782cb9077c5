// The live ladder matches on the ladder page (/ladder): each match's teams and its tables, each a link to
// watch it as a spectator (/tables/{id}), from GET /api/ladder/live (docs/ladder.md, "Reading it").

import { h } from "./common.js";
import { t } from "./i18n.js";

function team(match, side) {
  return match[side].map((key) => match.names?.[key] ?? key).join(" + ");
}

function tableState(table) {
  const parts = [t(`ladder.live.phase.${table.phase ?? table.status ?? "unknown"}`)];
  if (table.levels) parts.push(t("ladder.live.levels", { levels: table.levels.join(":") }));
  const cards = table.seats.map((seat) => seat.cards);
  if (table.status === "running" && cards.every((count) => count !== null)) parts.push(t("ladder.live.cards", { cards: cards.join(" · ") }));
  if (table.rises) parts.push(t("ladder.live.rose", { a: table.rises[0], b: table.rises[1] }));
  return parts.join(" · ");
}

function tableLink(table) {
  const label = t(table.swapped ? "ladder.live.swapped" : "ladder.live.direct", { pair: table.pair + 1 });
  return h(
    "li",
    {},
    h("a", { href: table.url, testid: "ladder-live-table", dataset: { table: table.id }, text: label }),
    " ",
    h("span.muted", { text: tableState(table) }),
  );
}

function liveMatch(match) {
  return h(
    "div.ladder-live-match",
    { testid: "ladder-live-match", dataset: { match: match.id } },
    h("p", {}, h("strong", { text: team(match, "team_a") }), ` ${t("ladder.live.against")} `, h("strong", { text: team(match, "team_b") })),
    h("ul", {}, ...match.watch.map(tableLink)),
  );
}

export function liveMatches(matches) {
  if (matches === null) return h("p.muted", { text: t("common.loading") });
  if (!matches.length) return h("p.muted", { testid: "ladder-live-none", text: t("ladder.live.none") });
  return h("div", {}, ...matches.map(liveMatch));
}

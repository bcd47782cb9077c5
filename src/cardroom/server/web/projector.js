// The projector view of an event (/events/{id}/projector, docs/tournaments.md, "Printouts and the
// projector"): the current round's pairings (tables, teams, seats, results) and the standings, full
// screen, large type, updated live over /ws/events/{id} (the event page's websocket).

import { h, SEAT_WINDS, SIDE_SEATS } from "./common.js";
import { t } from "./i18n.js";
import { initPage } from "./pages.js";

const eventId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").slice(-2)[0] || "");
let current = null;

function teamName(id) {
  const team = current?.teams?.find((item) => item.id === id);
  return team?.name || id || t("common.none");
}

/** A side's team and players, each by the direction of the seat (北 Ann · 南 Bob), as the printout has it. */
function sideText(table, side) {
  const players = SIDE_SEATS[side].map((number) => {
    const seat = (table.seats || []).find((item) => item.seat === number);
    return `${t(`event.wind.${SEAT_WINDS[number]}`)} ${seat?.player ?? ""}`;
  });
  return `${teamName(table.teams[side])} (${players.join(" · ")})`;
}

function resultCell(table, round) {
  const result = table.result;
  if (!result) {
    // late: a side still missing once the round has started (a side seated late plays on)
    if (round.started_at && table.lateness?.some((side) => !side.seated)) return t("projector.late");
    return t(`status.${table.status || "waiting"}`);
  }
  if (result.kind === "forfeit") return t("projector.forfeit", { team: teamName(table.teams[result.forfeited_by]) });
  return `${(result.level_names || []).join(" : ")} (${(result.round_points || []).join(" : ")})`;
}

function render() {
  const event = current;
  document.title = `${event?.name || eventId} · ${t("projector.title")}`;
  document.querySelector("#projector-name").textContent = event?.name || eventId;
  const rounds = event?.rounds || [];
  const round = rounds[rounds.length - 1];
  document.querySelector("#projector-round").textContent = round
    ? `${t("event.round", { n: round.number })} · ${round.started_at ? t("projector.started") : t("projector.published")}`
    : t("event.rounds.none");
  document.querySelector("#pairings").replaceChildren(
    h("tr", {}, ...["projector.table", "projector.side0", "projector.side1", "projector.result"].map((key) => h("th", { text: t(key) }))),
    ...(round?.tables || []).map((table) =>
      h(
        "tr",
        { testid: "projector-table" },
        h("td", { text: String(table.table) }),
        ...[0, 1].map((side) => h("td", { testid: "projector-side", text: sideText(table, side) })),
        h("td", { testid: "projector-result", text: resultCell(table, round) }),
      ),
    ),
    round?.bye ? h("tr", {}, h("td", { colspan: "4", text: t("event.bye", { team: teamName(round.bye) }) })) : "",
  );
  document.querySelector("#standings").replaceChildren(
    h("tr", {}, ...["projector.rank", "projector.team", "projector.points", "projector.progressive", "projector.level_difference"].map((key) =>
      h("th", { text: t(key, { n: event?.config?.level_table ?? 26 }) }),
    )),
    ...(event?.standings || []).map((row) =>
      h(
        "tr",
        { testid: "projector-standing" },
        h("td", { text: String(row.rank) }),
        h("td.team-name", { text: row.name }),
        h("td", { text: String(row.points) }),
        h("td", { text: String(row.progressive) }),
        h("td", { text: String(row.level_difference) }),
      ),
    ),
  );
  window.__projector = { event };
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/events/${encodeURIComponent(eventId)}`);
  const pinger = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send('{"type": "ping"}'), 20000);
  socket.addEventListener("message", (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "event" && data.event) {
      current = data.event;
      render();
    }
  });
  socket.addEventListener("close", (close) => {
    clearInterval(pinger);
    if (close.code !== 4404) setTimeout(connect, 2000);
  });
}

initPage(render);
render();
connect();

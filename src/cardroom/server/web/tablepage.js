// What every game's table page shares (Guandan's table.js, Shengji's shengji.js): the websocket
// (protocol 1, docs/protocol.md) and its messages, the app state the tests read (window.__cardroom),
// seat names, toasts and banners, the hand's layout and selection by click or drag, the waiting screen,
// taking a seat (signed in: the account's; its owner may take it again on another device).
// A page sets `hooks` to draw itself.

import { errorWithSignIn, initAccountBar } from "./account.js";
import {
  api,
  CLOSE,
  copyText,
  endpoints,
  forgetToken,
  h,
  isBotAccount,
  loadName,
  loadToken,
  reconnectPlan,
  saveName,
  saveToken,
  session,
  socketUrl,
  tableUrl,
} from "./common.js";
import { rankText, refusalText } from "./cards.js";
import { applyI18n, bindLangButton, botLabel, onLangChange, t } from "./i18n.js";
import { openReplay } from "./replay.js";
import { bindSoundButton, chatMenu, played as tones, severalPeople, showChat, tone, vibrate } from "./tabletools.js";

export const $ = (sel) => document.querySelector(sel);
export const tableId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");

export const app = {
  tableId,
  token: loadToken(tableId),
  seat: null, // my seat, from welcome
  table: null, // welcome.table
  state: null,
  eventTeams: undefined, // an event's table: its sides' team names (loadEventTeams)
  number: 0, // last event number seen
  selected: new Set(), // indices into state.hand
  handKey: "",
  pending: false, // an act sent, no state since
  connected: false,
  dismissed: new Set(), // result screens closed by the player ("deal:3", "match")
  events: [],
  hints: 0, // hint answers received (the tests wait on it)
  lastHint: null,
  errors: [], // error messages received
  legal: null, // the last `legal` answer (app.requestLegal())
  check: null, // {key, id, ok, readings, message, reason, args}: the server's answer on the selection (checkPlay)
  checks: 0, // check messages sent (each answer names its id)
  clockOffset: 0,
  sitError: null, // the last refusal to sit (shown on the waiting screen, with a sign-in link if it helps)
  retries: 0, // messages sent again after a rate_limited answer (docs/protocol.md, "Limits")
  halted: null, // the `halted` message while the table cannot store (until the next state)
  retryAfter: null, // seconds, from the last `unavailable` error (a 1013 close follows it)
  nodes: [], // the other live processes' public URLs (GET /api/nodes), tried when ours is gone
  origin: location.origin, // where the socket connects now
  closes: [], // the close codes seen (the tests read them)
  chats: [], // quick chat messages received (the tests read them)
  myTurn: false, // whether the last state was my turn (the turn's sound plays when it becomes so)
  tones, // the tones played, newest last (a headless browser has no speaker: the tests read them)
};
window.__cardroom = app; // for the browser tests and for debugging (app.render() redraws)

/** What the page draws and does when a message comes: set by the page before `connect()`. */
export const hooks = {
  render: () => {},
  hint: () => {},
  reset: () => {}, // forget what was sent and not answered (a state or an error came)
  controls: () => {},
  selection: () => {}, // the selection changed
  hand: () => {},
  overlay: () => {},
  event: () => {}, // an event came (sounds, animations, what the page tracks)
  legal: () => {}, // a `legal` answer came
  lastTrick: () => null, // the panel of the last trick, or null
};

app.render = () => hooks.render();
app.dropConnection = () => socket && socket.close(); // the page reconnects by itself
app.requestLegal = () => send({ type: "legal" }); // tools and tests: the seat's legal actions → app.legal

let socket = null;
let retry = 0;
let pingTimer = null;

// ---------------------------------------------------------------- connection

function wsUrl() {
  return socketUrl(app.origin, `/ws/tables/${encodeURIComponent(tableId)}`);
}

/** Ask our process for the live processes' public URLs (a failure keeps the list known). */
function loadNodes() {
  api("GET", "/api/nodes")
    .then((data) => {
      if (Array.isArray(data?.nodes)) app.nodes = data.nodes;
    })
    .catch(() => {});
}

// The questions sent and not answered yet ("hint", "legal", a "check" by its id): a rate_limited
// answer (docs/protocol.md, "Limits") is followed by asking again after its retry_after.
const asked = { hint: null, legal: null, check: null };

export function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    if (message.type in asked) asked[message.type] = message;
    return true;
  }
  return false;
}

/** A rate_limited answer to a question the page asked: ask again once the wait is over (true). An
 * answer that names no question the page is waiting on (an `act`, say) is for onError to show. */
function retryLater(message) {
  const sent = Object.hasOwn(asked, message.refused) ? asked[message.refused] : null;
  if (!sent || (sent.type === "check" && sent.id !== message.id)) return false;
  const wait = Math.min(10, Math.max(0.05, Number(message.retry_after) || 0.5)) * 1000;
  setTimeout(() => {
    if (asked[sent.type] !== sent) return; // answered, or asked anew meanwhile
    if (sent.type === "check" && app.check?.id !== sent.id) return; // the selection changed
    app.retries += 1;
    send(sent);
  }, wait);
  return true;
}

export function connect() {
  socket = new WebSocket(wsUrl());
  const mine = socket;
  let opened = false;
  socket.addEventListener("open", () => {
    if (mine !== socket) return;
    opened = true;
    retry = 0;
    send({ type: "join", token: app.token, since: app.number });
    clearInterval(pingTimer);
    pingTimer = setInterval(() => send({ type: "ping" }), 20000);
  });
  socket.addEventListener("message", (event) => {
    if (mine !== socket) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (_) {
      return;
    }
    onMessage(message);
  });
  socket.addEventListener("close", (event) => {
    if (mine !== socket) return;
    setConnected(false);
    clearInterval(pingTimer);
    app.closes.push(event.code);
    const origins = endpoints(location.origin, app.nodes);
    const current = Math.max(0, origins.indexOf(app.origin));
    const closed = { code: event.code, opened, retryAfter: app.retryAfter };
    const plan = app.gone ? null : reconnectPlan(closed, retry, origins.length, current, Math.random());
    app.retryAfter = null;
    if (!plan) {
      if (event.code === CLOSE.signedOut) {
        // this browser's session ended (signed out here or elsewhere, a password change)
        app.signedOut = true;
        showBanner(t("conn.signedOut"));
      } else if (!app.gone) {
        showBanner(t(event.code === CLOSE.expired ? "error.table_expired" : "error.unknown_table"));
      }
      return;
    }
    retry += 1;
    app.origin = origins[plan.index];
    setTimeout(connect, plan.delay);
  });
}

export function setConnected(on) {
  app.connected = on;
  const conn = $("#conn");
  conn.textContent = on ? t("conn.online") : t("conn.offline");
  conn.title = conn.textContent;
  conn.className = on ? "conn online" : "conn offline";
  $("#table").dataset.connected = on ? "1" : "0";
}

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      app.table = message.table ?? app.table;
      app.seat = message.seat ?? null;
      setConnected(true);
      loadNodes();
      if (app.token && app.seat === null) {
        // The token did not seat us: it is stale.
        forgetToken(tableId);
        app.token = null;
      }
      break;
    case "event":
      if (typeof message.number === "number") app.number = Math.max(app.number, message.number);
      app.events.push(message.event);
      if (app.events.length > 200) app.events.shift();
      if (message.event) hooks.event(message.event);
      break;
    case "chat":
      app.chats.push(message);
      showChat(message, () => hooks.render());
      break;
    case "halted":
      app.halted = message;
      showBanner(t("banner.halted"));
      break;
    case "state":
      if (app.halted) {
        app.halted = null;
        showBanner("");
      }
      app.state = message;
      if (message.event && app.eventTeams === undefined) loadEventTeams(message.event);
      if (typeof message.server_time === "number") app.clockOffset = message.server_time - Date.now() / 1000;
      if (typeof message.number === "number") app.number = message.number;
      if (message.seat !== undefined && message.seat !== null) app.seat = message.seat;
      app.pending = false;
      noteTurn(message);
      hooks.reset();
      hooks.render();
      break;
    case "hint":
      asked.hint = null;
      hooks.hint(message.action, message);
      break;
    case "checked":
      if (asked.check?.id === message.id) asked.check = null;
      onChecked(message);
      break;
    case "legal":
      asked.legal = null;
      app.legal = message.actions ?? [];
      hooks.legal(app.legal, message.number);
      break;
    case "error":
      onError(message);
      break;
    case "pong":
    default:
      break;
  }
}

const TURN_PHASES = ["play", "tribute", "return", "kitty", "tricks"];

/** A tone (and a short vibration) when it becomes my turn to play, pay or bury. */
function noteTurn(s) {
  const mine = app.seat !== null && s.turn === app.seat && s.to_act !== false && TURN_PHASES.includes(s.phase);
  if (mine && !app.myTurn) {
    tone("turn");
    vibrate(40);
  }
  app.myTurn = mine;
}

/** Ask the server whether ``cards`` may be played now (none: forget the question); the answer,
 * with the selection's readings or the rule's error, lands in app.check. */
export function checkPlay(cards) {
  const s = app.state;
  if (!s || !cards.length) {
    app.check = null;
    return;
  }
  const key = `${s.number}|${[...cards].sort().join(" ")}`;
  if (app.check?.key === key) return;
  app.checks += 1;
  app.check = { key, id: app.checks, ok: null, readings: [], message: "" };
  send({ type: "check", id: app.checks, action: { type: "play", cards } });
}

function onChecked(message) {
  if (!app.check || message.id !== app.check.id) return;
  app.check.ok = !!message.ok;
  app.check.readings = message.readings ?? [];
  app.check.message = message.message ?? "";
  app.check.reason = message.reason ?? null;
  app.check.args = message.args ?? {};
  hooks.controls();
}

function onError(message) {
  if (message.code === "rate_limited") {
    if (retryLater(message)) return; // a question, asked again after the wait; a refused act is shown
  } else {
    // The refusal answers the question asked last, if any: it is not asked again.
    asked.hint = null;
    asked.legal = null;
  }
  app.pending = false;
  hooks.reset();
  app.errors.push(message);
  if (message.code === "bad_token") {
    // The connection stays open: join again as a spectator.
    forgetToken(tableId);
    app.token = null;
    showBanner(t("error.bad_token"));
    send({ type: "join", token: null, since: app.number });
    return;
  }
  if (message.code === "seat_replaced") {
    // The seat was taken again elsewhere: the server closes this socket; the page reconnects to watch.
    forgetToken(tableId);
    app.token = null;
    showBanner(t("error.seat_replaced"));
    return;
  }
  if (message.code === "unknown_table" || message.code === "table_expired") {
    app.gone = true;
    showBanner(t(`error.${message.code}`));
    return;
  }
  if (message.code === "unavailable") {
    app.retryAfter = message.retry_after ?? null;
    toast(t("error.unavailable"));
    hooks.controls();
    return;
  }
  toast(refusalText(message) ?? (message.message || message.code));
  hooks.controls();
}


export function seats() {
  return app.state?.seats ?? [];
}

export function seatName(seat) {
  if (seat === null || seat === undefined) return "?";
  const info = seats()[seat];
  if (!info) return t("seat.label", { n: seat + 1 });
  // An event's bots play under the event's names; elsewhere bots have the server's generic name
  // ("heuristic bot"): tell them apart by seat.
  if (info.kind === "bot") return app.state?.event && info.name ? info.name : t("seat.botName", { n: seat + 1 });
  if (info.name) return info.name;
  return t("seat.label", { n: seat + 1 });
}

/** An event's table names its sides by the event's teams (GET /api/events/{id}), not "Team A". */
async function loadEventTeams(link) {
  app.eventTeams = null;
  try {
    const event = await api("GET", `/api/events/${encodeURIComponent(link.id)}`);
    const table = event.rounds?.[link.round - 1]?.tables?.find((item) => item.table === link.table);
    const names = (table?.teams || []).map((id) => event.teams.find((team) => team.id === id)?.name || id);
    if (names.length === 2) {
      app.eventTeams = names;
      hooks.render();
    }
  } catch (_) {
    // the generic names stay
  }
}

export function teamName(team) {
  let name = app.eventTeams?.[team] || t(`team.${team}`);
  if (app.seat !== null && app.seat !== undefined) {
    name += ` (${app.seat % 2 === team ? t("team.ours") : t("team.theirs")})`;
  }
  return name;
}

export function bottomSeat() {
  return app.seat ?? 0;
}


let toastTimer = null;
export function toast(text) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 3500);
}

export function showBanner(text) {
  const box = $("#error-banner");
  box.textContent = text;
  box.hidden = !text;
}


export function act(action) {
  if (app.pending) return;
  if (send({ type: "act", action })) {
    app.pending = true;
    hooks.selection();
  }
}

/** The server's clock now: its `server_time` plus the time since that state came. */
export function serverNow() {
  return Date.now() / 1000 + (app.clockOffset || 0);
}

export function layoutHand(hand, elements) {
  // The content box: clientWidth counts the padding, and a row that wide would cut the first card.
  const style = getComputedStyle(hand);
  const padding = (parseFloat(style.paddingLeft) || 0) + (parseFloat(style.paddingRight) || 0);
  const width = (hand.clientWidth || window.innerWidth) - padding - 6; // 6: room for a selected card's ring
  const cardWidth = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 60;
  const n = elements.length;
  const minStep = Math.max(16, cardWidth * 0.36);
  let rows = 1;
  if (n > 1 && cardWidth + (n - 1) * minStep > width) rows = 2;
  const perRow = Math.ceil(n / rows) || 1;
  const step = perRow > 1 ? Math.min(cardWidth * 0.62, (width - cardWidth - 4) / (perRow - 1)) : cardWidth;
  const rowEls = [];
  for (let r = 0; r < rows; r++) {
    const row = h("div.hand-row");
    elements.slice(r * perRow, (r + 1) * perRow).forEach((el, i) => {
      if (i > 0) el.style.marginLeft = `${step - cardWidth}px`;
      row.append(el);
    });
    rowEls.push(row);
  }
  hand.replaceChildren(...rowEls);
  hand.dataset.rows = String(rows);
}

export function setSelected(index, on) {
  if (on) app.selected.add(index);
  else app.selected.delete(index);
  const el = document.querySelector(`#hand .hand-card[data-index="${index}"]`);
  if (el) {
    el.classList.toggle("selected", on);
    el.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

function cardAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el ? el.closest("#hand .hand-card") : null;
}

let drag = null;

export function bindHand() {
  const hand = $("#hand");
  hand.addEventListener("pointerdown", (event) => {
    const card = event.target.closest(".hand-card");
    if (!card || event.button > 0) return;
    event.preventDefault();
    if (card.hasPointerCapture?.(event.pointerId)) card.releasePointerCapture(event.pointerId);
    const index = Number(card.dataset.index);
    const on = !app.selected.has(index);
    drag = { on, last: index };
    setSelected(index, on);
    hooks.selection();
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const card = cardAt(event.clientX, event.clientY);
    if (!card) return;
    const index = Number(card.dataset.index);
    if (index === drag.last) return;
    // Fill the run between the last card and this one, so a fast drag misses nothing.
    const [lo, hi] = index > drag.last ? [drag.last + 1, index] : [index, drag.last - 1];
    for (let i = lo; i <= hi; i++) setSelected(i, drag.on);
    drag.last = index;
    hooks.selection();
  });
  const stop = () => {
    drag = null;
  };
  window.addEventListener("pointerup", stop);
  window.addEventListener("pointercancel", stop);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(hooks.hand, 80);
  });
}

export function closeButton(key) {
  return h("button.btn", {
    type: "button",
    testid: "overlay-close",
    text: t("btn.close"),
    onclick: () => {
      app.dismissed.add(key);
      hooks.overlay();
    },
  });
}

export function waitingPanel(s) {
  const account = session.account;
  const rows = seats().map((info, seat) => {
    const taken = info.kind === "bot" || !!info.name;
    const label =
      info.kind === "bot"
        ? `${t("seat.bot")} · ${botLabel(info.bot)}`
        : info.name && isBotAccount(info.account)
          ? t("seat.botAccount", { name: info.name })
          : info.name || t("seat.open");
    const row = h(`div.wait-seat.team${seat % 2}`, { testid: `wait-seat-${seat}` }, h(`span.team-dot.team${seat % 2}`), h("span", { text: `${t("seat.label", { n: seat + 1 })}: ${label}` }));
    if (!taken && app.seat === null && ownSeat() === null && (account || !s.event)) {
      row.append(h("button.btn.small.primary", { type: "button", testid: `sit-${seat}`, text: t("waiting.sit"), onclick: () => sitAt(seat) }));
    }
    return row;
  });
  const nameInput = app.seat === null && !account && !s.event ? h("input#sit-name", { testid: "sit-name", maxlength: "24", value: loadName(), placeholder: t("lobby.name.placeholder") }) : null;
  return h(
    "div.panel.screen",
    { testid: "waiting-screen", dataset: { screen: "waiting" } },
    h("h2", { text: t("waiting.title") }),
    h("p", { testid: "waiting-note", text: t(s.event ? "waiting.event" : "waiting.note") }),
    h("div.share", {}, h("input", { readonly: true, value: tableUrl(tableId), testid: "waiting-link" }), h("button.btn", { type: "button", text: t("lobby.copy"), onclick: () => copyText(tableUrl(tableId)).then(() => toast(t("top.copied"))) })),
    nameInput ? h("label.field", {}, h("span", { text: t("waiting.name") }), nameInput) : null,
    app.seat === null && account && ownSeat() === null ? h("p.note", { testid: "sit-account", text: t("waiting.account", { name: account.name }) }) : null,
    app.sitError ? h("p.error", { testid: "sit-error", role: "alert" }, ...errorWithSignIn(app.sitError)) : null,
    h("div.wait-seats", {}, ...rows),
  );
}

/** Take a seat (signed in: under the account's name, whatever the field says) and join with it. */
async function takeSeat(seat, name) {
  const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`, { name });
  saveToken(tableId, answer.token);
  app.token = answer.token;
  app.sitError = null;
  send({ type: "join", token: app.token, since: app.number }); // the same socket, now seated
}

async function sitAt(seat) {
  const input = $("#sit-name");
  const name = session.account?.name || (input && input.value.trim()) || t("lobby.name.placeholder");
  if (!session.account) saveName(name);
  try {
    await takeSeat(seat, name);
  } catch (error) {
    app.sitError = error;
    hooks.overlay();
  }
}

/** The seat the signed-in account owns at this table while this browser holds no token for it. */
export function ownSeat() {
  const key = session.account?.key;
  if (!key || app.seat !== null) return null;
  const found = seats().find((info) => info.account === key);
  return found ? found.seat ?? seats().indexOf(found) : null;
}

/** The banner offering the account's seat here ("Take my seat here": a new token, the old one ends). */
function renderOwnSeat() {
  const banner = $("#seat-banner");
  if (!banner) return;
  const seat = ownSeat();
  const open = seat !== null && app.state?.table?.status !== "finished";
  banner.hidden = !open;
  if (!open) {
    banner.replaceChildren();
    return;
  }
  banner.replaceChildren(
    h("span", { text: t("seat.mine", { n: seat + 1, name: session.account.name }) }),
    h("button.btn.primary.small", {
      type: "button",
      testid: "take-seat",
      text: t("seat.take"),
      onclick: async (event) => {
        event.target.disabled = true;
        try {
          await takeSeat(seat, session.account.name);
        } catch (error) {
          event.target.disabled = false;
          toast(error.message);
        }
      },
    }),
  );
}

// ---------------------------------------------------------------- drawing what both games show

/** The table's data attributes (the tests read them) and the spectator's look. */
export function markTable(myTurn) {
  const s = app.state;
  const root = $("#table");
  root.dataset.phase = s.phase ?? "";
  root.dataset.turn = s.turn ?? "";
  root.dataset.seat = app.seat ?? "";
  root.dataset.myTurn = myTurn ? "1" : "0";
  root.dataset.number = String(app.number);
  root.dataset.deal = String(s.deal_number ?? 0);
  root.dataset.status = s.table?.status ?? "";
  document.body.classList.toggle("spectator", app.seat === null);
  const mine = app.seat !== null ? seats()[app.seat] : null;
  $("#auto-banner").hidden = !(mine && mine.auto);
  document.body.classList.toggle("auto-on", !!mine?.auto);
  const autoButton = $("#auto-toggle");
  autoButton.hidden = !mine || s.table?.status !== "running";
  autoButton.textContent = mine?.auto ? t("auto.off") : t("auto.on");
  autoButton.setAttribute("aria-pressed", mine?.auto ? "true" : "false");
  autoButton.classList.toggle("warn", !!mine?.auto);
  $("#chat-open").hidden = !mine || !severalPeople(seats());
  const trick = hooks.lastTrick() !== null;
  $("#last-trick-open").disabled = !trick;
  if (app.popover === "trick") showPopover("trick", hooks.lastTrick());
  $("#spectator-banner").hidden = app.seat !== null;
  renderOwnSeat();
}

/** Show ``panel`` in the small popover (``key`` names what it shows; a null panel closes it). */
export function showPopover(key, panel) {
  const box = $("#popover");
  app.popover = panel ? key : null;
  box.hidden = !panel;
  box.dataset.shows = panel ? key : "";
  box.replaceChildren(...(panel ? [panel] : []));
}

function togglePopover(key, make) {
  showPopover(key, app.popover === key ? null : make());
}

/** The top bar's title and both teams' levels (`playing`: the team whose level is played). */
export function renderTitleAndLevels(title, playing, more) {
  const s = app.state;
  $("#table-title").textContent = title;
  document.title = title;
  const levels = s.levels ?? ["2", "2"];
  $("#levels").replaceChildren(
    ...[
      h("span.levels-label", { text: t("top.levels") }),
      ...[0, 1].map((team) =>
        h(
          `span.level-chip.team${team}`,
          { testid: `level-team-${team}`, class: `level-chip team${team}${playing === team ? " playing" : ""}` },
          `${teamName(team)} ${rankText(levels[team])}`,
        ),
      ),
      s.level ? h("span.level-current", { testid: "level-current", text: t("top.playing", { level: rankText(s.level) }) }) : null,
      app.table?.config?.rated ? h("span.badge.rated", { testid: "table-rated", title: t("lobby.rated.note"), text: t("top.rated") }) : null,
      ...more,
    ].filter(Boolean),
  );
}

/** The badges every seat may wear: you, a bot, 托管, a bot account's faults, offline. */
export function seatBadges(info, seat) {
  const badges = [];
  if (seat === app.seat) badges.push(h("span.badge.you", { text: t("badge.you") }));
  if (info.kind === "bot") badges.push(h("span.badge.bot", { text: botLabel(info.bot) || t("badge.bot") }));
  if (isBotAccount(info.account)) badges.push(h("span.badge.bot", { testid: "bot-account-badge", text: t("badge.bot") }));
  if (info.auto) badges.push(h("span.badge.auto", { testid: "auto-badge", text: t("auto.badge") }));
  if (info.faults) badges.push(h("span.badge.faults", { testid: "faults-badge", title: t("badge.faults.note"), text: t("badge.faults", { n: info.faults }) }));
  if (info.kind !== "bot" && info.connected === false && info.name) badges.push(h("span.badge.offline", { text: t("badge.offline") }));
  return badges;
}

/** The seconds left on the seat clocks shown. */
export function tickSeatClocks() {
  const s = app.state;
  if (!s) return;
  for (const clock of document.querySelectorAll(".seat .clock")) {
    if (clock.hidden || !s.deadline) continue;
    const left = Math.max(0, Math.ceil(s.deadline - serverNow()));
    clock.textContent = String(left);
    clock.classList.toggle("low", left <= 5);
  }
}

/** Show ``panel`` over the table (``null``: none); a toast about the table under a panel that opens
 * now (a hint as the deal ends) goes with it, rather than covering the panel. */
export function showOverlay(panel) {
  const overlay = $("#overlay");
  if (panel && overlay.hidden) $("#toast").hidden = true;
  overlay.hidden = !panel;
  overlay.dataset.screen = panel ? panel.dataset.screen : "";
  overlay.replaceChildren(...(panel ? [panel] : []));
}

/** The match's end: the winner and the final levels (and what a game adds). */
export function matchPanel(winnerText, extra = []) {
  const s = app.state;
  const levels = s.result?.levels ?? s.levels ?? ["2", "2"];
  return h(
    "div.panel.screen",
    { testid: "match-result", dataset: { screen: "match" } },
    h("h2", { text: t("match.title") }),
    h("p.winner", { text: winnerText }),
    h("p", { text: t("match.levels", { a: `${teamName(0)} ${rankText(levels[0])}`, b: `${teamName(1)} ${rankText(levels[1])}` }) }),
    ...extra,
    h(
      "div.buttons",
      {},
      s.event
        ? h("a.btn.primary", {
            href: `/events/${encodeURIComponent(s.event.id)}`,
            testid: "back-to-event",
            text: t("btn.event", { name: s.event.name }),
          })
        : h("a.btn.primary", { href: "/", text: t("btn.lobby") }),
      h("button.btn", { type: "button", text: t("top.replay"), onclick: () => openReplay(app) }),
      closeButton("match"),
    ),
  );
}

/** Start the page: its hooks, the language, the hand, its controls, the clocks' tick, the socket. */
export function startPage(pageHooks, { bindControls, tick, render }) {
  Object.assign(hooks, pageHooks);
  applyI18n();
  bindLangButton($("#lang"));
  onLangChange(() => {
    setConnected(app.connected);
    if (app.halted) showBanner(t("banner.halted"));
    render();
  });
  // The account decides the waiting screen's name field and the offer of the account's own seat.
  initAccountBar().then(() => app.state && render());
  bindHand();
  bindControls();
  $("#resume").addEventListener("click", () => send({ type: "resume" }));
  $("#auto-toggle").addEventListener("click", () => {
    const mine = app.seat !== null ? seats()[app.seat] : null;
    if (mine) send({ type: "auto", on: !mine.auto });
  });
  const closePopover = () => showPopover(null, null);
  $("#chat-open").addEventListener("click", () => togglePopover("chat", () => chatMenu(send, closePopover)));
  $("#last-trick-open").addEventListener("click", () => togglePopover("trick", () => hooks.lastTrick()));
  const soundLabel = bindSoundButton($("#sound"));
  onLangChange(soundLabel);
  $("#share").addEventListener("click", async () => {
    if (await copyText(tableUrl(tableId))) toast(t("top.copied"));
    else toast(tableUrl(tableId));
  });
  $("#replay-open").addEventListener("click", () => openReplay(app));
  setConnected(false);
  setInterval(tick, 250);
  connect();
  if (new URLSearchParams(location.search).has("replay")) openReplay(app);
}

// The table page: one websocket (protocol 1, docs/protocol.md), the `state` view drawn as it comes.
// The page keeps no game logic of its own: it asks the server whether a selection may be played
// (`check`, answered by `checked` with the selection's readings).

import { h } from "./common.js";
import { cardElement, cardRow, cardText, describePlay, isJoker, rankOf, rankText, refusalText } from "./cards.js";
import { t } from "./i18n.js";
import { openReplay } from "./replay.js";
import { chatBubble, flash, tone, trickPanel, vibrate } from "./tabletools.js";
import {
  $,
  act,
  app,
  bottomSeat,
  checkPlay,
  closeButton,
  layoutHand,
  markTable,
  matchPanel as sharedMatchPanel,
  renderTitleAndLevels,
  seatBadges,
  seatName,
  seats,
  send,
  serverNow,
  showOverlay,
  showPopover,
  startPage,
  tableId,
  teamName,
  tickSeatClocks,
  toast,
  waitingPanel,
} from "./tablepage.js";

const BOMBS = new Set(["Bomb", "StraightFlush", "FourKings", "ThreeKings", "ChainBomb"]);
const SEQUENCES = new Set(["Straight", "StraightFlush", "ThreePair", "TwoTrips", "Airplane", "ChainBomb"]);
const COUNTER_KEY = "cardroom:counter";
const RECEIVED_MS = 4000;
const SHOWN_PENALTIES = 2;

Object.assign(app, {
  readingsFor: null, // the plays offered by the reading chooser
  tributeChoice: null,
  choosing: false, // a `choose` sent, no state since
  hintCycle: null, // {number, list, index, bot, legal}: the good choices Hint cycles through on this turn
  played: { deal: 0, cards: [] }, // the cards played in the deal (from the events): the counter reads them
  received: { key: "", until: 0 }, // a card received (tribute or return), highlighted for a moment
  counterOn: null, // switched on or off on this page; null: the default (counterShown)
});


function loadCounter() {
  try {
    return localStorage.getItem(COUNTER_KEY) === "1";
  } catch (_) {
    return false;
  }
}

/** A rated table's match counts for ratings: the counter starts off there, whatever this browser
 * remembers from casual tables (the player may still switch it on). */
function ratedTable() {
  return !!(app.table?.config?.rated || app.table?.config?.event || app.state?.event);
}

function counterShown() {
  return app.counterOn ?? (ratedTable() ? false : loadCounter());
}

// ---------------------------------------------------------------- helpers

function isMyTurn() {
  const s = app.state;
  return !!s && app.seat !== null && s.turn === app.seat && !!s.to_act;
}

function selectedCards() {
  const hand = app.state?.hand ?? [];
  return [...app.selected].sort((a, b) => a - b).map((i) => hand[i]).filter(Boolean);
}

/** Ask the server whether the selection may be played now (and how it reads). */
function checkSelection() {
  checkPlay(app.state?.phase === "play" && isMyTurn() ? selectedCards() : []);
}

/** The readings of the selection the server accepted (several: the player chooses). */
function matchingPlays() {
  return app.check?.ok ? app.check.readings : [];
}

function distinctReadings(plays) {
  const seen = new Map();
  for (const play of plays) {
    const key = `${play.kind}|${play.rank}`;
    if (!seen.has(key)) seen.set(key, play);
  }
  return [...seen.values()];
}

// ---------------------------------------------------------------- actions

function playSelected() {
  const plays = distinctReadings(matchingPlays());
  if (!plays.length || !isMyTurn()) return;
  if (plays.length === 1) {
    sendPlay(plays[0]);
    return;
  }
  app.readingsFor = plays;
  renderReadings();
}

function sendPlay(play) {
  const action = { type: "play", cards: play.cards };
  if (play.kind) action.kind = play.kind;
  if (play.rank) action.rank = play.rank;
  act(action);
}

/** Hint: the first press asks the server for the bot's choice and for the legal plays; each later press
 * on the same turn shows the next of the good choices (the bot's first, then the others ranked). */
function askHint() {
  const s = app.state;
  if (s?.phase !== "play") {
    send({ type: "hint" });
    return;
  }
  const cycle = app.hintCycle;
  if (cycle && cycle.number === s.number && cycle.list) {
    cycle.index = (cycle.index + 1) % cycle.list.length;
    showHint(cycle.list[cycle.index]);
    return;
  }
  if (cycle && cycle.number === s?.number) return; // asked already: the answers are on their way
  app.hintCycle = { number: s?.number, list: null, index: 0, bot: undefined, legal: null };
  send({ type: "hint" });
  send({ type: "legal" });
}

/** Rank of a play's key card for ordering: low first (a sequence by its lowest rank). */
function strength(play, level) {
  const rank = play.rank ?? "";
  if (SEQUENCES.has(play.kind)) return "A23456789TJQKA".indexOf(rank);
  if (rank === "R") return 17;
  if (rank === "B") return 16;
  if (rank === level) return 15;
  return "23456789TJQKA".indexOf(rank) + 2;
}

/** The good choices, best first: the bot's; then plays that keep bombs and the wild card (lowest
 * first, longer first at a lead), then bombs (smallest first), then pass. One per reading. */
export function rankChoices(bot, legal, s) {
  const level = s.level;
  const plays = legal.filter((a) => a.type === "play");
  const wild = s.wild;
  const cost = (p) => [BOMBS.has(p.kind) ? 1 : 0, (p.cards ?? []).includes(wild) ? 1 : 0];
  const key = (p) => `${p.kind}|${p.rank}|${[...(p.cards ?? [])].sort().join(" ")}`;
  const seen = new Set();
  const readings = new Set();
  const out = [];
  const add = (action) => {
    if (!action) return;
    const k = action.type === "play" ? key(action) : action.type;
    const reading = action.type === "play" ? `${action.kind}|${action.rank}` : action.type;
    if (seen.has(k) || readings.has(reading)) return;
    seen.add(k);
    readings.add(reading);
    out.push(action);
  };
  add(bot);
  const sorted = [...plays].sort((a, b) => {
    const [ba, wa] = cost(a);
    const [bb, wb] = cost(b);
    if (ba !== bb) return ba - bb;
    if (wa !== wb) return wa - wb;
    if (ba && a.cards.length !== b.cards.length) return a.cards.length - b.cards.length;
    const d = strength(a, level) - strength(b, level);
    if (d) return d;
    return (b.cards?.length ?? 0) - (a.cards?.length ?? 0);
  });
  sorted.forEach(add);
  if (s.can_pass) add({ type: "pass" });
  return out;
}

function onLegal(actions, number) {
  const cycle = app.hintCycle;
  if (!cycle || cycle.number !== number) return;
  cycle.legal = actions;
  buildCycle();
}

function buildCycle() {
  const cycle = app.hintCycle;
  if (!cycle || cycle.bot === undefined || cycle.legal === null || cycle.list) return;
  cycle.list = rankChoices(cycle.bot, cycle.legal, app.state);
  if (!cycle.list.length) cycle.list = null;
}

function applyHint(action) {
  const cycle = app.hintCycle;
  if (cycle && cycle.bot === undefined && app.state?.phase === "play") {
    cycle.bot = action ?? null;
    buildCycle();
  }
  showHint(action);
}

function showHint(action) {
  app.hints += 1;
  app.lastHint = action ?? null;
  if (!action) {
    toast(t("hint.none"));
    return;
  }
  if (action.type === "pass") {
    app.selected.clear();
    renderHand();
    renderControls();
    toast(t("hint.pass"));
    return;
  }
  if (action.type === "tribute" || action.type === "return") {
    app.tributeChoice = action.card;
    renderOverlay();
    return;
  }
  if (action.type === "play") {
    const hand = app.state?.hand ?? [];
    app.selected.clear();
    for (const code of action.cards ?? []) {
      const index = hand.findIndex((card, i) => card === code && !app.selected.has(i));
      if (index >= 0) app.selected.add(index);
    }
    app.readingsFor = null;
    renderHand();
    checkSelection();
    renderControls();
  }
}

// ---------------------------------------------------------------- rendering

function render() {
  const s = app.state;
  if (!s) return;
  markTable(isMyTurn());
  const key = (s.hand ?? []).join(" ");
  if (key !== app.handKey) {
    app.handKey = key;
    app.selected.clear();
    app.readingsFor = null;
    app.check = null;
  }
  if (!isMyTurn()) app.readingsFor = null;
  checkSelection();
  noteReceived();
  renderTop();
  renderSeats();
  renderCenter();
  renderHand();
  renderControls();
  renderOverlay();
  renderChoice();
  renderCounter();
  renderPenalties();
  $("#replay-open").hidden = !(s.last_deal || (s.deal_number ?? 0) > 1 || s.phase === "finished");
}

function renderTop() {
  const s = app.state;
  const table = s.table ?? app.table ?? {};
  const more = [
    s.deal_number ? h("span.muted", { text: t("top.deal", { n: s.deal_number }) }) : null,
    s.event
      ? h("a.event-link", { href: `/events/${encodeURIComponent(s.event.id)}`, testid: "top-event-link", text: t("top.event") })
      : null,
  ];
  renderTitleAndLevels(table.name || tableId, s.level_team, more);
  document.title = `${table.name || tableId} · ${t("app.title")}`;
}

/** The match's penalties (a tournament table's clocks, 托管, lateness and the director's), in the page's
 * words, in a banner above the felt. */
function renderPenalties() {
  const penalties = app.state.penalties ?? [];
  const box = $("#penalty-banner");
  box.hidden = penalties.length === 0;
  const lines = penalties.slice(-SHOWN_PENALTIES).map((p) =>
    t(p.deal > 0 ? "table.penalty.line" : "table.penalty.before", {
      deal: p.deal,
      who: p.seat === null || p.seat === undefined ? teamName(p.side) : seatName(p.seat),
      penalty: t(`penalty.${p.penalty}`),
      cause: t(p.escalated ? "offence.escalated" : `offence.${p.offence}`),
    }),
  );
  const earlier = penalties.length - lines.length;
  box.replaceChildren(
    h("span", { text: earlier > 0 ? t("table.penalties.more", { n: earlier }) : t("table.penalties") }),
    ...lines.map((text) => h("span.penalty", { testid: "table-penalty", text })),
  );
}

/** The seat's place in this deal, 0 = 上游 … 3 = 下游 (the state counts from 1). */
function placeOf(seat) {
  const info = seats()[seat];
  if (info && typeof info.place === "number" && info.place >= 1) return info.place - 1;
  return null;
}

function renderSeats() {
  const s = app.state;
  const base = bottomSeat();
  for (let pos = 0; pos < 4; pos++) {
    const seat = (base + pos) % 4;
    const info = seats()[seat] ?? { seat, kind: "human", name: null, cards: 0 };
    const box = $(`#pos-${pos}`);
    box.dataset.testid = `seat-${seat}`;
    box.dataset.seat = String(seat);
    box.className = `seat pos-${["bottom", "right", "top", "left"][pos]} team${seat % 2}`;
    if (s.turn === seat && ["play", "tribute", "return"].includes(s.phase)) box.classList.add("active");
    const badges = seatBadges(info, seat);
    const place = placeOf(seat);
    if (place !== null) badges.push(h("span.badge.place", { testid: "place-badge", text: t(`place.${place}`) }));
    const count = info.cards ?? 0;
    const countEl = h("span.count", { testid: "card-count", title: String(count) }, h("span.back"), String(count));
    const report =
      count > 0 && count <= 10 && s.phase !== "waiting"
        ? h("span.badge.report", { testid: "report-badge", text: t("badge.report", { n: count }) })
        : null;
    const clock = h("span.clock", { testid: "clock", hidden: !(s.turn === seat && s.deadline) });
    const infoBox = h(
      "div.seat-info",
      {},
      h("div.seat-name", {}, h(`span.team-dot.team${seat % 2}`, { title: teamName(seat % 2) }), h("span.name", { testid: "seat-name", text: seatName(seat) })),
      h("div.seat-meta", {}, s.phase === "waiting" ? null : countEl, report, clock),
      badges.length ? h("div.badges", {}, ...badges) : null,
    );
    // The trick stays on the table until the next lead: while the leader has not led, the last
    // trick's plays are shown, its winner marked; in a trick, the play to beat is marked.
    const kept = keptTrick();
    const last = kept ? kept.plays[seat] : info.last;
    let playBox;
    if (!last) playBox = h("div.last-play.empty", { testid: "last-play" });
    else if (last.type === "pass") playBox = h("div.last-play.pass", { testid: "last-play" }, h("span.pass-text", { text: t("played.pass") }));
    else
      playBox = h(
        "div.last-play",
        { testid: "last-play", title: describePlay(last) },
        cardRow(last.cards ?? [], { level: s.level, wild: s.wild }),
        h("span.play-kind", { text: describePlay(last) }),
      );
    if (kept) {
      playBox.classList.add("previous");
      if (kept.winner === seat && last) playBox.append(h("span.badge.winner", { testid: "trick-winner", text: t("trick.won") }));
    } else if (s.to_beat && s.to_beat.seat === seat && last && last.type !== "pass") {
      playBox.classList.add("to-beat");
      playBox.append(h("span.badge.to-beat", { testid: "to-beat", text: t("trick.toBeat") }));
    }
    const playKey = last ? `${s.deal_number}|${JSON.stringify(last)}|${kept ? "k" : ""}` : "";
    if (last && !kept && app.shownPlays?.[seat] !== playKey) flash(playBox, "play-in");
    app.shownPlays = app.shownPlays ?? {};
    app.shownPlays[seat] = playKey;
    box.replaceChildren(infoBox, playBox, chatBubble(seat) ?? "");
  }
  tickClocks();
}

/** The last trick while it stays on the table (no play yet in the next one), else null. */
function keptTrick() {
  const s = app.state;
  if (!s || s.phase !== "play" || !s.last_trick) return null;
  if (seats().some((info) => info.last)) return null;
  return s.last_trick;
}

/** The "last trick" panel (every play and pass in the order made, the lead and the winner marked), or null. */
function lastTrickPanel() {
  const s = app.state;
  const trick = s?.phase === "play" ? s.last_trick : null;
  if (!trick) return null;
  const order = trick.order ?? [0, 1, 2, 3].map((seat) => ({ seat, play: trick.plays[seat] }));
  const winning = order.map((made) => made.seat === trick.winner && made.play && made.play.type !== "pass").lastIndexOf(true);
  const rows = order.map(({ seat, play }, index) => {
    const content = !play
      ? h("span.muted", { text: "—" })
      : play.type === "pass"
        ? h("span.pass-text", { text: t("played.pass") })
        : h("span.trick-play", {}, cardRow(play.cards ?? [], { level: s.level, wild: s.wild }), h("span.play-kind", { text: describePlay(play) }));
    return [seatName(seat), content, index === winning, index === 0 && !!play && play.type !== "pass"];
  });
  return trickPanel(t("trick.title"), rows, t("trick.next", { name: seatName(trick.leader) }), () => showPopover(null, null));
}

function tickClocks() {
  if (!app.state) return;
  tickChoice();
  tickSeatClocks();
}

function renderCenter() {
  const s = app.state;
  const center = $("#center");
  const parts = [];
  const phase = s.phase;
  if (phase === "play" || phase === "tribute" || phase === "return") {
    if (s.turn !== null && s.turn !== undefined) {
      const text = isMyTurn() ? (s.can_pass ? t("turn.yours") : t("turn.lead")) : t("turn.other", { name: seatName(s.turn) });
      parts.push(h("div.turn-note", { testid: "turn-note", class: isMyTurn() ? "turn-note mine" : "turn-note", text }));
    }
  }
  const handed = tributeLines();
  if (handed.length && (phase !== "play" || !seats().some((x) => x.last))) parts.push(h("div.tribute-lines", {}, ...handed.map((line) => h("div", { text: line }))));
  center.replaceChildren(...parts);
}

function tributeLines() {
  const s = app.state;
  const lines = [];
  for (const seat of s.anti_tribute ?? []) lines.push(t("tribute.anti", { name: seatName(seat) }));
  for (const tr of s.tributes ?? []) {
    if (tr.to === null || tr.to === undefined) {
      lines.push(t("tribute.facedown", { from: seatName(tr.from), card: tr.card ? cardText(tr.card) : "" }));
    } else {
      lines.push(t("tribute.paid", { from: seatName(tr.from), to: seatName(tr.to), card: tr.card ? cardText(tr.card) : "?" }));
    }
  }
  for (const r of s.returns ?? []) {
    lines.push(
      r.card
        ? t("return.paid", { from: seatName(r.from), to: seatName(r.to), card: cardText(r.card) })
        : t("return.hidden", { from: seatName(r.from), to: seatName(r.to) }),
    );
  }
  return lines;
}

// ---------------------------------------------------------------- the hand


function renderHand() {
  const s = app.state;
  const hand = $("#hand");
  if (!s || !s.hand) {
    hand.replaceChildren();
    hand.hidden = true;
    $("#legend").hidden = true;
    return;
  }
  const empty = s.hand.length === 0;
  hand.hidden = empty;
  $("#legend").hidden = empty;
  const elements = s.hand.map((code, index) => {
    const el = cardElement(code, { level: s.level, wild: s.wild });
    el.classList.add("hand-card");
    el.dataset.testid = "hand-card";
    el.dataset.index = String(index);
    if (app.selected.has(index)) el.classList.add("selected");
    el.setAttribute("aria-pressed", app.selected.has(index) ? "true" : "false");
    return el;
  });
  if (app.received.card && Date.now() < app.received.until) {
    const el = elements.find((e) => e.dataset.card === app.received.card);
    if (el) {
      el.classList.add("received");
      el.dataset.received = "1";
      el.title = `${el.title} · ${t("hand.received")}`;
    }
  }
  layoutHand(hand, elements);
}

/** A card handed to me this deal (a tribute, a return): highlighted in the hand for a moment. */
function noteReceived() {
  const s = app.state;
  if (app.seat === null) return;
  const mine = [...(s.tributes ?? []), ...(s.returns ?? [])].filter((x) => x.to === app.seat && x.card);
  const got = mine[mine.length - 1];
  if (!got) return;
  const key = `${s.deal_number}|${got.from}|${got.card}`;
  if (app.received.key === key) return;
  app.received = { key, card: got.card, until: Date.now() + RECEIVED_MS };
  setTimeout(renderHand, RECEIVED_MS + 50);
}

// ---------------------------------------------------------------- the card counter (记牌器)

/** What each event means for the page: the cards played (the counter), a bomb's and a deal end's
 * sound and animation. Events of the first join (before any state) only count. */
function onEvent(event) {
  if (event.type === "deal") {
    app.played = { deal: event.deal_number, cards: [] };
    return;
  }
  const live = app.state !== null;
  if (event.type === "action" && Array.isArray(event.action?.play)) {
    const [kind, , cards] = event.action.play;
    if (kind === "PASS") return;
    app.played.cards.push(...(cards ?? []));
    if (live && BOMBS.has(kind)) {
      tone("bomb");
      vibrate([80, 40, 80]);
      flash($("#table"), "bomb-shake");
    }
  } else if (event.type === "deal_end" && live) {
    tone("end");
    flash($("#table"), "deal-glow");
  }
}

/** How many of each rank are still out (not in my hand, not played): jokers, the ♥ level card and the
 * other level cards apart, then A … 2. */
export function counterCells(s, played) {
  const level = s.level;
  const wild = s.wild;
  const ranks = ["R", "B", "W", "L", ..."AKQJT98765432".split("").filter((r) => r !== level)];
  const total = { R: 2, B: 2, W: 2, L: 6 };
  const gone = {};
  for (const code of [...(s.hand ?? []), ...played]) {
    let key = rankOf(code);
    if (code === wild) key = "W";
    else if (!isJoker(code) && key === level) key = "L";
    gone[key] = (gone[key] ?? 0) + 1;
  }
  return ranks.map((rank) => ({ rank, out: Math.max(0, (total[rank] ?? 8) - (gone[rank] ?? 0)) }));
}

function counterLabel(rank, s) {
  if (rank === "R" || rank === "B") return t(`counter.${rank}`);
  if (rank === "W") return `♥${rankText(s.level)}`;
  if (rank === "L") return t("counter.level", { rank: rankText(s.level) });
  return rankText(rank);
}

function renderCounter() {
  const s = app.state;
  const box = $("#counter");
  const toggle = $("#counter-toggle");
  const seated = app.seat !== null && !!s?.hand;
  toggle.hidden = !seated;
  const on = counterShown();
  toggle.textContent = t(on ? "counter.hide" : "counter.button");
  toggle.setAttribute("aria-pressed", on ? "true" : "false");
  const open = seated && on && ["play", "tribute", "return"].includes(s.phase) && app.played.deal === s.deal_number;
  box.hidden = !open;
  if (!open) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    h("span.counter-title", { text: t("counter.title") }),
    ...counterCells(s, app.played.cards).map(({ rank, out }) =>
      h(
        "span.counter-cell",
        { testid: "counter-cell", dataset: { rank, out: String(out) }, class: `counter-cell${out === 0 ? " gone" : ""}` },
        h("span.counter-rank", { text: counterLabel(rank, s) }),
        h("span.counter-out", { text: String(out) }),
      ),
    ),
  );
}

// ---------------------------------------------------------------- controls

function renderControls() {
  const s = app.state;
  const controls = $("#controls");
  const seated = app.seat !== null;
  controls.hidden = !seated || !s || s.phase !== "play";
  if (!s || !seated) return;
  const myTurn = isMyTurn() && s.phase === "play";
  const matches = myTurn ? matchingPlays() : [];
  const canPass = myTurn && s.can_pass;
  $("#play").disabled = !myTurn || app.pending || matches.length === 0;
  $("#pass").disabled = !canPass || app.pending;
  $("#hint").disabled = !isMyTurn() || app.pending;
  $("#clear").disabled = app.selected.size === 0;
  controls.dataset.myTurn = myTurn ? "1" : "0";
  const line = $("#status-line");
  let text = "";
  let cls = "status-line";
  if (myTurn) {
    if (!app.selected.size) text = canPass ? t("turn.yours") : t("turn.lead");
    else if (!app.check || app.check.ok === null) text = t("select.checking");
    else if (!matches.length) {
      const refused = app.check && app.check.ok === false ? app.check : null;
      text = refused
        ? refusalText(refused) ?? t("sj.select.illegal", { reason: refused.message })
        : t("select.illegal");
      cls += " bad";
    } else text = distinctReadings(matches).map(describePlay).join(" / ");
  } else if (s.phase === "play" && s.turn === app.seat && !s.to_act) {
    // My turn, nothing legal: play waits for my 下家's choice (违例: skip my turn or not).
    text = t("choice.waiting", { name: seatName((s.turn + 1) % 4) });
  } else if (s.phase === "play" && s.turn !== null && s.turn !== undefined) {
    text = t("turn.other", { name: seatName(s.turn) });
  }
  line.textContent = text;
  line.className = cls;
  renderReadings();
}

function renderReadings() {
  const box = $("#readings");
  const plays = app.readingsFor;
  if (!plays || !plays.length) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  box.replaceChildren(
    h("span.readings-title", { text: t("reading.title") }),
    ...plays.map((play) =>
      h("button.btn.small", {
        type: "button",
        testid: "reading-option",
        dataset: { kind: play.kind ?? "", rank: play.rank ?? "" },
        text: describePlay(play),
        onclick: () => sendPlay(play),
      }),
    ),
  );
}

function bindControls() {
  $("#play").addEventListener("click", playSelected);
  $("#pass").addEventListener("click", () => act({ type: "pass" }));
  $("#hint").addEventListener("click", askHint);
  $("#counter-toggle").addEventListener("click", () => {
    app.counterOn = !counterShown();
    if (!ratedTable()) {
      try {
        localStorage.setItem(COUNTER_KEY, app.counterOn ? "1" : "0");
      } catch (_) {
        // not remembered
      }
    }
    renderCounter();
  });
  $("#clear").addEventListener("click", () => {
    app.selected.clear();
    app.readingsFor = null;
    renderHand();
    renderControls();
  });
  document.addEventListener("keydown", (event) => {
    // Enter plays the selection, Escape clears it (not while a button or a field has the focus).
    if (event.target.closest("input, textarea, select, button, a")) return;
    if (!$("#replay").hidden) return;
    if (event.key === "Enter" && !$("#play").disabled) playSelected();
    else if (event.key === "Escape") $("#clear").click();
  });
}

// ---------------------------------------------------------------- screens (overlay)

function renderOverlay() {
  showOverlay(overlayPanel(app.state));
}

function overlayPanel(s) {
  if (!s) return null;
  const status = s.table?.status;
  if (s.phase === "waiting" || status === "waiting") return waitingPanel(s);
  if ((s.phase === "finished" || s.result) && !app.dismissed.has("match")) return matchPanel(s);
  if (s.phase === "between" && s.last_deal && !app.dismissed.has(`deal:${s.last_deal.deal_number}`)) return dealPanel(s);
  if (s.phase === "tribute" || s.phase === "return") return tributePanel(s);
  return null;
}

function tributePanel(s) {
  const tribute = s.phase === "tribute";
  const type = tribute ? "tribute" : "return";
  const mine = isMyTurn();
  const children = [h("h2", { text: t(tribute ? "tribute.title" : "return.title") })];
  const lines = tributeLines();
  if (mine) {
    const candidates = s.options ?? [];
    const to = tributeTarget(s, tribute);
    children.push(h("p", { text: to === null ? t(`${type}.payAny`) : t(`${type}.pay`, { name: seatName(to) }) }));
    if (to !== null && to === (app.seat + 2) % 4) {
      // The 下游 pays the 上游 even when they are partners (docs/rules/competition.md#tribute-single).
      children.push(h("p.note", { testid: "tribute-partner", text: t(`${type}.partner`, { name: seatName(to) }) }));
    }
    if (!candidates.includes(app.tributeChoice)) app.tributeChoice = candidates.length === 1 ? candidates[0] : null;
    const row = h("div.choices", { testid: `${type}-choices` });
    for (const code of candidates) {
      const el = cardElement(code, { level: s.level, wild: s.wild });
      el.dataset.testid = `${type}-card`;
      el.classList.add("choice");
      if (code === app.tributeChoice) el.classList.add("selected");
      el.addEventListener("click", () => {
        app.tributeChoice = code;
        renderOverlay();
      });
      row.append(el);
    }
    children.push(row);
    children.push(
      h(
        "div.buttons",
        {},
        h("button.btn", { type: "button", testid: "tribute-hint", text: t("btn.hint"), onclick: askHint }),
        h("button.btn.primary", {
          type: "button",
          testid: `${type}-submit`,
          text: t(tribute ? "btn.give" : "btn.return"),
          disabled: !app.tributeChoice || app.pending,
          onclick: () => act({ type, card: app.tributeChoice }),
        }),
      ),
    );
  } else {
    children.push(h("p", { text: t(`${type}.wait`, { name: seatName(s.turn) }) }));
  }
  if (lines.length) children.push(h("div.tribute-lines", {}, ...lines.map((line) => h("div", { text: line }))));
  return h("div.panel.screen", { testid: `${type}-screen`, dataset: { screen: type } }, ...children);
}

/** Whom my tribute or return goes to, when the state tells it unambiguously. */
function tributeTarget(s, tribute) {
  if (!tribute) {
    const paid = (s.tributes ?? []).find((tr) => tr.to === app.seat);
    return paid ? paid.from : null;
  }
  const places = s.last_deal?.places;
  if (!places || places.length < 4) return null;
  const double = places[0] % 2 === places[1] % 2;
  return double ? null : places[0];
}

function dealPanel(s) {
  const last = s.last_deal;
  const places = last.places ?? [];
  const winnerTeam = places.length ? places[0] % 2 : null;
  const levels = last.levels ?? s.levels ?? ["2", "2"];
  return h(
    "div.panel.screen",
    { testid: "deal-result", dataset: { screen: "deal" } },
    h("h2", { text: t("deal.title", { n: last.deal_number }) }),
    h("h3", { text: t("deal.places") }),
    h(
      "ol.places",
      {},
      ...places.map((seat, i) => h(`li.team${seat % 2}`, {}, h("span.place", { text: t(`place.${i}`) }), h("span", { text: seatName(seat) }), h(`span.team-dot.team${seat % 2}`, { title: teamName(seat % 2) }))),
    ),
    last.foul
      ? h("p.foul", {
          testid: "deal-foul",
          dataset: { offence: last.foul.offence ?? "" },
          text: t(last.foul.offence === "late" ? "deal.foul.late" : "deal.foul", { name: seatName(last.foul.seat), team: teamName(last.foul.side) }),
        })
      : null,
    h("p.rise", { testid: "deal-rise", text: last.rise && winnerTeam !== null ? t("deal.rise", { team: teamName(winnerTeam), n: last.rise }) : t("deal.norise") }),
    h("p", { text: t("deal.levels", { a: `${teamName(0)} ${rankText(levels[0])}`, b: `${teamName(1)} ${rankText(levels[1])}` }) }),
    h("p.muted", { text: t("deal.next") }),
    h("div.buttons", {}, h("button.btn", { type: "button", testid: "deal-replay", text: t("top.replay"), onclick: () => openReplay(app) }), closeButton(`deal:${last.deal_number}`)),
  );
}

function matchPanel(s) {
  const result = s.result ?? {};
  const score = result.score ?? result.points ?? null;
  const winner = result.winner;
  const text = winner === null || winner === undefined ? t("match.draw") : t("match.winner", { team: teamName(winner) });
  const forfeit =
    result.reason === "forfeit" && typeof result.forfeited_by === "number"
      ? h("p.forfeit", { testid: "match-forfeit", text: t("match.forfeit", { team: teamName(result.forfeited_by) }) })
      : null;
  return sharedMatchPanel(text, [
    forfeit,
    score ? h("p.score", { testid: "match-score", text: t("match.score", { a: score[0], b: score[1] }) }) : null,
  ]);
}

// ---------------------------------------------------------------- the 下家's choice (违例, 犯规)

/** `state.choice` (mine only): skip the offender's next turn? / who leads the next deal? */
function renderChoice() {
  const box = $("#choice");
  const choice = app.seat !== null ? app.state?.choice : null;
  if (!choice) {
    box.hidden = true;
    box.dataset.kind = "";
    box.replaceChildren();
    return;
  }
  const offender = seatName(choice.offender);
  let title;
  let note;
  let buttons;
  if (choice.kind === "skip_turn") {
    title = t("choice.skip.title", { name: offender });
    note = t("choice.skip.note", { name: offender });
    buttons = [
      h("button.btn.primary", { type: "button", testid: "choice-skip-yes", text: t("choice.skip.yes"), disabled: app.choosing, onclick: () => choose({ skip: true }) }),
      h("button.btn", { type: "button", testid: "choice-skip-no", text: t("choice.skip.no"), disabled: app.choosing, onclick: () => choose({ skip: false }) }),
    ];
  } else {
    title = t("choice.leader.title");
    note = t("choice.leader.note", { name: offender });
    buttons = (choice.seats ?? [0, 1, 2, 3]).map((seat) =>
      h(`button.btn.team${seat % 2}`, {
        type: "button",
        testid: `choice-leader-${seat}`,
        text: seat === app.seat ? `${seatName(seat)} (${t("badge.you")})` : seatName(seat),
        disabled: app.choosing,
        onclick: () => choose({ leader: seat }),
      }),
    );
  }
  box.hidden = false;
  box.dataset.kind = choice.kind;
  box.replaceChildren(
    h(
      "div.panel",
      {},
      h("h3", { testid: "choice-title", text: title }),
      h("p.muted", { text: note }),
      h("div.buttons", {}, ...buttons),
      h("p.choice-clock", { testid: "choice-clock" }),
    ),
  );
  tickChoice();
}

function tickChoice() {
  const choice = app.state?.choice;
  const clock = document.querySelector("#choice .choice-clock");
  if (!choice || !clock || typeof choice.deadline !== "number") return;
  clock.textContent = t("choice.left", { n: Math.max(0, Math.ceil(choice.deadline - serverNow())) });
}

function choose(answer) {
  if (app.choosing) return;
  if (send({ type: "choose", ...answer })) {
    app.choosing = true;
    renderChoice();
  }
}

// ---------------------------------------------------------------- start

function start() {
  const pageHooks = {
    render,
    hint: applyHint,
    reset: () => {
      app.choosing = false;
    },
    controls: renderControls,
    selection: () => {
      app.readingsFor = null;
      checkSelection();
      renderControls();
    },
    hand: renderHand,
    overlay: renderOverlay,
    event: onEvent,
    legal: onLegal,
    lastTrick: lastTrickPanel,
  };
  startPage(pageHooks, { bindControls, tick: tickClocks, render });
}

start();

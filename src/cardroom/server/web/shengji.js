// The Shengji (升级) table page: the cards arrive one by one while any seat may declare (叫主, 反主),
// the dealer buries the kitty (扣底), then tricks. The page holds no rules: it asks the server whether a
// selection may be played (`check`, answered by `checked`) before it is sent.

import { h } from "./common.js";
import { cardElement, cardRow, cardText, rankText, refusalText, SUIT_SYMBOL, suitOf } from "./cards.js";
import { t } from "./i18n.js";
import { openReplay } from "./replay.js";
import { chatBubble, flash, tone, trickPanel } from "./tabletools.js";
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
  showOverlay,
  showPopover,
  startPage,
  tableId,
  teamName,
  tickSeatClocks,
  toast,
  waitingPanel,
} from "./tablepage.js";

const BURY = 8;

app.hintCycle = null; // {number, list, index}: the bot's choices Hint cycles through on this turn
const NO_WILD = "none"; // Shengji has no wild card: cards.js marks none

// ---------------------------------------------------------------- helpers

function isMyTurn() {
  const s = app.state;
  return !!s && app.seat !== null && s.turn === app.seat;
}

function selectedCards() {
  const hand = app.state?.hand ?? [];
  return [...app.selected].sort((a, b) => a - b).map((i) => hand[i]).filter(Boolean);
}

function cardsText(cards) {
  return cards.map(cardText).join(" ");
}

function trumpText(s) {
  if (!s.trump_settled) {
    if (!s.declaration) return t("sj.top.undeclared");
    const suit = suitOf(s.declaration.cards[0]);
    return suit ? t("sj.top.declared", { suit: SUIT_SYMBOL[suit] }) : t("sj.top.notrump");
  }
  return s.trump ? t("sj.top.trump", { suit: SUIT_SYMBOL[s.trump] }) : t("sj.top.notrump");
}

/** Ask the server whether the selection may be played now (tricks only). */
function checkSelection() {
  checkPlay(app.state?.phase === "tricks" && isMyTurn() ? selectedCards() : []);
}

/** Hint: the first press on a turn asks the server for the bot's choices; each later press on the
 * same turn selects the next of them (the bot's own first). */
function askHint() {
  const s = app.state;
  const cycle = app.hintCycle;
  if (cycle && cycle.number === s?.number) {
    if (!cycle.list) return; // asked already: the answer is on its way
    cycle.index = (cycle.index + 1) % cycle.list.length;
    showHint(cycle.list[cycle.index]);
    return;
  }
  app.hintCycle = { number: s?.number, list: null, index: 0 };
  send({ type: "hint" });
}

function applyHint(action, message) {
  const cycle = app.hintCycle;
  if (cycle && cycle.number === message?.number && !cycle.list) {
    const choices = (message.choices ?? [action]).filter(Boolean);
    cycle.list = choices.length ? choices : null;
  }
  showHint(action);
}

function showHint(action) {
  app.hints += 1;
  app.lastHint = action ?? null;
  if (!action) return;
  if (action.type === "pass") {
    toast(t("sj.btn.pass"));
    return;
  }
  const hand = app.state?.hand ?? [];
  app.selected.clear();
  for (const code of action.cards ?? []) {
    const index = hand.findIndex((card, i) => card === code && !app.selected.has(i));
    if (index >= 0) app.selected.add(index);
  }
  renderHand();
  selectionChanged();
}

function selectionChanged() {
  checkSelection();
  renderControls();
}

// ---------------------------------------------------------------- rendering

function render() {
  const s = app.state;
  if (!s) return;
  markTable(isMyTurn());
  $("#table").dataset.game = "shengji";
  const key = `${s.phase}|${(s.hand ?? []).join(" ")}`;
  if (key !== app.handKey) {
    app.handKey = key;
    app.selected.clear();
    app.check = null;
  }
  renderTop();
  renderSeats();
  renderCenter();
  renderHand();
  checkSelection();
  renderControls();
  renderOverlay();
  $("#replay-open").hidden = !(s.last_deal || s.phase === "finished");
}

function renderTop() {
  const s = app.state;
  const table = s.table ?? app.table ?? {};
  const dealerTeam = typeof s.dealer === "number" ? s.dealer % 2 : null;
  const ladder = t("sj.top.ladder", { ladder: (s.ladder ?? []).map(rankText).join("·"), must: (s.must_play ?? []).map(rankText).join("·") });
  renderTitleAndLevels(`${table.name || tableId} · ${t("sj.title.short")}`, dealerTeam, [
    s.deal_number ? h("span.trump", { testid: "trump", text: trumpText(s), title: ladder }) : null,
    s.deal_number ? h("span.points", { testid: "points", text: t("sj.top.points", { n: s.points ?? 0 }) }) : null,
    h("span.muted.ladder", { testid: "ladder", text: ladder }),
  ]);
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
    if (s.turn === seat && ["declare", "kitty", "tricks"].includes(s.phase)) box.classList.add("active");
    const badges = seatBadges(info, seat);
    if (info.dealer) badges.splice(seat === app.seat ? 1 : 0, 0, h("span.badge.dealer", { testid: "dealer-badge", text: t("sj.badge.dealer") }));
    const count = info.cards ?? 0;
    const clock = h("span.clock", { testid: "clock", hidden: !(s.turn === seat && s.deadline && info.kind !== "bot" && !info.auto) });
    const infoBox = h(
      "div.seat-info",
      {},
      h("div.seat-name", {}, h(`span.team-dot.team${seat % 2}`, { title: teamName(seat % 2) }), h("span.name", { testid: "seat-name", text: seatName(seat) })),
      h("div.seat-meta", {}, s.phase === "waiting" ? null : h("span.count", { testid: "card-count", title: String(count) }, h("span.back"), String(count)), clock),
      badges.length ? h("div.badges", {}, ...badges) : null,
    );
    // The trick stays on the table until the next lead: its plays, the leader and the winner marked.
    const kept = keptTrick();
    const played = kept ? kept.plays.find((p) => p.seat === seat)?.cards : info.played;
    const playBox = played
      ? h("div.last-play", { testid: "last-play", title: cardsText(played) }, cardRow(played, { level: s.level, wild: NO_WILD }))
      : h("div.last-play.empty", { testid: "last-play" });
    const trick = kept ?? s.trick;
    if (played && trick?.leader === seat) playBox.append(h("span.badge.leader", { testid: "trick-leader", text: t("trick.led") }));
    if (kept) {
      playBox.classList.add("previous");
      if (kept.winner === seat) playBox.append(h("span.badge.winner", { testid: "trick-winner", text: t("sj.trick.won", { points: kept.points }) }));
    }
    const playKey = played ? `${s.deal_number}|${s.tricks_played}|${played.join(" ")}` : "";
    if (played && !kept && app.shownPlays?.[seat] !== playKey) flash(playBox, "play-in");
    app.shownPlays = app.shownPlays ?? {};
    app.shownPlays[seat] = playKey;
    box.replaceChildren(infoBox, playBox, chatBubble(seat) ?? "");
  }
  tickSeatClocks();
}

/** The last trick while it stays on the table (the next not led yet), else null. */
function keptTrick() {
  const s = app.state;
  if (!s || s.phase !== "tricks" || !s.last_trick || (s.trick?.plays ?? []).length) return null;
  return s.last_trick;
}

/** The "last trick" panel: each seat's cards, the leader and the winner marked, its points. */
function lastTrickPanel() {
  const s = app.state;
  const trick = s && ["tricks", "between"].includes(s.phase) ? s.last_trick : null;
  if (!trick) return null;
  const rows = trick.plays.map(({ seat, cards }) => [
    seatName(seat),
    h("span.trick-play", {}, cardRow(cards, { level: s.level, wild: NO_WILD })),
    trick.winner === seat,
    trick.leader === seat,
  ]);
  return trickPanel(t("trick.title"), rows, t("sj.trick.points", { name: seatName(trick.winner), points: trick.points }), () => showPopover(null, null));
}

function onEvent(event) {
  if (event.type === "deal_end" && app.state) {
    tone("end");
    flash($("#table"), "deal-glow");
  }
}

function renderCenter() {
  const s = app.state;
  const parts = [];
  if (s.phase === "declare") {
    const dealt = (s.seats ?? []).reduce((sum, seat) => sum + (seat.cards ?? 0), 0);
    parts.push(h("div.turn-note", { testid: "dealing-note", text: t("sj.phase.declare", { n: dealt }) }));
  }
  if (s.declaration) {
    parts.push(h("div", { testid: "declaration", text: t("sj.declared", { name: seatName(s.declaration.seat), cards: cardsText(s.declaration.cards) }) }));
  } else if (s.turned_card && s.phase !== "declare") {
    parts.push(h("div", { testid: "turned-card", text: t("sj.turned", { card: cardText(s.turned_card) }) }));
  }
  if (s.phase === "kitty" && !isMyTurn()) parts.push(h("div.turn-note", { text: t("sj.bury.other", { name: seatName(s.turn) }) }));
  if (s.failed_throw) {
    parts.push(h("div.failed-throw", { testid: "failed-throw", text: t("sj.failed", { name: seatName(s.failed_throw.seat), penalty: s.failed_throw.penalty }) }));
  }
  if (s.phase === "tricks" && s.last_trick && !(s.trick?.plays ?? []).length) {
    parts.push(h("div.muted", { testid: "last-trick", text: t("sj.last.trick", { name: seatName(s.last_trick.winner), points: s.last_trick.points }) }));
  }
  if (s.phase === "kitty" || s.phase === "tricks") {
    const kitty = s.kitty ?? [];
    if (kitty.length) parts.push(h("div.kitty", { testid: "kitty" }, h("span.muted", { text: t("sj.deal.kitty") }), cardRow(kitty, { level: s.level, wild: NO_WILD })));
  }
  $("#center").replaceChildren(...parts);
}

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
  const suits = s.hand_suits ?? [];
  const elements = s.hand.map((code, index) => {
    const el = cardElement(code, { level: s.level, wild: NO_WILD });
    el.classList.add("hand-card");
    el.dataset.testid = "hand-card";
    el.dataset.index = String(index);
    el.dataset.suit = suits[index] ?? "";
    if (suits[index] === "T") {
      el.classList.add("trump");
      if (!el.querySelector(".tag") && !el.classList.contains("joker")) el.append(h("span.tag.trump-tag", { text: t("sj.tag.trump") }));
    }
    if (index > 0 && suits[index] !== suits[index - 1]) el.classList.add("suit-start");
    if (app.selected.has(index)) el.classList.add("selected");
    el.setAttribute("aria-pressed", app.selected.has(index) ? "true" : "false");
    return el;
  });
  layoutHand(hand, elements);
}

// ---------------------------------------------------------------- controls

function renderControls() {
  const s = app.state;
  const controls = $("#controls");
  const seated = app.seat !== null;
  controls.hidden = !seated || !s || !["declare", "kitty", "tricks"].includes(s.phase);
  if (!s || !seated) return;
  const mine = isMyTurn();
  const chosen = selectedCards();
  const declaring = s.phase === "declare";
  const burying = s.phase === "kitty";
  const tricks = s.phase === "tricks";
  $("#pass").hidden = !declaring;
  $("#pass").disabled = !mine || app.pending;
  $("#bury").hidden = !burying;
  $("#bury").disabled = !mine || app.pending || chosen.length !== BURY;
  $("#play").hidden = !tricks;
  $("#play").disabled = !mine || app.pending || !app.check?.ok;
  $("#hint").disabled = !mine || app.pending || declaring;
  $("#clear").disabled = app.selected.size === 0;
  controls.dataset.myTurn = mine ? "1" : "0";
  renderDeclarations(mine && declaring ? s.declarations ?? [] : []);
  const line = $("#status-line");
  let text = "";
  let cls = "status-line";
  if (mine && declaring) text = (s.declarations ?? []).length ? t("sj.declare.yours") : "";
  else if (mine && burying) text = chosen.length ? t("sj.bury.count", { n: chosen.length }) : t("sj.bury.yours");
  else if (mine && tricks) {
    if (!chosen.length) text = (s.trick?.plays ?? []).length ? t("sj.turn.follow") : t("sj.turn.lead");
    else if (!app.check || app.check.ok === null) text = t("select.checking");
    else if (!app.check.ok) {
      text = refusalText(app.check) ?? t("sj.select.illegal", { reason: app.check.message });
      cls += " bad";
    } else text = cardsText(chosen);
  } else if (s.turn !== null && s.turn !== undefined && !declaring) text = t("turn.other", { name: seatName(s.turn) });
  line.textContent = text;
  line.className = cls;
}

function renderDeclarations(options) {
  const box = $("#declare-options");
  box.hidden = !options.length;
  box.replaceChildren(
    ...options.map((cards) =>
      h("button.btn.primary.small", {
        type: "button",
        testid: "declare-option",
        dataset: { cards: cards.join(" ") },
        text: t("sj.btn.declare", { cards: cardsText(cards) }),
        disabled: app.pending,
        onclick: () => act({ type: "declare", cards }),
      }),
    ),
  );
}

function bindControls() {
  $("#play").addEventListener("click", () => {
    if (!$("#play").disabled) act({ type: "play", cards: selectedCards() });
  });
  $("#bury").addEventListener("click", () => {
    if (!$("#bury").disabled) act({ type: "bury", cards: selectedCards() });
  });
  $("#pass").addEventListener("click", () => act({ type: "pass" }));
  $("#hint").addEventListener("click", askHint);
  $("#clear").addEventListener("click", () => {
    app.selected.clear();
    renderHand();
    selectionChanged();
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select, button, a")) return;
    if (!$("#replay").hidden) return;
    if (event.key === "Enter") {
      if (!$("#play").hidden && !$("#play").disabled) $("#play").click();
      else if (!$("#bury").hidden && !$("#bury").disabled) $("#bury").click();
    } else if (event.key === "Escape") $("#clear").click();
  });
}

// ---------------------------------------------------------------- screens (overlay)

function renderOverlay() {
  showOverlay(overlayPanel(app.state));
}

function overlayPanel(s) {
  if (!s) return null;
  if (s.phase === "waiting" || s.table?.status === "waiting") return waitingPanel(s);
  if ((s.phase === "finished" || s.result) && !app.dismissed.has("match")) return matchPanel(s);
  if (s.phase === "between" && s.last_deal && !app.dismissed.has(`deal:${s.last_deal.deal_number}`)) return dealPanel(s);
  return null;
}

function dealPanel(s) {
  const last = s.last_deal;
  const dealers = last.dealer % 2;
  const rising = last.take_over ? 1 - dealers : dealers;
  const levels = last.levels_after ?? s.levels ?? ["2", "2"];
  const lines = [
    h("p.score", {
      testid: "deal-score",
      text: t("sj.deal.score", { score: last.score, cards: last.attackers_card_points, kitty: last.kitty_points, multiplier: last.kitty_multiplier, penalty: last.penalty }),
    }),
    h("p", { testid: "deal-outcome", text: last.take_over ? t("sj.deal.takeover") : t("sj.deal.keep") }),
    h("p.rise", { testid: "deal-rise", text: last.rise ? t("sj.deal.rise", { team: teamName(rising), n: last.rise }) : t("sj.deal.norise") }),
    last.reset ? h("p", { testid: "deal-reset", text: t("sj.deal.reset") }) : null,
    h("p", { text: t("deal.levels", { a: `${teamName(0)} ${rankText(levels[0])}`, b: `${teamName(1)} ${rankText(levels[1])}` }) }),
    last.passed_top ? null : h("p.muted", { testid: "deal-next-dealer", text: t("sj.deal.next", { name: seatName(last.next_dealer) }) }),
  ];
  return h(
    "div.panel.screen",
    { testid: "deal-result", dataset: { screen: "deal" } },
    h("h2", { text: t("sj.deal.title", { n: last.deal_number }) }),
    h("h3", { text: t("sj.deal.kitty") }),
    h("div.kitty", { testid: "deal-kitty" }, cardRow(last.kitty ?? [], { level: last.level, wild: NO_WILD })),
    ...lines.filter(Boolean),
    h("div.buttons", {}, h("button.btn", { type: "button", testid: "deal-replay", text: t("top.replay"), onclick: () => openReplay(app) }), closeButton(`deal:${last.deal_number}`)),
  );
}

function matchPanel(s) {
  const result = s.result ?? {};
  const winner = result.winner;
  const key = result.reason === "passed_top" ? "sj.match.passed" : "match.winner";
  return sharedMatchPanel(winner === null || winner === undefined ? t("match.draw") : t(key, { team: teamName(winner) }));
}

// ---------------------------------------------------------------- start

function start() {
  const pageHooks = {
    render,
    hint: applyHint,
    controls: renderControls,
    selection: selectionChanged,
    hand: renderHand,
    overlay: renderOverlay,
    event: onEvent,
    lastTrick: lastTrickPanel,
  };
  $("#pass").dataset.i18n = "sj.btn.pass"; // the page is Guandan's table.html: pass lets the dealing go on
  startPage(pageHooks, { bindControls, tick: tickSeatClocks, render });
}

start();

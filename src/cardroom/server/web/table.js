// The table page: one websocket (protocol 1, docs/protocol.md), the `state` view drawn as it comes.
// The page keeps no game logic of its own: it asks the server whether a selection may be played
// (`check`, answered by `checked` with the selection's readings).

import { h } from "./common.js";
import { cardElement, cardRow, cardsKey, cardText, describePlay, rankText } from "./cards.js";
import { t } from "./i18n.js";
import { openReplay } from "./replay.js";
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
  startPage,
  tableId,
  teamName,
  tickSeatClocks,
  toast,
  waitingPanel,
} from "./tablepage.js";

Object.assign(app, {
  readingsFor: null, // the plays offered by the reading chooser
  tributeChoice: null,
  choosing: false, // a `choose` sent, no state since
});

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

function applyHint(action) {
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
  renderTop();
  renderSeats();
  renderCenter();
  renderHand();
  renderControls();
  renderOverlay();
  renderChoice();
  $("#replay-open").hidden = !(s.last_deal || (s.deal_number ?? 0) > 1 || s.phase === "finished");
}

function renderTop() {
  const s = app.state;
  const table = s.table ?? app.table ?? {};
  const more = [s.deal_number ? h("span.muted", { text: t("top.deal", { n: s.deal_number }) }) : null];
  renderTitleAndLevels(table.name || tableId, s.level_team, more);
  document.title = `${table.name || tableId} · ${t("app.title")}`;
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
    const last = info.last;
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
    box.replaceChildren(infoBox, playBox);
  }
  tickClocks();
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
  layoutHand(hand, elements);
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
      text = t("select.illegal");
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
  $("#hint").addEventListener("click", () => send({ type: "hint" }));
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
        h("button.btn", { type: "button", testid: "tribute-hint", text: t("btn.hint"), onclick: () => send({ type: "hint" }) }),
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
  return sharedMatchPanel(text, [score ? h("p.score", { testid: "match-score", text: t("match.score", { a: score[0], b: score[1] }) }) : null]);
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
  };
  startPage(pageHooks, { bindControls, tick: tickClocks, render });
}

start();

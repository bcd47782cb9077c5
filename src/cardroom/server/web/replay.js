// Replay a finished deal: fetch the match record (GET /api/tables/{id}/record, docs/records.md) and
// step through its actions with every hand open. A Shengji deal's steps come from the server
// (GET /api/tables/{id}/deals/{n}/replay), which replays it with the rules core.

import { api, h } from "./common.js";
import { cardElement, cardRow, cardText, describePlay, orderValue, rankText, sortHand } from "./cards.js";
import { onLangChange, t } from "./i18n.js";

const view = {
  app: null,
  record: null,
  deal: 0,
  frames: [],
  step: 0,
  error: null,
  loading: false,
};

function box() {
  return document.querySelector("#replay");
}

function seatNames() {
  const names = view.record?.seats ?? [];
  const seats = view.app?.state?.seats ?? [];
  return [0, 1, 2, 3].map((seat) => {
    if (seats[seat]?.kind === "bot") return t("seat.botName", { n: seat + 1 });
    return names[seat] || seats[seat]?.name || t("seat.label", { n: seat + 1 });
  });
}

/** The finished deals of a record: all deals of a finished match, all but an unfinished last one. */
function finishedDeals(record) {
  const deals = record?.deals ?? [];
  const results = record?.result?.deals;
  if (Array.isArray(results)) return deals.slice(0, Math.max(results.length, 0));
  return deals;
}

function toPlay(triple) {
  const [type, rank, cards] = triple;
  if (type === "PASS") return { type: "pass" };
  return { type: "play", kind: type, rank, cards };
}

/** Every position of the deal: hands, each seat's show in the current trick, a line saying what happened. */
export function buildFrames(record, index) {
  const deal = record.deals[index];
  const summary = record.result?.deals?.[index] ?? null;
  const previous = index > 0 ? record.result?.deals?.[index - 1] ?? null : null;
  const level = summary?.level ?? (index === 0 ? "2" : null);
  const names = seatNames();
  const hands = deal.hands.map((text) => (text ? text.split(/\s+/).filter(Boolean) : []));
  const frames = [];
  let shows = [null, null, null, null];
  const snapshot = (note, actor) =>
    frames.push({ hands: hands.map((hand) => sortHand(hand, level)), shows: [...shows], note, actor });
  snapshot(t("replay.start"), null);

  const places = previous?.places ?? null;
  const paidTo = {}; // receiver seat -> payer seat
  const pending = []; // tributes paid face down, waiting for the second payer
  let lastPlayer = null;
  let passes = 0;
  let trickOver = false;

  const take = (seat, card) => {
    const at = hands[seat].indexOf(card);
    if (at >= 0) hands[seat].splice(at, 1);
  };

  for (const action of deal.actions ?? []) {
    const seat = action.seat;
    if ("tribute" in action) {
      const card = action.tribute;
      take(seat, card);
      let note = t("replay.tribute", { from: names[seat], to: "?", card: cardText(card) });
      if (places) {
        const double = places[0] % 2 === places[1] % 2;
        if (!double) {
          hands[places[0]].push(card);
          paidTo[places[0]] = seat;
          note = t("replay.tribute", { from: names[seat], to: names[places[0]], card: cardText(card) });
        } else {
          pending.push({ seat, card });
          if (pending.length === 2) {
            const [a, b] = pending;
            const diff = orderValue(a.card, level) - orderValue(b.card, level);
            let high = diff > 0 ? a : b;
            if (diff === 0) high = a.seat === (places[0] + 1) % 4 ? a : b;
            const low = high === a ? b : a;
            hands[places[0]].push(high.card);
            hands[places[1]].push(low.card);
            paidTo[places[0]] = high.seat;
            paidTo[places[1]] = low.seat;
          }
        }
      }
      shows = [null, null, null, null];
      shows[seat] = { type: "tribute", cards: [card] };
      snapshot(note, seat);
    } else if ("return" in action) {
      const card = action.return;
      take(seat, card);
      const to = paidTo[seat];
      if (to !== undefined) hands[to].push(card);
      shows = [null, null, null, null];
      shows[seat] = { type: "return", cards: [card] };
      snapshot(t("replay.return", { from: names[seat], to: to === undefined ? "?" : names[to], card: cardText(card) }), seat);
    } else if ("play" in action) {
      const play = toPlay(action.play);
      if (play.type === "pass") {
        passes += 1;
        shows[seat] = play;
        const active = hands.map((hand, s) => (hand.length > 0 ? s : null)).filter((s) => s !== null);
        const others = active.filter((s) => s !== lastPlayer).length;
        if (lastPlayer !== null && passes >= others) trickOver = true;
        snapshot(t("replay.pass", { from: names[seat] }), seat);
      } else {
        if (trickOver || lastPlayer === null) {
          shows = [null, null, null, null];
          trickOver = false;
        }
        for (const card of play.cards) take(seat, card);
        shows[seat] = play;
        lastPlayer = seat;
        passes = 0;
        snapshot(t("replay.play", { from: names[seat], play: describePlay(play) }), seat);
      }
    }
  }
  return { frames, level };
}

function isShengji() {
  return view.app?.state?.game === "shengji";
}

/** A Shengji frame's note (the server says what happened; the words are the page's language). */
function shengjiNote(note) {
  const names = seatNames();
  const text = (said) =>
    t(said.key, {
      name: said.seat === undefined || said.seat === null ? "" : names[said.seat],
      cards: (said.cards ?? []).map(cardText).join(" "),
      points: said.points ?? 0,
      score: said.score ?? 0,
    });
  return note.trick ? `${text(note)} · ${text(note.trick)}` : text(note);
}

async function loadShengjiDeal(index) {
  const data = await api("GET", `/api/tables/${encodeURIComponent(view.app.tableId)}/deals/${index + 1}/replay`);
  view.frames = data.frames;
  view.level = data.level;
  view.wild = "none"; // Shengji has no wild card
  view.step = 0;
}

async function load() {
  view.loading = true;
  view.error = null;
  draw();
  try {
    view.record = await api("GET", `/api/tables/${encodeURIComponent(view.app.tableId)}/record`);
    const deals = finishedDeals(view.record);
    view.deal = Math.max(0, deals.length - 1);
    if (isShengji() && deals.length) await loadShengjiDeal(view.deal);
    else select(view.deal);
  } catch (error) {
    view.error = error.message;
  }
  view.loading = false;
  draw();
}

function select(index) {
  view.deal = index;
  const deals = finishedDeals(view.record);
  if (!deals.length) {
    view.frames = [];
    return;
  }
  const built = buildFrames(view.record, index);
  view.wild = null;
  view.frames = built.frames;
  view.level = built.level;
  view.step = 0;
}

function go(step) {
  if (!view.frames.length) return;
  view.step = Math.max(0, Math.min(view.frames.length - 1, step));
  draw();
}

function close() {
  box().hidden = true;
  document.body.classList.remove("replaying");
}

function draw() {
  const root = box();
  if (root.hidden) return;
  const header = h(
    "div.replay-head",
    {},
    h("h2", { text: t("replay.title") }),
    h("span.spacer"),
    h("button.btn", { type: "button", testid: "replay-close", text: t("btn.close"), onclick: close }),
  );
  if (view.loading || view.error || !view.record) {
    root.replaceChildren(header, h("p.replay-note", { testid: "replay-note", text: view.error ? t("lobby.error", { message: view.error }) : t("replay.loading") }));
    return;
  }
  const deals = finishedDeals(view.record);
  if (!deals.length) {
    root.replaceChildren(header, h("p.replay-note", { testid: "replay-note", text: t("replay.none") }));
    return;
  }
  const selectDeal = h("select", {
    testid: "replay-deal",
    onchange: (event) => {
      view.deal = Number(event.target.value);
      if (!isShengji()) {
        select(view.deal);
        draw();
        return;
      }
      loadShengjiDeal(view.deal)
        .catch((error) => (view.error = error.message))
        .then(draw);
    },
  });
  deals.forEach((_, i) => selectDeal.append(h("option", { value: String(i), text: `${t("replay.deal")} ${i + 1}` })));
  selectDeal.value = String(view.deal);
  header.insertBefore(h("label.field.inline", {}, selectDeal), header.children[1]);

  const frame = view.frames[view.step];
  const names = seatNames();
  const base = view.app?.seat ?? 0;
  const seatsEls = [0, 1, 2, 3].map((pos) => {
    const seat = (base + pos) % 4;
    const show = frame.shows[seat];
    let showEl = h("div.last-play.empty");
    if (show && show.type === "pass") showEl = h("div.last-play.pass", {}, h("span.pass-text", { text: t("played.pass") }));
    else if (show && show.type === "cards") showEl = h("div.last-play", {}, cardRow(show.cards, { level: view.level, wild: view.wild }));
    else if (show) showEl = h("div.last-play", {}, cardRow(show.cards, { level: view.level, wild: view.wild }), h("span.play-kind", { text: show.type === "play" ? describePlay(show) : t(`${show.type}.title`) }));
    const hand = h("div.replay-hand", { testid: `replay-hand-${seat}` });
    for (const code of frame.hands[seat]) hand.append(cardElement(code, { level: view.level, wild: view.wild, small: true }));
    return h(
      `section.seat.replay-seat.pos-${["bottom", "right", "top", "left"][pos]}.team${seat % 2}`,
      { class: `seat replay-seat pos-${["bottom", "right", "top", "left"][pos]} team${seat % 2}${frame.actor === seat ? " active" : ""}` },
      h("div.seat-info", {}, h("div.seat-name", {}, h(`span.team-dot.team${seat % 2}`), h("span.name", { text: names[seat] })), h("div.seat-meta", {}, h("span.count", {}, h("span.back"), String(frame.hands[seat].length)))),
      hand,
      showEl,
    );
  });
  const board = h("div.replay-board", {}, seatsEls[2], seatsEls[3], h("div.center", {}, h("div.replay-note", { testid: "replay-note", text: typeof frame.note === "string" ? frame.note : shengjiNote(frame.note) }), view.level ? h("div.muted", { text: t("top.playing", { level: rankText(view.level) }) }) : null), seatsEls[1], seatsEls[0]);
  const last = view.frames.length - 1;
  const controls = h(
    "div.replay-controls",
    {},
    h("button.btn", { type: "button", testid: "replay-first", text: `« ${t("replay.first")}`, disabled: view.step === 0, onclick: () => go(0) }),
    h("button.btn", { type: "button", testid: "replay-prev", text: `◀ ${t("replay.prev")}`, disabled: view.step === 0, onclick: () => go(view.step - 1) }),
    h("span.replay-step", { testid: "replay-step", dataset: { step: String(view.step), total: String(last) }, text: t("replay.step", { i: view.step, n: last }) }),
    h("button.btn.primary", { type: "button", testid: "replay-next", text: `${t("replay.next")} ▶`, disabled: view.step === last, onclick: () => go(view.step + 1) }),
    h("button.btn", { type: "button", testid: "replay-last", text: `${t("replay.last")} »`, disabled: view.step === last, onclick: () => go(last) }),
  );
  const slider = h("input.replay-slider", { type: "range", min: "0", max: String(last), value: String(view.step), testid: "replay-slider", oninput: (event) => go(Number(event.target.value)) });
  root.replaceChildren(header, board, controls, slider);
}

let bound = false;

export function openReplay(app) {
  view.app = app;
  const root = box();
  root.hidden = false;
  document.body.classList.add("replaying");
  if (!bound) {
    bound = true;
    document.addEventListener("keydown", (event) => {
      if (box().hidden) return;
      if (event.target.closest("input, select, textarea")) return;
      if (event.key === "ArrowRight") go(view.step + 1);
      else if (event.key === "ArrowLeft") go(view.step - 1);
      else if (event.key === "Home") go(0);
      else if (event.key === "End") go(view.frames.length - 1);
      else if (event.key === "Escape") close();
    });
    onLangChange(() => {
      if (view.record && view.frames.length && !isShengji()) {
        const step = view.step;
        select(view.deal);
        view.step = Math.min(step, view.frames.length - 1);
      }
      draw();
    });
  }
  load();
}

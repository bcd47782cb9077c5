// Cards in the project's notation (docs/notation.md): suit letter then rank letter ("H5", "ST"),
// "SB" the small joker, "HR" the big joker. Drawing, sorting and describing cards and plays.

import { has, t } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
const NATURAL = "23456789TJQKA";
const SEQUENCE = "A23456789TJQKA"; // sequence positions: A low … A high

export function isJoker(code) {
  return code === "SB" || code === "HR";
}

export function rankOf(code) {
  if (code === "SB") return "B";
  if (code === "HR") return "R";
  return code[1];
}

export function suitOf(code) {
  return isJoker(code) ? null : code[0];
}

/** How a rank letter is shown: T → 10, jokers by name. */
export function rankText(rank) {
  if (rank === "T") return "10";
  if (rank === "B" || rank === "R") return t(`rank.${rank}`);
  return rank;
}

export function cardText(code) {
  if (isJoker(code)) return t(`rank.${rankOf(code)}`);
  return `${SUIT_SYMBOL[code[0]]}${rankText(code[1])}`;
}

export function isLevelCard(code, level) {
  return !!level && !isJoker(code) && code[1] === level;
}

export function isWild(code, level, wild) {
  if (wild) return code === wild;
  return !!level && code === `H${level}`;
}

/** Order value for singles, pairs, bombs at a level: big joker > small joker > level > A > … > 2. */
export function orderValue(code, level) {
  const rank = rankOf(code);
  if (rank === "R") return 17;
  if (rank === "B") return 16;
  if (rank === level) return 15;
  return NATURAL.indexOf(rank) + 2;
}

const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

/** A hand sorted as the server sorts it: high to low in the level's order, suits ♠♥♣♦ within a rank. */
export function sortHand(cards, level) {
  return [...cards].sort((a, b) => {
    const d = orderValue(b, level) - orderValue(a, level);
    if (d) return d;
    return (SUIT_ORDER[suitOf(a)] ?? 0) - (SUIT_ORDER[suitOf(b)] ?? 0);
  });
}

/** The multiset key of some cards: equal keys = the same cards. */
export function cardsKey(cards) {
  return [...cards].sort().join(" ");
}

/** Make the element of one card. Options: level (rank letter), wild (code), small (bool). */
export function cardElement(code, { level = null, wild = null, small = false } = {}) {
  const el = document.createElement("div");
  el.className = "card";
  if (small) el.classList.add("small");
  el.dataset.card = code;
  const suit = suitOf(code);
  if (isJoker(code)) {
    // Unmistakable at a glance: the big joker a solid red face with a filled star and "BIG" / 大王, the
    // small joker a pale face with an outlined star and "SMALL" / 小王.
    const big = code === "HR";
    el.classList.add("joker", big ? "big" : "small-joker", big ? "red" : "black");
    const corner = document.createElement("span");
    corner.className = "corner joker-corner";
    corner.textContent = t(big ? "joker.big" : "joker.small");
    const pip = document.createElement("span");
    pip.className = "pip";
    pip.textContent = big ? "★" : "☆";
    el.append(corner, pip);
    el.title = cardText(code);
    return el;
  }
  el.classList.add(suit === "H" || suit === "D" ? "red" : "black");
  const corner = document.createElement("span");
  corner.className = "corner";
  const r = document.createElement("span");
  r.className = "rank";
  r.textContent = rankText(code[1]);
  const s = document.createElement("span");
  s.className = "suit";
  s.textContent = SUIT_SYMBOL[suit];
  corner.append(r, s);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = SUIT_SYMBOL[suit];
  el.append(corner, pip);
  if (isWild(code, level, wild)) {
    el.classList.add("wild");
    const tag = document.createElement("span");
    tag.className = "tag wild-tag";
    tag.textContent = "配";
    el.append(tag);
  } else if (isLevelCard(code, level)) {
    el.classList.add("level");
    const tag = document.createElement("span");
    tag.className = "tag level-tag";
    tag.textContent = "级";
    el.append(tag);
  }
  el.title = cardText(code);
  return el;
}

/** A row of small cards (a play on the table). */
export function cardRow(cards, opts = {}) {
  const row = document.createElement("div");
  row.className = "card-row";
  for (const code of cards) row.append(cardElement(code, { ...opts, small: true }));
  return row;
}

const SEQ_LEN = { Straight: 5, StraightFlush: 5, ThreePair: 3, TwoTrips: 2 };

/** "Pair 5", "Straight 3–7", "Bomb ×5 9": one reading of a play. */
export function describePlay(play) {
  if (!play || play.type === "pass") return t("played.pass");
  const kind = play.kind ?? "";
  const name = t(`kind.${kind}`);
  const rank = play.rank ?? "";
  const len = SEQ_LEN[kind];
  if (len && rank) {
    const start = SEQUENCE.indexOf(rank);
    const top = SEQUENCE[Math.min(start + len - 1, SEQUENCE.length - 1)];
    let text = `${name} ${rankText(rank)}–${rankText(top)}`;
    if (kind === "StraightFlush" && play.cards) {
      const suits = play.cards.map(suitOf).filter(Boolean);
      const counts = {};
      for (const s of suits) counts[s] = (counts[s] || 0) + 1;
      const main = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
      if (main) text = `${name} ${SUIT_SYMBOL[main[0]]}${rankText(rank)}–${rankText(top)}`;
    }
    return text;
  }
  if (kind === "Bomb" && play.cards) return `${name} ×${play.cards.length} ${rankText(rank)}`;
  if (kind === "FourKings") return name;
  return rank ? `${name} ${rankText(rank)}` : name;
}

/** A suit letter of a refusal's `args`: ♠ ♥ ♣ ♦, or trump (`T`). */
export function suitText(letter) {
  return letter === "T" ? t("suit.T") : SUIT_SYMBOL[letter] ?? letter;
}

/** A refusal by the rules (an `error`, or a `checked` not ok) in the player's words and language, from
 * its `reason` and `args` (docs/protocol.md, "Refusals"); `null` for a reason this page does not know. */
export function refusalText(refusal) {
  const reason = refusal?.reason;
  const args = refusal?.args ?? {};
  let key = `refuse.${reason}`;
  if (reason === "not_a_combination" && args.kind) key = args.kind === "Bomb" ? "refuse.not_a_bomb" : "refuse.not_a_kind";
  if (reason && !has(key) && has(`error.${reason}`)) return t(`error.${reason}`, args);
  if (!reason || !has(key)) return null;
  return t(key, {
    ...args,
    play: args.beat ? describePlay({ type: "play", ...args.beat }) : "",
    kind: args.kind ? t(`kind.${args.kind}`) : "",
    cards: (args.cards ?? []).map(cardText).join(" "),
    suit: args.suit ? suitText(args.suit) : "",
    suits: (args.suits ?? []).map(suitText).join(" "),
  });
}

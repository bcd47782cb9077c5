// What both table pages add around the game: sound (WebAudio tones, no audio files) with a mute the
// browser remembers, light animations and vibration (all off under prefers-reduced-motion), the
// quick chat (fixed phrases and emotes, docs/protocol.md "Quick chat"), the 托管 switch and the
// "last trick" panel.

import { h } from "./common.js";
import { t } from "./i18n.js";

const MUTE_KEY = "cardroom:mute";
export const CHAT_PHRASES = ["hello", "nice", "thanks", "sorry", "hurry", "wow", "oops", "again", "gg", "smile", "thumbs", "think"];
export const CHAT_EMOTES = { smile: "😊", thumbs: "👍", think: "🤔", wow: "😮" };
const CHAT_SHOWN_MS = 4000;

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (_) {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (_) {
    // not remembered (private mode): still applied for this page
  }
}

// ---------------------------------------------------------------- motion and vibration

export function reducedMotion() {
  return !!window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Play a CSS animation class on ``el`` once (nothing under reduced motion). */
export function flash(el, cls) {
  if (!el || reducedMotion()) return;
  el.classList.remove(cls);
  void el.offsetWidth; // restart the animation
  el.classList.add(cls);
  el.addEventListener("animationend", () => el.classList.remove(cls), { once: true });
}

export function vibrate(pattern) {
  if (reducedMotion() || muted()) return;
  // Browsers allow it only after the person touched the page (else chromium logs an intervention).
  if (typeof navigator.vibrate === "function" && navigator.userActivation?.hasBeenActive) {
    try {
      navigator.vibrate(pattern);
    } catch (_) {
      // not allowed here
    }
  }
}

// ---------------------------------------------------------------- sound

let audio = null;

export function muted() {
  return stored(MUTE_KEY) === "1";
}

export function setMuted(on) {
  store(MUTE_KEY, on ? "1" : "0");
}

/** The tones played, newest last (the tests read them: a headless browser has no speaker). */
export const played = [];

const TONES = {
  turn: [[660, 0.09], [880, 0.12]],
  bomb: [[110, 0.18], [82, 0.25]],
  end: [[523, 0.1], [659, 0.1], [784, 0.18]],
  chat: [[988, 0.06]],
};

/** Play a short tone sequence (``turn``, ``bomb``, ``end``, ``chat``) unless muted. */
export function tone(name) {
  if (muted() || !TONES[name]) return;
  played.push(name);
  if (played.length > 50) played.shift();
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    let at = audio.currentTime;
    for (const [frequency, seconds] of TONES[name]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = name === "bomb" ? "sawtooth" : "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + seconds);
      at += seconds;
    }
  } catch (_) {
    // no audio here: silence
  }
}

/** Wire the mute button: its label says what pressing it does; the choice is remembered. */
export function bindSoundButton(button) {
  const label = () => {
    button.textContent = muted() ? t("sound.off") : t("sound.on");
    button.setAttribute("aria-pressed", muted() ? "true" : "false");
    button.title = muted() ? t("sound.unmute") : t("sound.mute");
  };
  button.addEventListener("click", () => {
    setMuted(!muted());
    label();
  });
  label();
  return label;
}

// ---------------------------------------------------------------- quick chat

const chats = new Map(); // seat -> {phrase, until}

export function chatText(phrase) {
  const emote = CHAT_EMOTES[phrase];
  return emote ? `${emote} ${t(`chat.${phrase}`)}`.trim() : t(`chat.${phrase}`);
}

/** A chat message came: shown beside the seat for a few seconds. */
export function showChat(message, redraw) {
  if (typeof message.seat !== "number" || !CHAT_PHRASES.includes(message.phrase)) return;
  const until = Date.now() + CHAT_SHOWN_MS;
  chats.set(message.seat, { phrase: message.phrase, until });
  tone("chat");
  redraw();
  setTimeout(() => {
    const shown = chats.get(message.seat);
    if (shown && shown.until <= Date.now()) {
      chats.delete(message.seat);
      redraw();
    }
  }, CHAT_SHOWN_MS + 50);
}

/** The bubble of what ``seat`` said lately, or null. */
export function chatBubble(seat) {
  const shown = chats.get(seat);
  if (!shown || shown.until <= Date.now()) return null;
  return h("div.chat-bubble", { testid: "chat-bubble", dataset: { phrase: shown.phrase }, role: "status", text: chatText(shown.phrase) });
}

/** The chat menu: the phrases as buttons (``send`` sends one); toggled by its button. */
export function chatMenu(send, close) {
  return h(
    "div.chat-menu.panel",
    { testid: "chat-menu" },
    ...CHAT_PHRASES.map((phrase) =>
      h("button.btn.small", {
        type: "button",
        testid: "chat-phrase",
        dataset: { phrase },
        text: chatText(phrase),
        onclick: () => {
          send({ type: "chat", phrase });
          close();
        },
      }),
    ),
  );
}

/** Whether the table has several people (the chat is offered then only). */
export function severalPeople(seats) {
  return seats.filter((info) => info.kind !== "bot" && info.name).length >= 2;
}

// ---------------------------------------------------------------- the last trick

/** The panel showing the last trick: ``rows`` of [seat name, content element, won]. */
export function trickPanel(title, rows, note, close) {
  return h(
    "div.trick-view.panel",
    { testid: "last-trick-view", role: "dialog" },
    h("h3", { text: title }),
    ...rows.map(([name, content, won, led]) =>
      h(
        "div.trick-row",
        { testid: "last-trick-row", class: `trick-row${won ? " won" : ""}` },
        h("span.trick-seat", { text: name }),
        content,
        led ? h("span.badge.leader", { text: t("trick.led") }) : null,
        won ? h("span.badge.winner", { testid: "last-trick-winner", text: t("trick.won") }) : null,
      ),
    ),
    note ? h("p.muted", { text: note }) : null,
    h("div.buttons", {}, h("button.btn", { type: "button", testid: "last-trick-close", text: t("btn.close"), onclick: close })),
  );
}

// The events page (/events): the list of events and a form to create one (docs/tournaments-api.md),
// which takes an account of the director role (docs/accounts.md). The director's token of a new event
// (for scripts) is kept in localStorage["cardroom:event:<id>"], where the event page finds it.

import { errorWithSignIn, signInLink } from "./account.js";
import { api, h, NAME_MAX, session } from "./common.js";
import { has, t } from "./i18n.js";
import { initPage, phaseChip, saveDirectorToken, when } from "./pages.js";

const $ = (sel) => document.querySelector(sel);

// The conduct clocks of an event (seconds): the API's defaults.
const CLOCKS = [
  ["tribute_s", 20],
  ["return_s", 40],
  ["first_lead_s", 40],
  ["play_s", 20],
  ["countdown_s", 10],
];
let rules = ["competition", "classic", "platform", "huopin"];
let events = [];
let listError = null;

function rulesLabel(name) {
  return has(`rules.${name}`) ? t(`rules.${name}`) : name;
}

function renderRules() {
  const select = $("#event-rules");
  const current = select.value || "competition";
  select.replaceChildren(...rules.map((name) => h("option", { value: name, text: rulesLabel(name) })));
  select.value = rules.includes(current) ? current : rules[0];
}

function buildClocks() {
  const box = $("#event-clocks");
  box.replaceChildren(
    ...CLOCKS.map(([key, value]) =>
      h(
        "label.field",
        {},
        h("span", { dataset: { i18n: `events.clock.${key}` }, text: t(`events.clock.${key}`) }),
        h("input", {
          type: "number",
          id: `clock-${key}`,
          testid: `event-clock-${key}`,
          min: key === "countdown_s" ? "0" : "1",
          max: "3600",
          step: "1",
          inputmode: "numeric",
          value: String(value),
          dataset: { label: `events.clock.${key}` },
        }),
      ),
    ),
  );
}

function syncFormat() {
  const kind = $("#event-format").value;
  $("#deals-field").hidden = kind !== "deals";
  $("#minutes-field").hidden = kind !== "minutes";
  $("#tie-field").hidden = kind === "to_ace";
}

/** A number field's value, or throw a message naming the field. */
function numberField(input, labelKey, min, max, { integer = true, optional = false } = {}) {
  const text = input.value.trim();
  input.removeAttribute("aria-invalid");
  if (text === "" && optional) return null;
  const value = Number(text);
  if (text === "" || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    input.setAttribute("aria-invalid", "");
    input.focus();
    throw new Error(t("events.invalid", { field: t(labelKey), min, max }));
  }
  return value;
}

/** A day as 2026-12-06 (local time), the same in either language. */
function isoDate(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function readForm() {
  const kind = $("#event-format").value;
  const format = { deals: null, minutes: null, tie_extra_deal: $("#event-tie").checked };
  if (kind === "deals") format.deals = numberField($("#event-deals"), "events.deals", 1, 1000);
  if (kind === "minutes") format.minutes = numberField($("#event-minutes"), "events.minutes", 1, 600, { integer: false });
  const clocks = {};
  for (const [key] of CLOCKS) {
    clocks[key] = numberField($(`#clock-${key}`), `events.clock.${key}`, key === "countdown_s" ? 0 : 1, 3600);
  }
  const name = $("#event-name").value.trim() || t("events.name.default", { date: isoDate(new Date()) });
  return {
    name,
    format,
    system: $("#event-system").value,
    rounds: numberField($("#event-rounds"), "events.rounds", 1, 50, { optional: true }),
    rules: $("#event-rules").value,
    level_table: Number($("#event-level-table").value),
    conduct: { clocks },
    bot_delay: numberField($("#event-bot-delay"), "events.bot_delay", 0, 10, { integer: false }),
    deal_pause: numberField($("#event-deal-pause"), "events.deal_pause", 0, 120, { integer: false }),
    auto_advance: $("#event-auto-advance").checked,
    require_signatures: $("#event-require-signatures").checked,
  };
}

/** Who may create an event: a note (with a sign-in link) and the submit button off, unless the
 * signed-in account is a director's. */
function renderAccount() {
  const note = $("#event-account");
  const account = session.account;
  const director = account?.role === "director";
  $("#event-form [type=submit]").disabled = !director;
  note.hidden = director || !session.loaded;
  if (!account) note.replaceChildren(h("span", { text: t("events.need.signin") }), " ", signInLink("event-sign-in"));
  else if (!director) note.replaceChildren(h("span", { text: t("events.need.director", { name: account.name }) }));
  else note.replaceChildren();
}

async function createEvent(submit) {
  submit.preventDefault();
  const box = $("#event-error");
  box.hidden = true;
  let body;
  try {
    body = readForm();
  } catch (error) {
    box.textContent = error.message;
    box.hidden = false;
    return;
  }
  const button = submit.target.querySelector("[type=submit]");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/events", body);
    const id = answer.event?.id ?? answer.id;
    if (answer.director_token) saveDirectorToken(id, answer.director_token);
    try {
      sessionStorage.setItem(`cardroom:event:${id}:new`, "1");
    } catch (_) {
      // the event page just won't show the token banner
    }
    location.href = `/events/${encodeURIComponent(id)}`;
  } catch (error) {
    button.disabled = false;
    box.replaceChildren(...errorWithSignIn(error, t("common.error", { message: error.message })));
    box.hidden = false;
  }
}

function renderList() {
  const list = $("#event-list");
  const error = $("#list-error");
  error.hidden = !listError;
  if (listError) error.textContent = t("common.error", { message: listError });
  if (!events.length) {
    list.replaceChildren(h("li.empty", { testid: "no-events", text: t("events.none") }));
    return;
  }
  list.replaceChildren(
    ...events.map((event) => {
      const href = `/events/${encodeURIComponent(event.id)}`;
      const rounds =
        event.rounds_paired && event.total_rounds
          ? t("events.rounds.progress", { n: event.rounds_paired, total: event.total_rounds })
          : event.total_rounds
            ? t("events.rounds.total", { total: event.total_rounds })
            : null;
      return h(
        "li.event-row",
        { testid: "event-row", dataset: { eventId: event.id, phase: event.phase || "" } },
        h(
          "div.event-main",
          {},
          h("a.table-name", { href, testid: "event-link", text: event.name || event.id }),
          phaseChip(event.phase),
        ),
        h(
          "div.event-meta.muted",
          {},
          h("span", { text: t("events.teams", { n: event.teams ?? 0 }) }),
          rounds ? h("span", { text: rounds }) : null,
          event.format ? h("span", { text: event.format }) : null,
          event.created ? h("span", { text: when(event.created) }) : null,
        ),
      );
    }),
  );
}

async function loadEvents() {
  try {
    const data = await api("GET", "/api/events");
    events = Array.isArray(data) ? data : data?.events ?? [];
    listError = null;
  } catch (error) {
    listError = error.message;
  }
  renderList();
}

async function start() {
  buildClocks();
  const signedIn = initPage(() => {
    renderRules();
    renderList();
    renderAccount();
  });
  renderRules();
  syncFormat();
  $("#event-name").maxLength = NAME_MAX;
  $("#event-format").addEventListener("change", syncFormat);
  $("#event-form").addEventListener("submit", createEvent);
  $("#refresh").addEventListener("click", loadEvents);
  try {
    const presets = await api("GET", "/api/presets");
    const names = Array.isArray(presets?.rules) ? presets.rules.map((r) => (typeof r === "string" ? r : r.name)) : [];
    if (names.length) rules = names.filter(Boolean);
  } catch (_) {
    // keep the built-in list
  }
  renderRules();
  await signedIn;
  renderAccount();
  await loadEvents();
  window.__events = { ready: true };
  setInterval(loadEvents, 10000);
}

start();

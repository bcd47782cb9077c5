// The lobby: play at once against bots, create a table (rated or not), list open and running tables.
// Signed in, every seat is taken under the account's name (docs/accounts.md), so the name field shows
// it and cannot be changed.

import { errorWithSignIn, initAccountBar, signInLink } from "./account.js";
import { api, copyText, h, isBotAccount, loadName, saveName, saveToken, session, tableUrl } from "./common.js";
import { applyI18n, bindLangButton, botLabel, has, onLangChange, t } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);

const GAME_PRESETS = {
  guandan: { rules: ["competition", "classic", "platform", "huopin"], bots: ["heuristic", "random"] },
  shengji: {
    rules: ["shengji", "shengji_all_ranks", "shengji_second_table", "shengji_all_ranks_second_table"],
    bots: ["heuristic", "random"],
  },
};
let game = "guandan";
let presets = GAME_PRESETS.guandan;
let tables = [];
const seatChoices = ["human", "heuristic", "heuristic", "heuristic"];

// The clocks (docs/rules/competition.md#clocks): the form starts from the server's defaults
// (/api/presets), else these.
// Each game shows its own: Guandan's tribute and return, Shengji's declare (each card) and bury.
const GAME_CLOCKS = {
  guandan: ["tribute", "return", "lead", "follow"],
  shengji: ["declare", "bury", "lead", "follow"],
};
const ALL_CLOCKS = ["tribute", "return", "declare", "bury", "lead", "follow"];
let CLOCKS = GAME_CLOCKS.guandan;
const CLOCK_MIN = 5;
const clockMin = (key) => (key === "declare" ? 1 : CLOCK_MIN); // declaring is a moment as each card arrives
const CLOCK_MAX = 3600;  // the server's MAX_CLOCK (cardroom.server.tables.config)
let defaultClocks = { tribute: 20, return: 40, lead: 40, follow: 20, declare: 3, bury: 60 };
let clockProblem = null; // the clock whose field was refused, shown until the next submit
const editedClocks = new Set(); // fields the player changed: the server's defaults do not overwrite them

function playerName() {
  if (session.account) return session.account.name;
  const name = $("#name").value.trim();
  return name || t("lobby.name.placeholder");
}

/** Show a refusal; one that signing in would answer (a rated table, a name an account holds) gets a
 * sign-in link. */
function showError(error, box = $("#error")) {
  box.replaceChildren(...errorWithSignIn(error, t("lobby.error", { message: error.message || String(error) })));
  box.hidden = false;
}

/** The name field and the rated note as the session says: signed in, the account's name, fixed. */
function renderAccount() {
  const input = $("#name");
  const account = session.account;
  input.readOnly = Boolean(account);
  input.toggleAttribute("aria-readonly", Boolean(account));
  if (account) input.value = account.name;
  const note = $("#name-note");
  note.hidden = !account;
  note.textContent = account ? t("lobby.name.account", { name: account.name }) : "";
  const guest = $("#rated-guest");
  guest.hidden = Boolean(account) || !$("#rated").checked;
  guest.replaceChildren(h("span", { text: t("lobby.rated.guest") }), " ", signInLink("rated-sign-in"));
}

function names(list, field = "name") {
  return (list || []).map((item) => (typeof item === "string" ? item : item[field] ?? item.id)).filter(Boolean);
}

/** Read /api/presets whatever its exact shape: rule presets and bot names (each game's under `games`). */
function readPresets(data) {
  if (!data) return;
  for (const [name, values] of Object.entries(data.games ?? {})) {
    const rules = names(values.rules);
    const bots = names(values.bots);
    if (rules.length && bots.length) GAME_PRESETS[name] = { rules, bots };
  }
  // The top-level rules and bots are Guandan's, whichever game the form shows by now.
  const guandan = GAME_PRESETS.guandan;
  const rules = names(data.rules ?? data.presets ?? data.rule_sets);
  const bots = names(data.bots ?? data.bot_names);
  if (rules.length) guandan.rules = rules;
  if (bots.length) guandan.bots = bots;
  if (data.rules && !Array.isArray(data.rules) && typeof data.rules === "object") {
    guandan.rules = Object.keys(data.rules);
  }
  if (data.bots && !Array.isArray(data.bots) && typeof data.bots === "object") {
    guandan.bots = Object.keys(data.bots);
  }
  presets = GAME_PRESETS[game];
  if (!presets.bots.includes("heuristic") && presets.bots.length) {
    for (let i = 1; i < 4; i++) seatChoices[i] = presets.bots[0];
  }
  if (data.clocks && typeof data.clocks === "object") {
    for (const key of ALL_CLOCKS) {
      const value = Number(data.clocks[key]);
      if (Number.isFinite(value) && value > 0) defaultClocks[key] = value;
    }
  }
}

function clockInput(key) {
  return $(`#clock-${key}`);
}

/** Put the default clocks into the fields the player has not changed; show the game's. */
function fillClocks() {
  for (const key of ALL_CLOCKS) {
    if (!editedClocks.has(key)) clockInput(key).value = String(defaultClocks[key]);
    clockInput(key).closest("label").hidden = !CLOCKS.includes(key);
  }
}

/** The game of the form: its presets, bots and clocks. */
function chooseGame(name) {
  game = GAME_PRESETS[name] ? name : "guandan";
  presets = GAME_PRESETS[game];
  CLOCKS = GAME_CLOCKS[game];
  for (let i = 0; i < 4; i++) {
    if (seatChoices[i] !== "human" && !presets.bots.includes(seatChoices[i])) seatChoices[i] = presets.bots.includes("heuristic") ? "heuristic" : presets.bots[0];
  }
  $("#rules").value = "";
  renderForm();
  fillClocks();
}

/** The four clocks from the form, or null (and the message shown) when one is out of range. */
function readClocks() {
  const clocks = {};
  clockProblem = null;
  for (const key of CLOCKS) {
    const input = clockInput(key);
    const text = input.value.trim();
    const value = Number(text);
    const ok = text !== "" && Number.isInteger(value) && value >= clockMin(key) && value <= CLOCK_MAX;
    input.toggleAttribute("aria-invalid", !ok);
    if (ok) clocks[key] = value;
    else if (!clockProblem) clockProblem = key;
  }
  renderClockProblem();
  if (clockProblem) {
    clockInput(clockProblem).focus();
    return null;
  }
  return clocks;
}

function renderClockProblem() {
  const box = $("#clock-error");
  if (!clockProblem) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.textContent = t("lobby.clocks.invalid", {
    clock: t(`lobby.clock.${clockProblem}`),
    min: clockMin(clockProblem),
    max: CLOCK_MAX,
  });
  box.hidden = false;
}

/** A table's clocks in one short line for the table list ("Clocks 20/40/40/20 s"), its title in full. */
function clocksSummary(clocks, tableGame) {
  if (!clocks || typeof clocks !== "object") return null;
  const keys = GAME_CLOCKS[tableGame] ?? GAME_CLOCKS.guandan;
  const values = keys.map((key) => clocks[key]);
  if (values.some((value) => typeof value !== "number")) return null;
  return h("span.muted.clocks-summary", {
    testid: "table-clocks",
    dataset: { clocks: values.join("/") },
    title: `${t("lobby.clocks")}: ${keys.map((key) => `${t(`lobby.clock.${key}`)} ${clocks[key]}`).join(" · ")}`,
    text: t("lobby.clocks.summary", { values: values.join("/") }),
  });
}

function rulesLabel(name) {
  return has(`rules.${name}`) ? t(`rules.${name}`) : name;
}

/** Shengji's rule set from its two choices, the ladder and the result table (the presets cross them). */
function shengjiRules() {
  const ladder = $("#sj-ladder").value === "all_ranks" ? "_all_ranks" : "";
  const table = $("#sj-table").value === "second" ? "_second_table" : "";
  return `shengji${ladder}${table}`;
}

function renderShengjiChoices() {
  const shengji = game === "shengji";
  $("#shengji-rules").hidden = !shengji;
  $("#rules-field").hidden = shengji;
  const fill = (select, key, values) => {
    const current = select.value || values[0];
    select.replaceChildren(...values.map((value) => h("option", { value, text: t(`${key}.${value}`) })));
    select.value = current;
  };
  fill($("#sj-ladder"), "lobby.sj.ladder", ["seven", "all_ranks"]);
  fill($("#sj-table"), "lobby.sj.table", ["forty", "second"]);
}

function renderForm() {
  renderShengjiChoices();
  const games = $("#game");
  games.replaceChildren(...Object.keys(GAME_PRESETS).map((name) => h("option", { value: name, text: t(`lobby.game.${name}`) })));
  games.value = game;
  const rules = $("#rules");
  const current = rules.value || presets.rules[0];
  rules.replaceChildren(...presets.rules.map((name) => h("option", { value: name, text: rulesLabel(name) })));
  rules.value = presets.rules.includes(current) ? current : presets.rules[0];

  const length = $("#length");
  const chosen = length.value || "";
  const options = [h("option", { value: "", text: t("lobby.length.full") })];
  for (const n of [1, 2, 4, 8]) options.push(h("option", { value: String(n), text: n === 1 ? t("lobby.length.one") : t("lobby.length.deals", { n }) }));
  length.replaceChildren(...options);
  length.value = chosen;

  const box = $("#seat-configs");
  box.replaceChildren();
  // A rated table seats four people: no bot may be chosen for it (the server refuses one too).
  const rated = $("#rated").checked;
  if (rated) seatChoices.fill("human");
  for (let seat = 0; seat < 4; seat++) {
    const select = h("select", { testid: `seat-config-${seat}`, onchange: (e) => (seatChoices[seat] = e.target.value) });
    select.append(h("option", { value: "human", text: t("lobby.seat.human") }));
    for (const bot of presets.bots) select.append(h("option", { value: bot, disabled: rated, text: t("lobby.seat.bot", { bot: botLabel(bot) }) }));
    select.value = seatChoices[seat];
    const team = seat % 2;
    box.append(
      h(
        "label.field.seat-config",
        {},
        h(`span.team-dot.team${team}`, { text: t(`team.${team}`) }),
        h("span", { text: t("seat.label", { n: seat + 1 }) }),
        select,
      ),
    );
  }
}

function seatLabel(seat) {
  if (seat.kind === "bot") return `${t("seat.bot")} · ${botLabel(seat.bot)}`;
  if (seat.name && isBotAccount(seat.account)) return t("seat.botAccount", { name: seat.name });
  return seat.name || t("seat.open");
}

async function sit(tableId, seat) {
  $("#error").hidden = true;
  try {
    const name = playerName();
    if (!session.account) saveName(name);
    const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`, { name });
    saveToken(tableId, answer.token);
    location.href = `/tables/${encodeURIComponent(tableId)}`;
  } catch (error) {
    showError(error);
    loadTables();
  }
}

function renderTables() {
  const list = $("#table-list");
  list.replaceChildren();
  if (!tables.length) {
    list.append(h("li.empty", { testid: "no-tables", text: t("lobby.tables.none") }));
    return;
  }
  // Tables waiting for players first (the oldest wait first), then the running ones, newest first.
  const waiting = (table) => (table.status || "waiting") === "waiting";
  const ordered = [...tables.filter(waiting).reverse(), ...tables.filter((table) => !waiting(table))];
  for (const table of ordered) {
    const status = table.status || "waiting";
    const free = (table.seats || []).map((seat, index) => ({ seat, number: seat.seat ?? index })).filter(({ seat }) => seat.kind !== "bot" && !seat.name);
    const seats = (table.seats || []).map((seat, index) => {
      const number = seat.seat ?? index;
      const open = seat.kind !== "bot" && !seat.name;
      const item = h(
        `span.seat-chip.team${number % 2}`,
        { class: `seat-chip team${number % 2}${open ? " open" : ""}` },
        h("span.seat-label", { text: `${number + 1}. ${seatLabel(seat)}` }),
      );
      if (open && status === "waiting") {
        item.append(
          h("button.btn.small", {
            type: "button",
            testid: `sit-${table.id}-${number}`,
            text: t("lobby.sit"),
            onclick: () => sit(table.id, number),
          }),
        );
      }
      return item;
    });
    const link = `/tables/${encodeURIComponent(table.id)}`;
    list.append(
      h(
        "li.table-row",
        { testid: "table-row", dataset: { tableId: table.id, status } },
        h(
          "div.table-main",
          {},
          h("a.table-name", { href: link, text: table.name || table.id }),
          h(`span.status.${status}`, { text: t(`status.${status}`) }),
          table.rules ? h("span.muted", { text: rulesLabel(table.rules) }) : null,
          table.game === "shengji" ? h("span.badge.game", { testid: "table-game", text: t("lobby.game.shengji") }) : null,
          table.rated ? h("span.badge.rated", { testid: "table-rated", title: t("lobby.rated.note"), text: t("lobby.rated.badge") }) : null,
          clocksSummary(table.clocks, table.game),
        ),
        status === "waiting" && free.length
          ? h(
              "span.free-seats",
              {},
              h("span.muted", { testid: "free-seats", text: t("lobby.free", { n: free.length }) }),
              h("button.btn.small.primary", { type: "button", testid: "take-free-seat", text: t("lobby.take"), onclick: () => sit(table.id, free[0].number) }),
            )
          : null,
        h("a.btn.small", {
          href: link,
          testid: "table-open",
          text: status === "waiting" ? t("lobby.enter") : t("lobby.watch"),
        }),
        h("div.table-seats", {}, ...seats),
      ),
    );
  }
}

async function loadTables() {
  try {
    const data = await api("GET", "/api/tables");
    tables = Array.isArray(data) ? data : data?.tables ?? [];
    renderTables();
  } catch (error) {
    showError(error);
  }
}

async function quickPlay(quickGame) {
  const button = quickGame === "shengji" ? $("#quick-shengji") : $("#quick");
  button.disabled = true;
  try {
    const name = playerName();
    if (!session.account) saveName(name);
    const answer = await api("POST", "/api/quick", { name, game: quickGame });
    saveToken(answer.id, answer.token);
    location.href = `/tables/${encodeURIComponent(answer.id)}`;
  } catch (error) {
    button.disabled = false;
    showError(error);
  }
}

async function createTable(event) {
  event.preventDefault();
  $("#create-error").hidden = true;
  const clocks = readClocks();
  if (!clocks) return;
  if ($("#name").value.trim() && !session.account) saveName(playerName());
  const name = $("#table-name").value.trim() || `${playerName()} · ${new Date().toLocaleTimeString()}`;
  const length = $("#length").value;
  const body = {
    name,
    game,
    rules: game === "shengji" ? shengjiRules() : $("#rules").value,
    max_deals: length ? Number(length) : null,
    seats: seatChoices.map((choice) => (choice === "human" ? { kind: "human" } : { kind: "bot", bot: choice })),
    clocks,
    rated: $("#rated").checked,
  };
  try {
    const table = await api("POST", "/api/tables", body);
    const id = table.id ?? table.table?.id;
    const link = tableUrl(id);
    $("#share-link").value = link;
    $("#open-created").href = `/tables/${encodeURIComponent(id)}`;
    $("#created").hidden = false;
    loadTables();
  } catch (error) {
    showError(error, $("#create-error"));
  }
}

async function start() {
  applyI18n();
  bindLangButton($("#lang"));
  $("#name").value = loadName();
  $("#quick").addEventListener("click", () => quickPlay("guandan"));
  $("#quick-shengji").addEventListener("click", () => quickPlay("shengji"));
  $("#game").addEventListener("change", (event) => chooseGame(event.target.value));
  $("#create").addEventListener("submit", createTable);
  $("#refresh").addEventListener("click", loadTables);
  $("#copy").addEventListener("click", async () => {
    if (await copyText($("#share-link").value)) $("#copy").textContent = t("lobby.copied");
  });
  for (const key of ALL_CLOCKS) clockInput(key).addEventListener("input", () => editedClocks.add(key));
  $("#rated").addEventListener("change", () => {
    renderAccount();
    renderForm();
  });
  onLangChange(() => {
    renderForm();
    renderTables();
    renderAccount();
    if (clockProblem) renderClockProblem();
  });
  renderForm();
  fillClocks();
  renderAccount();
  const [loaded] = await Promise.all([api("GET", "/api/presets").catch(() => null), initAccountBar()]);
  readPresets(loaded); // none: keep the built-in lists
  renderAccount();
  renderForm();
  fillClocks();
  await loadTables();
  setInterval(loadTables, 5000);
}

start();

// One event (/events/{id}, docs/tournaments-api.md): teams and registration, the director's controls
// (start, pair the next round, forfeits), rounds and their tables with links into the card room,
// standings with every tie-break, score sheets with sign-off, exports. Live over /ws/events/{id}.
//
// Who is who (docs/accounts.md): the director is the signed-in account named by the event's `director`,
// or whoever holds the director's token (for scripts; localStorage["cardroom:event:<id>"]). A player is
// a signed-in account registered in a team: whoami tells its table and seat, "Play" takes that seat
// (a seat token kept as localStorage["cardroom:<table id>"], where the table page looks) and opens
// /tables/<table id>; the player signs the sheet as the account.

import { errorWithSignIn, signInLink } from "./account.js";
import { api, copyText, fill, h, NAME_MAX, SEAT_WINDS, SIDE_SEATS, saveToken, session } from "./common.js";
import { botLabel, has, t } from "./i18n.js";
import { botName, clockTime, directorToken, initPage, nameOf, phaseChip, playerLink, saveDirectorToken, when } from "./pages.js";

const $ = (sel) => document.querySelector(sel);

const CRITERIA = ["points", "progressive", "wins", "level_difference", "levels_gained", "lots"];
const BOTS = ["heuristic", "random", "search"];

const eventId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");

const view = {
  event: null,
  error: null,
  notFound: false,
  director: directorToken(eventId),
  me: null, // whoami's answer for the signed-in account, when it plays in the event
  sheets: new Map(), // "round:table" → the sheet (or {error})
  open: new Set(), // the sheets shown
  forfeitTeam: new Map(), // "round:table" → the team chosen in the forfeit control
  newDirectorToken: null,
  busy: false,
  socket: null,
  registrationBuiltFor: null,
};

// --- HTTP: signed in (common.js's api adds the CSRF token), or with the director's token --------------

function call(method, path, body, { director = false } = {}) {
  const headers = director && view.director ? { "X-Director-Token": view.director } : {};
  return api(method, path, body, { headers });
}

const base = () => `/api/events/${encodeURIComponent(eventId)}`;

function showError(error) {
  view.error = error ? error.message || String(error) : null;
  const box = $("#event-error");
  box.hidden = !view.error;
  fill(box, ...(error ? errorWithSignIn(error, t("common.error", { message: view.error })) : []));
}

/** Run a director's (or a player's) change; the answer, when it is the event, is shown at once. */
async function act(fn) {
  if (view.busy) return null;
  view.busy = true;
  showError(null);
  document.body.classList.add("busy");
  try {
    const answer = await fn();
    // the websocket may have brought a newer event already (a table's commit after the answer was made)
    const older = view.event && answer?.updated && answer.updated < view.event.updated;
    if (answer && answer.id === eventId && Array.isArray(answer.teams) && !older) setEvent(answer);
    return answer;
  } catch (error) {
    showError(error);
    return null;
  } finally {
    view.busy = false;
    document.body.classList.remove("busy");
    render();
  }
}

// --- the event's data --------------------------------------------------------------------------------

function team(id) {
  return view.event?.teams?.find((item) => item.id === id) ?? null;
}

function teamName(id) {
  if (!id) return t("common.none");
  const found = team(id);
  return found?.name || id;
}

/** Whether this browser runs the event: the director's token, or signed in as the event's director. */
function isDirector() {
  const key = session.account?.key;
  return Boolean(view.director) || Boolean(key && view.event?.director === key);
}

/** Whether a seat's player is the signed-in account (an event registers people by their accounts'
 * names; the server compares them case-folded). */
function isMe(name) {
  const account = session.account;
  if (!account || !name) return false;
  const mine = [account.name, view.me?.player?.name].filter(Boolean).map((n) => n.toLowerCase());
  return mine.includes(String(name).toLowerCase());
}

function levelText(result, side) {
  if (!result) return t("common.none");
  return result.level_names?.[side] ?? String(result.levels?.[side] ?? "");
}

function resultText(result, teams) {
  if (!result) return t("event.result.pending");
  if (result.kind === "bye") return t("event.result.bye");
  if (result.kind === "forfeit") return t("event.result.forfeit", { team: teamName(teams[result.forfeited_by]) });
  if (result.winner === null || result.winner === undefined) return t("event.result.draw");
  return t("event.result.won", { team: teamName(teams[result.winner]) });
}

/** The match format in the reader's language (the API's format_text is Chinese). */
function formatText(format, fallback) {
  if (!format || typeof format !== "object") return fallback || t("common.none");
  const { deals, minutes } = format;
  if (deals == null && minutes == null) return t("format.to_ace");
  const parts = [];
  if (minutes != null) parts.push(t("format.minutes", { n: minutes }));
  if (deals != null) parts.push(deals === 1 ? t("format.deal") : t("format.deals", { n: deals }));
  const tie = format.tie_extra_deal === false ? t("format.tie.draw") : t("format.tie.extra");
  return `${parts.join(t("format.or"))} · ${tie}`;
}

/** A level as players write it: the table's letters ("T", "J"…), or the result's names. */
function levelLetter(value) {
  return value === "T" ? "10" : String(value);
}

function setEvent(event) {
  view.event = event;
  view.notFound = false;
  document.title = `${event.name || eventId} · ${t("events.title")}`;
}

// --- header, identity, director ----------------------------------------------------------------------

function fact(labelKey, value, testid) {
  return [h("dt", { text: t(labelKey) }), h("dd", { testid, text: value })];
}

function renderHead() {
  const event = view.event;
  $("#event-name").textContent = view.notFound ? t("event.notfound") : event?.name || eventId;
  fill($("#event-phase"), event ? phaseChip(event.phase) : "");
  const facts = $("#event-facts");
  if (!event) {
    fill(facts, view.notFound ? "" : h("span.muted", { text: t("common.loading") }));
    return;
  }
  const config = event.config || {};
  const system = event.system || config.system;
  fill(facts,
    ...fact("event.format", formatText(config.format, config.format_text), "event-format"),
    ...fact("event.system", has(`system.short.${system}`) ? t(`system.short.${system}`) : system || "", "event-system"),
    ...fact(
      "event.rounds",
      event.total_rounds
        ? t("events.rounds.progress", { n: (event.rounds || []).length, total: event.total_rounds })
        : String(config.rounds ?? t("common.none")),
      "event-rounds",
    ),
    ...fact("event.rules", has(`rules.${config.rules}`) ? t(`rules.${config.rules}`) : config.rules || "", "event-rules"),
    ...fact("event.scoretables", t("event.scoretables.text", { n: config.level_table ?? 26 }), "event-scoretables"),
  );
}

function copyButton(text, testid) {
  const button = h("button.btn.small", { type: "button", testid, text: t("common.copy") });
  button.addEventListener("click", async () => {
    if (await copyText(text)) button.textContent = t("common.copied");
  });
  return button;
}

/** A table's status as the event now shows it (whoami's may be older). */
function tableStatus(tableId, fallback) {
  for (const round of view.event?.rounds ?? []) {
    const found = (round.tables ?? []).find((table) => table.table_id === tableId);
    if (found?.status) return found.status;
  }
  return fallback;
}

/** "Play": take the account's seat at its table (a new seat token, kept where the table page looks)
 * and open the table. */
function playButton(seat, testid = "play-link") {
  return h("button.btn.small.primary", {
    type: "button",
    testid,
    dataset: { tableId: seat.table_id, seat: String(seat.seat) },
    text: t("event.play"),
    onclick: () =>
      act(async () => {
        const tableId = seat.table_id;
        const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${seat.seat}`, {});
        saveToken(tableId, answer.token);
        location.href = `/tables/${encodeURIComponent(tableId)}`;
        return null;
      }),
  });
}

function renderIdentity() {
  const box = $("#identity");
  const me = view.me;
  if (!session.account && view.event && view.event.phase !== "finished") {
    fill(box,
      h("p.muted", { testid: "identity-sign-in" }, h("span", { text: t("event.signin.player") }), " ", signInLink("event-sign-in")),
    );
    return;
  }
  if (!me?.player) {
    fill(box);
    return;
  }
  const seat = me.seat;
  const finished = seat && tableStatus(seat.table_id, seat.status) === "finished";
  fill(box,
    h("p", { text: t("event.you", { name: me.player.name, team: teamName(me.team) }) }),
    seat && seat.table_id
      ? h(
          "p.you-table",
          {},
          h("span", { text: t("event.you.table", { round: seat.round, table: seat.table }) }),
          " ",
          finished
            ? h("a.btn.small", { href: `/tables/${encodeURIComponent(seat.table_id)}`, testid: "my-table", text: t("event.watch") })
            : playButton(seat, "my-table"),
        )
      : h("p.muted", { text: t("event.you.wait") }),
    seat?.arrived
      ? h("p.muted", { testid: "arrived", text: t("event.arrived", { at: clockTime(seat.arrived) }) })
      : null,
    seat && !seat.arrived && !seat.decided && !finished
      ? h("button.btn.small", {
          type: "button",
          testid: "arrive",
          text: t("event.arrive"),
          onclick: async () => {
            const answer = await act(() => call("POST", `${base()}/arrive`, {}));
            if (answer) view.me = answer;
            render();
          },
        })
      : null,
  );
}

function renderDirector() {
  const box = $("#director");
  const parts = [];
  if (view.newDirectorToken) {
    parts.push(
      h(
        "div.token-box",
        { testid: "director-token" },
        h("span", { text: t("event.director.token") }),
        h("code", { text: view.newDirectorToken }),
        copyButton(view.newDirectorToken, "copy-director-token"),
      ),
    );
  }
  if (isDirector()) {
    parts.push(h("p.director-note", { testid: "director-note", text: t("event.director") }));
    if (view.event?.phase === "registration") parts.push(editControl());
  } else if (view.event && new URLSearchParams(location.search).has("director")) {
    // the token box is the director's (a script's token, opened with ?director): no one else sees it
    const input = h("input", { type: "password", testid: "director-input", placeholder: t("event.director.paste") });
    parts.push(
      h(
        "details.director-paste",
        {},
        h("summary", { text: t("event.director.none") }),
        h(
          "div.share",
          {},
          input,
          h("button.btn.small", {
            type: "button",
            text: t("event.director.use"),
            onclick: () => {
              const token = input.value.trim();
              if (!token) return;
              saveDirectorToken(eventId, token);
              view.director = token;
              view.registrationBuiltFor = null;
              render();
            },
          }),
        ),
      ),
    );
  }
  fill(box, ...parts);
}

/** The most teams "Fill with bot teams up to" makes (the server takes more, registered one by one). */
const BOT_FILL_MAX = 64;

// --- editing an event not started (PATCH /api/events/{id}) -----------------------------------------------

const EDIT_RULES = ["competition", "classic", "platform", "huopin"];

/** A number field of the edit form: its value, null when empty and optional, or throw naming it. */
function editNumber(input, labelKey, min, max, { integer = true, optional = false } = {}) {
  const text = input.value.trim();
  input.removeAttribute("aria-invalid");
  if (text === "" && optional) return null;
  const value = Number(text);
  if (text === "" || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
    throw new Error(t("events.invalid", { field: t(labelKey), min, max }));
  }
  return value;
}

/** The director's form to change the event before it starts: its name, format, pairing, rounds, rules,
 * the table of the level difference and how rounds advance. Errors show in the form. */
function editControl() {
  const config = view.event.config || {};
  const format = config.format || {};
  const field = (labelKey, control, extra = {}) => h("label.field", extra, h("span", { text: t(labelKey) }), control);
  const select = (testid, options, value, id) => {
    const el = h("select", { testid }, ...options.map(([v, key]) => h("option", { value: v, text: t(key) })));
    el.value = value;
    return kept(el, `edit:${id}`);
  };
  const name = kept(h("input", { testid: "edit-name", maxlength: String(NAME_MAX), value: view.event.name || "" }), "edit:name");
  const kind = select(
    "edit-format",
    [["to_ace", "events.format.to_ace"], ["deals", "events.format.deals"], ["minutes", "events.format.minutes"]],
    format.minutes != null ? "minutes" : format.deals != null ? "deals" : "to_ace",
    "format",
  );
  const numberInput = (testid, value, max, id) =>
    kept(h("input", { type: "number", testid, min: "1", max, step: "1", inputmode: "numeric", value: value == null ? "" : String(value) }), `edit:${id}`);
  const deals = numberInput("edit-deals", format.deals ?? 8, "1000", "deals");
  const minutes = numberInput("edit-minutes", format.minutes ?? 50, "600", "minutes");
  const tie = kept(h("input", { type: "checkbox", testid: "edit-tie", checked: format.tie_extra_deal !== false }), "edit:tie");
  const system = select(
    "edit-system",
    [["auto", "system.auto"], ["round_robin", "system.round_robin"], ["swiss", "system.swiss"]],
    config.system || "auto",
    "system",
  );
  const rounds = numberInput("edit-rounds", config.rounds, "50", "rounds");
  const rules = kept(
    h("select", { testid: "edit-rules" }, ...EDIT_RULES.map((r) => h("option", { value: r, text: has(`rules.${r}`) ? t(`rules.${r}`) : r }))),
    "edit:rules",
  );
  if (!drafts.has("edit:rules")) rules.value = config.rules || "competition";
  const levelTable = select(
    "edit-level-table",
    [["26", "events.level_table.26"], ["28", "events.level_table.28"]],
    String(config.level_table ?? 26),
    "level_table",
  );
  const autoAdvance = kept(h("input", { type: "checkbox", testid: "edit-auto-advance", checked: Boolean(config.auto_advance) }), "edit:auto_advance");
  const signatures = kept(
    h("input", { type: "checkbox", testid: "edit-require-signatures", checked: Boolean(config.require_signatures) }),
    "edit:require_signatures",
  );
  const error = h("p.error", { testid: "edit-error", role: "alert", hidden: !drafts.get("edit:error"), text: drafts.get("edit:error") || "" });
  const sync = () => {
    deals.closest("label").hidden = kind.value !== "deals";
    minutes.closest("label").hidden = kind.value !== "minutes";
    tie.closest("label").hidden = kind.value === "to_ace";
  };
  kind.addEventListener("change", sync);
  const save = () => {
    let body;
    try {
      body = {
        name: name.value.trim(),
        format: {
          deals: kind.value === "deals" ? editNumber(deals, "events.deals", 1, 1000) : null,
          minutes: kind.value === "minutes" ? editNumber(minutes, "events.minutes", 1, 600, { integer: false }) : null,
          tie_extra_deal: tie.checked,
        },
        system: system.value,
        rounds: editNumber(rounds, "events.rounds", 1, 50, { optional: true }),
        rules: rules.value,
        level_table: Number(levelTable.value),
        auto_advance: autoAdvance.checked,
        require_signatures: signatures.checked,
      };
    } catch (problem) {
      drafts.set("edit:error", problem.message);
      render();
      return;
    }
    drafts.delete("edit:error");
    submitForm("edit:", () => call("PATCH", base(), body, { director: true })).then(() => {
      if (view.error) {
        // said once: in the form, not above the page too
        drafts.set("edit:error", view.error);
        showError(null);
        render();
      }
    });
  };
  const form = keptOpen(
    h(
      "details.event-edit",
      { testid: "event-edit" },
      h("summary", { testid: "edit-open", text: t("event.edit") }),
      h("p.note", { text: t("event.edit.note") }),
      field("events.name", name),
      h("div.row", {}, field("events.format", kind), field("events.deals", deals), field("events.minutes", minutes)),
      h("label.check", {}, tie, h("span", { text: t("events.tie_extra") })),
      h("div.row", {}, field("events.system", system), field("events.rounds", rounds), field("events.rules", rules), field("events.level_table", levelTable)),
      h("label.check", {}, autoAdvance, h("span", { text: t("events.auto_advance") })),
      h("label.check", {}, signatures, h("span", { text: t("events.require_signatures") })),
      error,
      h("button.btn.small.primary", { type: "button", testid: "edit-save", text: t("event.edit.save"), onclick: save }),
    ),
    "edit:open",
  );
  sync();
  return form;
}

// --- teams and registration ----------------------------------------------------------------------------

function outOf(teamId) {
  return (view.event?.withdrawals || []).find((item) => item.team === teamId) ?? null;
}

/** Withdraw (退赛) or disqualify a team after the start: a reason, then the button. */
function withdrawControl(item) {
  const id = `withdraw:${item.id}`;
  const reason = kept(h("input.small", { testid: "withdraw-reason", maxlength: "200", placeholder: t("event.reason") }), `${id}:reason`);
  const disqualify = kept(h("input", { type: "checkbox", testid: "withdraw-disqualify" }), `${id}:disqualify`);
  return keptOpen(h(
    "details.withdraw",
    {},
    h("summary", { testid: "withdraw-open", text: t("event.withdraw.late") }),
    reason,
    h("label.inline", {}, disqualify, h("span", { text: t("event.disqualify") })),
    h("button.btn.small.warn", {
      type: "button",
      testid: "withdraw-submit",
      text: t("event.confirm"),
      onclick: () =>
        submitForm(id, () =>
          call(
            "POST",
            `${base()}/teams/${encodeURIComponent(item.id)}/withdraw`,
            { reason: reason.value, disqualify: disqualify.checked },
            { director: true },
          ),
        ),
    }),
  ), `${id}:open`);
}

function renderTeams() {
  const event = view.event;
  const box = $("#teams");
  if (!event) {
    fill(box);
    return;
  }
  const teams = [...(event.teams || [])];
  if (!teams.length) {
    fill(box, h("p.muted", { testid: "no-teams", text: t("event.teams.none") }));
    return;
  }
  if (teams.every((item) => typeof item.lot === "number")) teams.sort((a, b) => a.lot - b.lot);
  const registering = event.phase === "registration";
  fill(box,
    h(
      "ul.team-list",
      {},
      ...teams.map((item) =>
        h(
          "li.team-card",
          { testid: "team", dataset: { team: item.id } },
          h(
            "div.team-head",
            {},
            h("strong", { text: item.name || item.id }),
            h("span.muted", { text: item.id }),
            typeof item.lot === "number" ? h("span.lot", { text: t("event.lot", { n: item.lot }) }) : null,
            !registering && isDirector() && !outOf(item.id) && event.phase === "running" ? withdrawControl(item) : null,
            outOf(item.id)
              ? h("span.badge-light.warn", { testid: "withdrawn", text: `${outOf(item.id).label} · ${outOf(item.id).reason}` })
              : null,
            registering && isDirector() ? deleteTeamControl(item) : null,
          ),
          h(
            "ul.team-players",
            {},
            ...(item.players || []).map((player) =>
              h(
                "li",
                {},
                player.bot ? botName(player.name || player.id, player.bot) : playerLink(player.name || player.id),
                player.bot ? h("span.badge-light", { text: botLabel(player.bot) }) : null,
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

function playerFields(n) {
  const kind = h(
    "select",
    { testid: `reg-kind-${n}`, "aria-label": t("event.player.kind") },
    h("option", { value: "person", text: t("event.person") }),
    ...BOTS.map((bot) => h("option", { value: bot, text: `${t("event.bot")} · ${botLabel(bot)}` })),
  );
  const name = h("input", { testid: `reg-player-${n}`, maxlength: "40", placeholder: t("event.player.placeholder") });
  return h("label.field.reg-player", {}, h("span", { text: t("event.player", { n }) }), h("div.reg-inputs", {}, kind, name));
}

function botPlayers(n, bot) {
  const label = bot;
  return [
    { bot, name: `${label} ${n}a` },
    { bot, name: `${label} ${n}b` },
  ];
}

async function addBotTeam(bot) {
  const n = (view.event?.teams?.length ?? 0) + 1;
  const answer = await call(
    "POST",
    `${base()}/teams`,
    { name: t("event.bots.team", { n }), players: botPlayers(n, bot) },
    { director: true },
  );
  return answer;
}

async function refresh() {
  try {
    setEvent(await call("GET", base()));
  } catch (error) {
    if (error.status === 404) view.notFound = true;
    else showError(error);
  }
}

function buildRegistration() {
  const form = h("form.register", { testid: "register-form", novalidate: true });
  const teamName = h("input", { testid: "reg-team", maxlength: "40" });
  form.append(
    h("label.field", {}, h("span", { text: t("event.team.name") }), teamName),
    playerFields(1),
    playerFields(2),
    h("p.note", { text: t("event.people.note") }),
    h("button.btn.primary", { type: "submit", testid: "register-submit", text: t("event.register") }),
  );
  form.addEventListener("submit", async (submit) => {
    submit.preventDefault();
    const n = (view.event?.teams?.length ?? 0) + 1;
    const players = [1, 2].map((i) => {
      const kind = form.querySelector(`[data-testid=reg-kind-${i}]`).value;
      const name = form.querySelector(`[data-testid=reg-player-${i}]`).value.trim();
      if (kind === "person") return { name };
      return name ? { bot: kind, name } : { bot: kind, name: `${kind} ${n}${i === 1 ? "a" : "b"}` };
    });
    const body = { name: teamName.value.trim() || `${t("event.team.name")} ${n}`, players };
    const answer = await act(() => call("POST", `${base()}/teams`, body, { director: true }));
    if (answer) {
      form.reset();
      await refresh();
      render();
    }
  });

  const bot = h(
    "select",
    { testid: "bot-kind", "aria-label": t("event.bot") },
    ...BOTS.map((name) => h("option", { value: name, text: botLabel(name) })),
  );
  const fillTo = h("input", { type: "number", testid: "fill-to", min: "2", max: String(BOT_FILL_MAX), step: "1", value: "8" });
  // Filling adds one bot team at a time: asked first, and stopped by its button, a changed number or
  // leaving the page.
  const filling = { running: false, stop: false };
  const fillError = h("p.error", { testid: "fill-error", role: "alert", hidden: true });
  const fillConfirm = h("span.confirm", { testid: "fill-confirm-box", hidden: true });
  const stopFilling = () => {
    filling.stop = true;
    fillConfirm.hidden = true;
  };
  const runFill = (wanted) => {
    fillConfirm.hidden = true;
    filling.running = true;
    filling.stop = false;
    fillButton.textContent = t("event.bots.fill.stop");
    return act(async () => {
      while (!filling.stop && (view.event?.teams?.length ?? 0) < wanted) {
        await addBotTeam(bot.value);
        setEvent(await call("GET", base()));
        render();
      }
      return view.event;
    }).finally(() => {
      filling.running = false;
      fillButton.textContent = t("event.bots.fill.go");
    });
  };
  const askFill = () => {
    const text = fillTo.value.trim();
    const wanted = Number(text);
    const have = view.event?.teams?.length ?? 0;
    fillError.hidden = true;
    let problem = null;
    if (text === "" || !Number.isInteger(wanted) || wanted < 2 || wanted > BOT_FILL_MAX) {
      problem = t("event.bots.fill.invalid", { min: 2, max: BOT_FILL_MAX });
    } else if (wanted <= have) {
      problem = t("event.bots.fill.enough", { n: have });
    }
    if (problem) {
      fillError.textContent = problem;
      fillError.hidden = false;
      fillConfirm.hidden = true;
      return;
    }
    fill(
      fillConfirm,
      h("span", { text: t("event.bots.fill.confirm", { count: wanted - have, bot: botLabel(bot.value), n: wanted }) }),
      " ",
      h("button.btn.small.warn", { type: "button", testid: "fill-confirm", text: t("event.confirm"), onclick: () => runFill(wanted) }),
    );
    fillConfirm.hidden = false;
  };
  const fillButton = h("button.btn", {
    type: "button",
    testid: "fill-bots",
    text: t("event.bots.fill.go"),
    onclick: () => (filling.running ? stopFilling() : askFill()),
  });
  fillTo.addEventListener("input", stopFilling);
  bot.addEventListener("change", stopFilling);
  window.addEventListener("pagehide", stopFilling);
  const bots = h(
    "div.bot-fill",
    {},
    h("label.field", {}, h("span", { text: t("event.bot") }), bot),
    h("button.btn", {
      type: "button",
      testid: "add-bot-team",
      text: t("event.bots.add"),
      onclick: () => act(async () => addBotTeam(bot.value)).then(refresh).then(render),
    }),
    h("label.field", {}, h("span", { text: t("event.bots.fill") }), fillTo),
    fillButton,
    fillConfirm,
    fillError,
  );

  const startFill = h("input", { type: "checkbox", testid: "start-fill", checked: true });
  const start = h(
    "div.start",
    {},
    h("label.check", { testid: "start-fill-label" }, startFill, h("span", { text: t("event.start.fill") })),
    h("button.btn.small.ghost-light", {
      type: "button",
      testid: "delete-event",
      text: t("event.delete"),
      onclick: async () => {
        const answer = await act(() => call("DELETE", base(), undefined, { director: true }));
        if (answer && answer.deleted) location.assign("/events");
      },
    }),
    h("button.btn.primary", {
      type: "button",
      testid: "start-event",
      text: t("event.start"),
      onclick: () =>
        act(() =>
          call("POST", `${base()}/start`, startFill.checked ? { fill_with_bots: bot.value } : {}, { director: true }),
        ),
    }),
  );
  return h("div.registration-tools", {}, form, bots, start);
}

/** Taking a team off the list while registering: asked first ("Delete T3 (name)? Confirm / Cancel"). */
function deleteTeamControl(item) {
  if (view.deleting !== item.id) {
    return h("button.btn.small.ghost-light", {
      type: "button",
      testid: "withdraw",
      text: t("event.withdraw"),
      onclick: () => {
        view.deleting = item.id;
        render();
      },
    });
  }
  return h(
    "span.confirm",
    { testid: "delete-team-confirm-box" },
    h("span", { text: t("event.team.delete.confirm", { team: item.name || item.id }) }),
    " ",
    h("button.btn.small.warn", {
      type: "button",
      testid: "delete-team-confirm",
      text: t("event.confirm"),
      onclick: () => {
        view.deleting = null;
        act(() => call("DELETE", `${base()}/teams/${encodeURIComponent(item.id)}`, undefined, { director: true }));
      },
    }),
    " ",
    h("button.btn.small", {
      type: "button",
      testid: "delete-team-cancel",
      text: t("event.cancel"),
      onclick: () => {
        view.deleting = null;
        render();
      },
    }),
  );
}

function renderRegistration() {
  const box = $("#registration");
  const event = view.event;
  const last = event?.rounds?.[event.rounds.length - 1];
  const lateEntry = event?.phase === "running" && event.system === "swiss" && (!last || last.complete);
  const show = (event?.phase === "registration" || lateEntry) && isDirector();
  if (!show) {
    fill(box);
    view.registrationBuiltFor = null;
    return;
  }
  // Built once (typing is not lost when the event updates); only the odd-field hint follows the data.
  const builtFor = view.director || session.account?.key;
  if (view.registrationBuiltFor !== builtFor) {
    fill(box, buildRegistration());
    view.registrationBuiltFor = builtFor;
  }
  const startBox = box.querySelector(".start");
  if (startBox) startBox.hidden = event.phase !== "registration";
  const botsBox = box.querySelector(".bot-fill");
  if (botsBox) botsBox.hidden = event.phase !== "registration";
  const odd = (view.event.teams?.length ?? 0) % 2 === 1;
  const label = box.querySelector("[data-testid=start-fill-label]");
  if (label) label.hidden = !odd;
}

// --- standings ---------------------------------------------------------------------------------------------

function critLabel(criterion, fallback) {
  if (!criterion) return t("common.none");
  // the level difference names its table (26 or 28 points: the event's choice)
  const n = view.event?.config?.level_table ?? 26;
  return has(`crit.${criterion}`) ? t(`crit.${criterion}`, { n }) : fallback || criterion;
}

/** 退赛 or 取消资格 by a team's name in the standings, when it is out of the event. */
function outBadge(teamId) {
  const out = (view.event?.withdrawals || []).find((withdrawal) => withdrawal.team === teamId);
  if (!out) return null;
  const key = out.disqualified ? "standings.disqualified" : "standings.withdrawn";
  return h("span.badge-light.warn", { testid: "team-out", dataset: { out: out.disqualified ? "disqualified" : "withdrawn" }, text: ` ${t(key)}` });
}

function renderStandings() {
  const box = $("#standings");
  const rows = view.event?.standings ?? [];
  if (!rows.length) {
    fill(box, h("p.muted", { testid: "no-standings", text: t("standings.none") }));
    return;
  }
  const columns = [
    ["points", (row) => row.points],
    ["progressive", (row) => row.progressive],
    ["wins", (row) => row.wins],
    ["level_difference", (row) => row.level_difference],
    ["levels_gained", (row) => row.levels_gained],
    ["lots", (row) => row.lot],
  ];
  const head = h(
    "tr",
    {},
    h("th.num", { text: t("standings.rank") }),
    h("th", { text: t("standings.team") }),
    ...columns.map(([criterion]) =>
      h("th.num.crit", { dataset: { crit: criterion }, title: critLabel(criterion), text: critLabel(criterion) }),
    ),
    h("th.num", { text: t("standings.wdl") }),
    h("th.num", { text: t("standings.score28") }),
    h("th", { text: t("standings.decided") }),
  );
  const body = rows.map((row) =>
    h(
      "tr",
      {
        testid: "standing-row",
        dataset: { team: row.team, rank: String(row.rank), above: row.above ?? "" },
      },
      h("td.num.rank", { text: String(row.rank) }),
      h(
        "td.team-cell",
        {},
        h("strong", { text: row.name || teamName(row.team) }),
        h("span.muted", { text: ` ${row.team}` }),
        outBadge(row.team),
      ),
      ...columns.map(([criterion, value]) =>
        h(`td.num${row.above === criterion ? ".decided" : ""}`, {
          dataset: { crit: criterion },
          text: String(value(row) ?? t("common.none")),
        }),
      ),
      h("td.num", { text: `${row.wins ?? 0}-${row.draws ?? 0}-${row.losses ?? 0}` }),
      h("td.num", { text: String(row.score28 ?? t("common.none")) }),
      h("td.decided-by", {
        testid: "decided-by",
        dataset: { above: row.above ?? "" },
        text: row.above ? critLabel(row.above, row.above_label) : t("common.none"),
      }),
    ),
  );
  fill(box,
    h(
      "div.table-scroll",
      {},
      h("table.data-table.standings", { testid: "standings" }, h("thead", {}, head), h("tbody", {}, ...body)),
    ),
  );
}

// --- rounds and tables -------------------------------------------------------------------------------------

function canPair() {
  const event = view.event;
  if (!event || event.phase !== "running" || !isDirector()) return false;
  const rounds = event.rounds || [];
  if (rounds.length >= (event.total_rounds ?? Infinity)) return false;
  const last = rounds[rounds.length - 1];
  if (!last) return true;
  if (!last.complete) return false;
  return !(event.config?.require_signatures && !last.signed);
}

function renderRoundControls() {
  const box = $("#round-controls");
  const event = view.event;
  if (!event || !isDirector() || event.phase === "registration") {
    fill(box);
    return;
  }
  const rounds = event.rounds || [];
  const last = rounds[rounds.length - 1];
  if (last && !last.started_at && !last.complete) {
    // published, not started: the director starts it (or it starts at its time)
    fill(box,
      last.start_at
        ? h("span.muted", { testid: "start-scheduled", text: t("event.start.scheduled", { at: when(last.start_at) }) })
        : null,
      h("button.btn.primary", {
        type: "button",
        testid: "start-round",
        disabled: view.busy,
        text: t("event.start.round", { n: last.number }),
        onclick: () => act(() => call("POST", `${base()}/rounds/${last.number}/start`, {}, { director: true })),
      }),
    );
    return;
  }
  const next = rounds.length + 1;
  if (event.total_rounds && next > event.total_rounds) {
    fill(box, h("span.muted", { text: t("event.paired.all") }));
    return;
  }
  const at = h("input", { type: "datetime-local", testid: "start-at", "aria-label": t("event.start.at") });
  fill(box,
    h("label.inline", {}, h("span", { text: t("event.start.at") }), at),
    h("button.btn.primary", {
      type: "button",
      testid: "pair-round",
      disabled: !canPair() || view.busy,
      text: t("event.pair", { n: next }),
      onclick: () => {
        const body = at.value ? { start_at: new Date(at.value).toISOString() } : {};
        return act(() => call("POST", `${base()}/rounds`, body, { director: true }));
      },
    }),
  );
}

function sideBlock(table, side) {
  const id = table.teams?.[side];
  const seats = SIDE_SEATS[side].map((number) => (table.seats || []).find((seat) => seat.seat === number)).filter(Boolean);
  return h(
    `div.side.team${side}`,
    { dataset: { side: String(side), team: id ?? "" } },
    h("strong", { text: teamName(id) }),
    h(
      "span.side-players",
      {},
      ...seats.flatMap((seat, index) => [
        index ? " · " : "",
        h(
          "span.seat",
          { testid: "table-seat", dataset: { seat: String(seat.seat), wind: SEAT_WINDS[seat.seat] } },
          h("span.wind", { text: seatLabel(seat.seat) }),
          " ",
          seat.bot ? botName(seat.player || botLabel(seat.bot), seat.bot) : playerLink(seat.player),
        ),
      ]),
    ),
  );
}

function tableRow(round, table) {
  const key = `${round.number}:${table.table}`;
  const result = table.result;
  const teams = table.teams || [];
  const status = table.status || "waiting";
  const playing = !result && table.levels && table.deal_number;
  const mine = view.me?.seat;
  const plays =
    status !== "finished" && table.table_id && mine?.table_id === table.table_id
      ? [playButton(mine)]
      : [];
  const signed = table.signed || [false, false];
  const row = h(
    "li.round-table",
    { testid: "round-table", dataset: { round: String(round.number), table: String(table.table), status } },
    h(
      "div.rt-head",
      {},
      h("span.rt-number", { text: t("event.table", { n: table.table }) }),
      h(`span.status.${status}`, { text: t(`status.${status}`) }),
      playing
        ? h("span.muted", { text: `${t("event.deal", { n: table.deal_number })} · ${table.levels.map(levelLetter).join(" : ")}` })
        : null,
      table.penalties ? h("span.badge-light.warn", { text: t("event.penalties", { n: table.penalties }) }) : null,
    ),
    h("div.rt-sides", {}, sideBlock(table, 0), h("span.vs", { text: t("event.vs") }), sideBlock(table, 1)),
    h(
      "div.rt-result",
      { testid: "table-result" },
      h("span.result-text", { text: resultText(result, teams) }),
      result && result.kind !== "bye"
        ? h("span.muted.result-detail", {
            text: t("event.result.detail", {
              a: levelText(result, 0),
              b: levelText(result, 1),
              p0: result.round_points?.[0] ?? "",
              p1: result.round_points?.[1] ?? "",
              s0: result.score28?.[0] ?? "",
              s1: result.score28?.[1] ?? "",
            }),
          })
        : null,
      result
        ? h(
            "span.signatures",
            {},
            ...[0, 1].map((side) =>
              h(`span.sig.${signed[side] ? "yes" : "no"}`, {
                text: `${teamName(teams[side])}: ${signed[side] ? t("event.signed") : t("event.unsigned")}`,
              }),
            ),
          )
        : null,
    ),
    h(
      "div.rt-actions",
      {},
      table.table_id
        ? h("a.btn.small", { href: `/tables/${encodeURIComponent(table.table_id)}`, testid: "watch-link", text: t("event.watch") })
        : null,
      ...plays,
      h("button.btn.small", {
        type: "button",
        testid: "sheet-toggle",
        text: view.open.has(key) ? t("event.sheet.hide") : t("event.sheet"),
        onclick: () => toggleSheet(round.number, table.table),
      }),
      isDirector() && teams.length === 2 && !result ? forfeitControl(round.number, table) : null,
    ),
  );
  row.append(...tableRecords(round, table));
  if (isDirector() && round.number === (view.event.rounds || []).length) row.append(directorTools(round, table));
  if (view.open.has(key)) row.append(renderSheet(key, table));
  return row;
}

// The director's forms are rebuilt on every update of the event (an arrival, a tick of lateness): what
// was typed, chosen or opened is kept here by the form's id, and restored.
const drafts = new Map();

function kept(el, id) {
  if (drafts.has(id)) {
    if (el.type === "checkbox") el.checked = drafts.get(id);
    else el.value = drafts.get(id);
  }
  const save = () => drafts.set(id, el.type === "checkbox" ? el.checked : el.value);
  el.addEventListener("input", save);
  el.addEventListener("change", save);
  return el;
}

function keptOpen(details, id) {
  if (drafts.get(id)) details.open = true;
  details.addEventListener("toggle", () => drafts.set(id, details.open));
  return details;
}

function forget(prefix) {
  for (const id of [...drafts.keys()]) if (id.startsWith(prefix)) drafts.delete(id);
}

/** A director's change from a form whose drafts start with ``prefix``: forgotten once it is done. */
async function submitForm(prefix, fn) {
  const answer = await act(fn);
  if (answer) {
    forget(prefix);
    render();
  }
  return answer;
}

function seatLabel(seat) {
  return seat === null || seat === undefined ? "" : t(`event.wind.${SEAT_WINDS[seat]}`);
}

/** What everyone sees at a table: each side's lateness, the director's penalties, the result's changes. */
function tableRecords(round, table) {
  const parts = [];
  const lateness = table.lateness || [];
  // The view's lateness is as of its arrival: a side still missing counts on here, second by second.
  if (lateness.received === undefined) lateness.received = performance.now();
  const late = lateness
    .map((side, index) => (side.late_s > 0 || !side.seated ? { side, team: table.teams[index] } : null))
    .filter(Boolean);
  if (late.length && round.started_at) {
    parts.push(
      h(
        "p.lateness",
        { testid: "lateness" },
        ...late.map(({ side, team }) => {
          const badge = h("span.badge-light.warn", { testid: "lateness-side" });
          const show = () => {
            const counted = side.seated ? side.late_s : side.late_s + (performance.now() - lateness.received) / 1000;
            badge.textContent = lateText(side.seated ? "event.late.seated" : "event.late.missing", counted, teamName(team));
          };
          show();
          if (!side.seated) lateCounters.add({ badge, show });
          return badge;
        }),
      ),
    );
  }
  const penalties = table.director_penalties || [];
  if (penalties.length) {
    parts.push(
      h(
        "ul.table-penalties",
        { testid: "table-penalties" },
        ...penalties.map((entry) =>
          h("li", {
            text: t("event.penalty.line", {
              who: entry.player ? `${entry.player} (${seatLabel(entry.seat)})` : entry.team_name,
              // missing past 10 minutes is 弃权, not a 判负 (docs/rules/competition.md#late)
              penalty:
                entry.penalty === "FORFEIT" && entry.offence === "late"
                  ? t("penalty.ABSENT")
                  : `${penaltyText(entry.penalty)} (${t(`offence.${entry.offence}`)})`,
              reason: entry.late
                ? lateText(entry.late.seated ? "event.late.reason.seated" : "event.late.reason.missing", entry.late.late_s)
                : entry.reason,
              by: entry.by || t("event.penalty.rules"),
            }),
          }),
        ),
      ),
    );
  }
  const corrections = (table.changes || []).filter((change) => change.correction);
  if (corrections.length) {
    parts.push(
      h(
        "ul.table-changes",
        { testid: "table-changes" },
        ...corrections.map((change) =>
          h("li", {
            text: t("event.change.line", {
              result: resultText(change.result, table.teams),
              by: change.by,
              at: change.at ? clockTime(change.at, { seconds: true }) : "",
              reason: change.reason,
            }),
          }),
        ),
      ),
    );
  }
  return parts;
}

function penaltyText(name) {
  return t(`penalty.${name}`);
}

/** Lateness in the page's words: whole minutes and seconds, a part second counted whole as the
 * rules' referee writes it (迟到5分01秒). */
function lateText(key, lateS, team = "") {
  const whole = Math.ceil(lateS);
  return t(key, { team, minutes: Math.floor(whole / 60), seconds: String(whole % 60).padStart(2, "0") });
}

/** The missing sides' lateness on the page, each redrawn once a second (rebuilt with each render). */
const lateCounters = new Set();
setInterval(() => {
  for (const counter of lateCounters) {
    if (counter.badge.isConnected) counter.show();
    else lateCounters.delete(counter);
  }
}, 1000);

/** A penalty of a table's own record (its clocks, 托管): the deal, the second, who, what and why. */
function sheetPenaltyText(p) {
  const who = p.seat !== null && p.seat !== undefined ? seatLabel(p.seat) : t("sheet.penalty.side", { n: p.side + 1 });
  return t("sheet.penalty.line", {
    deal: p.deal,
    at: Math.round(p.at_s),
    who,
    penalty: penaltyText(p.penalty),
    cause: t(p.escalated ? "offence.escalated" : `offence.${p.offence}`),
  });
}

function field(labelKey, control) {
  return h("label.field", {}, h("span", { text: t(labelKey) }), control);
}

/** The director's tools at a table of the current round: arrivals, a penalty, the result. */
function directorTools(round, table) {
  const url = `${base()}/rounds/${round.number}/tables/${table.table}`;
  const id = `${round.number}:${table.table}:`;
  const tools = h("div.director-tools", { testid: "table-tools" });
  if (!table.result) {
    const arrivals = table.arrivals || [];
    const missing = (table.seats || []).filter((seat) => !seat.bot && !arrivals[seat.seat]);
    if (missing.length) {
      tools.append(
        h(
          "p.arrivals",
          {},
          h("span.muted", { text: t("event.arrivals") }),
          " ",
          ...missing.map((seat) =>
            h("button.btn.small", {
              type: "button",
              testid: "arrive-seat",
              dataset: { seat: String(seat.seat) },
              text: t("event.arrive.seat", { player: seat.player, wind: seatLabel(seat.seat) }),
              onclick: () => act(() => call("POST", `${url}/arrivals`, { seat: seat.seat }, { director: true })),
            }),
          ),
        ),
      );
    }
  }
  // a penalty by hand
  const player = kept(h(
    "select",
    { testid: "penalty-player" },
    ...(table.seats || []).map((seat) => h("option", { value: seat.player, text: `${seat.player} (${seatLabel(seat.seat)})` })),
  ), `${id}penalty-player`);
  const penalty = kept(h(
    "select",
    { testid: "penalty-kind" },
    ...["WARNING", "VIOLATION", "FOUL", "FORFEIT"].map((name) => h("option", { value: name, text: penaltyText(name) })),
  ), `${id}penalty-kind`);
  const reason = kept(h("input", { testid: "penalty-reason", maxlength: "200" }), `${id}penalty-reason`);
  const confirmBox = h("span.confirm", { hidden: true });
  const showConfirm = () => {
    confirmBox.hidden = false;
    fill(confirmBox,
      h("span", { text: drafts.get(`${id}penalty-escalates`) || t("event.penalty.confirm", { player: player.value }) }),
      " ",
      h("button.btn.small.warn", { type: "button", testid: "penalty-confirm", text: t("event.confirm"), onclick: () => give(true) }),
    );
  };
  const penaltyForm = h(
    "form.penalty-form",
    { testid: "penalty-form", novalidate: true },
    field("event.penalty.player", player),
    field("event.penalty.kind", penalty),
    field("event.reason", reason),
    h("button.btn.small.warn", { type: "submit", testid: "penalty-submit", text: t("event.penalty.give") }),
    confirmBox,
  );
  const give = (confirm) =>
    submitForm(`${id}penalty`, async () => {
      try {
        return await call(
          "POST",
          `${url}/penalties`,
          { player: player.value, penalty: penalty.value, reason: reason.value, ...(confirm ? { confirm: true } : {}) },
          { director: true },
        );
      } catch (error) {
        // a lesser penalty that escalates to 判负 is confirmed like a 判负
        if (error.reason === "confirm_escalated_forfeit") {
          drafts.set(`${id}penalty-confirming`, true);
          drafts.set(`${id}penalty-escalates`, error.message);
        }
        throw error;
      }
    });
  penalty.addEventListener("change", () => {
    drafts.delete(`${id}penalty-escalates`);
    drafts.delete(`${id}penalty-confirming`);
    confirmBox.hidden = true;
  });
  penaltyForm.addEventListener("submit", (submit) => {
    submit.preventDefault();
    if (penalty.value !== "FORFEIT") return give(false);
    if (!reason.value.trim()) return showError(new Error(t("event.reason.needed")));
    drafts.set(`${id}penalty-confirming`, true);
    showConfirm();
    return null;
  });
  if (drafts.get(`${id}penalty-confirming`) && (penalty.value === "FORFEIT" || drafts.get(`${id}penalty-escalates`))) {
    showConfirm();
  }
  // the result, entered or corrected
  const levels = [0, 1].map((side) =>
    kept(h("input", { testid: `result-level-${side}`, size: "3", "aria-label": teamName(table.teams[side]) }), `${id}result-level-${side}`),
  );
  const deals = kept(h("input", { testid: "result-deals", type: "number", min: "1", max: "200", size: "4" }), `${id}result-deals`);
  const why = kept(h("input", { testid: "result-reason", maxlength: "200" }), `${id}result-reason`);
  const override = kept(h("input", { testid: "result-override", maxlength: "200" }), `${id}result-override`);
  const resultForm = h(
    "form.result-form",
    { testid: "result-form", novalidate: true },
    field("event.result.levels", h("span", {}, levels[0], " : ", levels[1])),
    field("event.result.deals", deals),
    field("event.reason", why),
    field("event.result.override", override),
    h("button.btn.small", { type: "submit", testid: "result-submit", text: table.result ? t("event.result.correct") : t("event.result.enter") }),
  );
  resultForm.addEventListener("submit", (submit) => {
    submit.preventDefault();
    const body = { levels: levels.map((input) => input.value.trim()), deals: Number(deals.value), reason: why.value };
    if (override.value.trim()) body.override = override.value;
    return submitForm(`${id}result`, () => call("POST", `${url}/result`, body, { director: true }));
  });
  // an appeal against the table
  const appealTeam = kept(
    h("select", { testid: "appeal-team" }, ...table.teams.map((team) => h("option", { value: team, text: teamName(team) }))),
    `${id}appeal-team`,
  );
  const appealText = kept(h("input", { testid: "appeal-text", maxlength: "1000" }), `${id}appeal-text`);
  const appealForm = h(
    "form.appeal-form",
    { testid: "appeal-form", novalidate: true },
    field("event.appeal.team", appealTeam),
    field("event.appeal.text", appealText),
    h("button.btn.small", { type: "submit", testid: "appeal-submit", text: t("event.appeal.file") }),
  );
  appealForm.addEventListener("submit", (submit) => {
    submit.preventDefault();
    const body = { round: round.number, table: table.table, team: appealTeam.value, text: appealText.value };
    return submitForm(`${id}appeal`, () => call("POST", `${base()}/appeals`, body, { director: true }));
  });
  tools.append(
    keptOpen(h("details.tool", {}, h("summary", { testid: "penalty-open", text: t("event.penalty.title") }), penaltyForm), `${id}penalty-open`),
    keptOpen(h("details.tool", {}, h("summary", { testid: "result-open", text: t("event.result.title") }), resultForm), `${id}result-open`),
    keptOpen(h("details.tool", {}, h("summary", { testid: "appeal-open", text: t("event.appeal.title") }), appealForm), `${id}appeal-open`),
  );
  return tools;
}

function renderAppeals() {
  const box = $("#appeals");
  const appeals = view.event?.appeals || [];
  $("#appeals-panel").hidden = !appeals.length;
  fill(box,
    ...appeals.map((appeal) => {
      const line = h(
        "li",
        { testid: "appeal", dataset: { number: String(appeal.number) } },
        h("span", {
          text: t("event.appeal.line", { n: appeal.number, round: appeal.round, table: appeal.table, team: appeal.team_name, text: appeal.text }),
        }),
      );
      if (appeal.ruling !== null && appeal.ruling !== undefined) {
        line.append(
          " ",
          h("strong", {
            testid: "appeal-ruling",
            text: t("event.appeal.ruled", {
              ruling: appeal.ruling,
              by: appeal.ruled_by,
              upheld: appeal.upheld ? t("event.appeal.upheld") : t("event.appeal.dismissed"),
            }),
          }),
        );
      } else if (isDirector()) {
        const id = `ruling:${appeal.number}`;
        const ruling = kept(h("input", { testid: "ruling-text", maxlength: "1000" }), `${id}:text`);
        const by = kept(h("input", { testid: "ruling-by", maxlength: "200", placeholder: t("event.appeal.by") }), `${id}:by`);
        const upheld = kept(h("input", { type: "checkbox", testid: "ruling-upheld" }), `${id}:upheld`);
        const form = h(
          "form.ruling-form",
          { novalidate: true },
          field("event.appeal.ruling", ruling),
          field("event.appeal.by", by),
          h("label.inline", {}, upheld, h("span", { text: t("event.appeal.upheld") })),
          h("button.btn.small", { type: "submit", testid: "ruling-submit", text: t("event.appeal.rule") }),
        );
        form.addEventListener("submit", (submit) => {
          submit.preventDefault();
          const body = { ruling: ruling.value, upheld: upheld.checked };
          if (by.value.trim()) body.by = by.value;
          return submitForm(id, () => call("POST", `${base()}/appeals/${appeal.number}/ruling`, body, { director: true }));
        });
        line.append(form);
      }
      return line;
    }),
  );
}

function forfeitControl(roundNumber, table) {
  const key = `${roundNumber}:${table.table}`;
  const id = `${key}:forfeit`;
  const select = h(
    "select.small",
    { testid: "forfeit-team", "aria-label": t("event.forfeit") },
    ...table.teams.map((team) => h("option", { value: team, text: t("event.forfeit.by", { team: teamName(team) }) })),
  );
  if (view.forfeitTeam.has(key)) select.value = view.forfeitTeam.get(key);
  select.addEventListener("change", () => view.forfeitTeam.set(key, select.value));
  const reason = kept(h("input.small", { testid: "forfeit-reason", maxlength: "200", placeholder: t("event.reason") }), `${id}-reason`);
  const confirmBox = h("span.confirm", { hidden: true });
  const showConfirm = () => {
    confirmBox.hidden = false;
    fill(confirmBox,
      h("span", { text: t("event.forfeit.confirm", { team: teamName(select.value) }) }),
      " ",
      h("button.btn.small.warn", {
        type: "button",
        testid: "forfeit-confirm",
        text: t("event.confirm"),
        onclick: () =>
          submitForm(id, () =>
            call(
              "POST",
              `${base()}/rounds/${roundNumber}/tables/${table.table}/forfeit`,
              { team: select.value, note: reason.value },
              { director: true },
            ),
          ),
      }),
    );
  };
  if (drafts.get(`${id}-confirming`)) showConfirm();
  return h(
    "details.forfeit",
    { open: view.forfeitTeam.has(key) || Boolean(drafts.get(`${id}-confirming`)) },
    h("summary", { text: t("event.forfeit") }),
    select,
    reason,
    h("button.btn.small.warn", {
      type: "button",
      testid: "forfeit-submit",
      text: "OK",
      onclick: () => {
        if (!reason.value.trim()) {
          showError(new Error(t("event.reason.needed")));
          return;
        }
        drafts.set(`${id}-confirming`, true);
        showConfirm();
      },
    }),
    confirmBox,
  );
}

function renderRounds() {
  const box = $("#rounds");
  const rounds = view.event?.rounds ?? [];
  if (!rounds.length) {
    fill(box, h("p.muted", { testid: "no-rounds", text: t("event.rounds.none") }));
    return;
  }
  fill(box,
    ...[...rounds].reverse().map((round) =>
      h(
        "section.round",
        { testid: "round", dataset: { round: String(round.number), complete: String(Boolean(round.complete)) } },
        h(
          "h3",
          {},
          t("event.round", { n: round.number }),
          " ",
          roundBadge(round),
          round.signed ? h("span.status.signed", { text: t("event.round.signed") }) : null,
        ),
        h("ul.round-tables", {}, ...(round.tables || []).map((table) => tableRow(round, table))),
        round.bye ? h("p.bye", { testid: "bye", text: t("event.bye", { team: teamName(round.bye) }) }) : null,
      ),
    ),
  );
}

/** A round's state: complete, playing, or published and not started yet (its start not declared). */
function roundBadge(round) {
  const state = round.complete ? "complete" : round.started_at ? "running" : "published";
  const css = { complete: "finished", running: "running", published: "waiting" }[state];
  return h(`span.status.${css}`, { testid: "round-state", dataset: { state }, text: t(`event.round.${state}`) });
}

// --- score sheets ------------------------------------------------------------------------------------------

function sheetPath(roundNumber, table) {
  return `${base()}/rounds/${roundNumber}/tables/${table}/sheet`;
}

async function loadSheet(roundNumber, table) {
  const key = `${roundNumber}:${table}`;
  try {
    view.sheets.set(key, await call("GET", sheetPath(roundNumber, table)));
  } catch (error) {
    view.sheets.set(key, { error: error.message });
  }
}

async function toggleSheet(roundNumber, table) {
  const key = `${roundNumber}:${table}`;
  if (view.open.has(key)) {
    view.open.delete(key);
    renderRounds();
    return;
  }
  view.open.add(key);
  renderRounds();
  await loadSheet(roundNumber, table);
  renderRounds();
}

async function refreshOpenSheets() {
  await Promise.all(
    [...view.open].map((key) => {
      const [roundNumber, table] = key.split(":");
      return loadSheet(roundNumber, table);
    }),
  );
  renderRounds();
}

function placesText(places, players) {
  return (places || []).map((seat) => players?.[seat] || t("seat.label", { n: seat + 1 })).join(" › ");
}

function levelValue(value) {
  const names = { 11: "J", 12: "Q", 13: "K", 14: "A", 15: "过A" };
  return names[value] ?? String(value);
}

function signButton(sheet, table, side) {
  const teams = sheet.teams || table.teams || [];
  const name = sheet.team_names?.[side] || teamName(teams[side]);
  if (sheet.signed?.[side]) return h("span.sig.yes", { testid: `signed-${side}`, text: t("sheet.signed", { team: name }) });
  const seated = (table.seats || []).filter((seat) => seat.seat % 2 === side && !seat.bot);
  const key = session.account?.key;
  const mine = seated.some((seat) => (seat.account ? seat.account === key : isMe(seat.player)));
  const ready = Boolean(sheet.result);
  const button = h("button.btn.small.primary", {
    type: "button",
    testid: `sign-${side}`,
    disabled: !ready || !mine,
    title: !ready ? t("sheet.sign.wait") : mine ? "" : t("sheet.sign.need"),
    text: t("sheet.sign", { team: name }),
  });
  button.addEventListener("click", async () => {
    const answer = await act(() => call("POST", `${sheetPath(sheet.round, sheet.table).replace(/\/sheet$/, "/sign")}`, {}));
    if (answer) {
      view.sheets.set(`${sheet.round}:${sheet.table}`, answer);
      await refresh();
      render();
    }
  });
  return button;
}

function renderSheet(key, table) {
  const sheet = view.sheets.get(key);
  if (!sheet) return h("div.sheet", { testid: "sheet" }, h("p.muted", { text: t("common.loading") }));
  if (sheet.error) return h("div.sheet", { testid: "sheet" }, h("p.error", { text: sheet.error }));
  const bots = sheet.bots || [];
  const players = (sheet.players || []).map((name, seat) => (bots[seat] ? `${name} (${t("badge.bot")})` : name));
  const lines = sheet.lines || [];
  const result = sheet.result;
  const names = sheet.team_names || (sheet.teams || []).map(teamName);
  return h(
    "div.sheet",
    { testid: "sheet", dataset: { round: String(sheet.round), table: String(sheet.table) } },
    h("h4", { text: t("sheet.title", { round: sheet.round, table: sheet.table }) }),
    h(
      "p.sheet-teams",
      {},
      ...[0, 1].flatMap((side) => [
        h(`span.team-dot.team${side}`, { text: names[side] ?? "" }),
        ` ${SIDE_SEATS[side].map((seat) => `${seatLabel(seat)} ${players[seat] ?? ""}`).join(" · ")}  `,
      ]),
    ),
    lines.length
      ? h(
          "div.table-scroll",
          {},
          h(
            "table.data-table.sheet-lines",
            { testid: "sheet-lines" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ...["sheet.deal", "sheet.level", "sheet.places", "sheet.winner", "sheet.rise", "sheet.after", "sheet.note"].map(
                  (k) => h("th", { text: t(k) }),
                ),
              ),
            ),
            h(
              "tbody",
              {},
              ...lines.map((line) =>
                h(
                  "tr",
                  { testid: "sheet-line" },
                  h("td.num", { text: String(line.number) }),
                  h("td", {
                    text:
                      line.level_side === null || line.level_side === undefined
                        ? levelValue(line.level)
                        : `${levelValue(line.level)} (${names[line.level_side] ?? ""})`,
                  }),
                  h("td", { text: placesText(line.places, players) }),
                  h("td", { text: names[line.winner] ?? "" }),
                  h("td.num", { text: `+${line.rise}` }),
                  h("td", { text: (line.levels_after || []).map(levelValue).join(" : ") }),
                  h("td", { text: line.note || "" }),
                ),
              ),
            ),
          ),
        )
      : h("p.muted", { text: t("sheet.lines.none") }),
    sheet.penalties?.length
      ? h(
          "div.penalties",
          {},
          h("strong", { text: t("sheet.penalties") }),
          h("ul", { testid: "sheet-penalties" }, ...sheet.penalties.map((p) => h("li", { text: sheetPenaltyText(p) }))),
        )
      : null,
    h(
      "p.sheet-result",
      { testid: "sheet-result" },
      h("strong", { text: `${t("sheet.result")}: ` }),
      result
        ? `${resultText(result, sheet.teams || table.teams || [])} · ${t("sheet.result.line", {
            a: levelText(result, 0),
            b: levelText(result, 1),
            p0: result.round_points?.[0] ?? "",
            p1: result.round_points?.[1] ?? "",
            s0: result.score28?.[0] ?? "",
            s1: result.score28?.[1] ?? "",
            deals: result.deals ?? lines.length,
          })}`
        : t("event.result.pending"),
      sheet.final ? h("span.status.signed", { text: t("event.final") }) : null,
    ),
    h(
      "div.sign-row",
      { testid: "sign-row" },
      signButton(sheet, table, 0),
      signButton(sheet, table, 1),
      isDirector() && result && result.kind !== "bye" ? forfeitControl(sheet.round, table) : null,
    ),
  );
}

// --- exports -------------------------------------------------------------------------------------------------

function renderExports() {
  $("#csv-results").href = `${base()}/results.csv`;
  $("#csv-standings").href = `${base()}/standings.csv`;
  const print = `/events/${encodeURIComponent(eventId)}/print`;
  $("#print-link").href = print;
  $("#projector-link").href = `/events/${encodeURIComponent(eventId)}/projector`;
  const paired = view.event ? (view.event.rounds || []).length : 0;
  for (const what of ["pairings", "cards", "sheets"]) {
    const link = $(`#print-${what}`);
    link.href = `${print}/${what}?round=${paired}`;
    link.hidden = paired === 0;
  }
  $("#exports").hidden = !view.event || view.event.phase === "registration";
}

// --- the whole page ------------------------------------------------------------------------------------------

function render() {
  document.querySelector("main").classList.toggle("started", Boolean(view.event && view.event.phase !== "registration"));
  renderHead();
  renderDirector();
  renderIdentity();
  renderTeams();
  renderRegistration();
  renderStandings();
  renderRoundControls();
  renderRounds();
  renderAppeals();
  renderExports();
  window.__event = {
    ready: Boolean(view.event),
    event: view.event,
    me: view.me,
    director: isDirector(),
    account: session.account,
  };
}

/** Whether the signed-in account is registered in one of the event's teams (by name). */
function isPlayer() {
  return (view.event?.teams ?? []).some((item) => (item.players ?? []).some((p) => !p.bot && isMe(p.name)));
}

/** Where the signed-in account plays in the event (null: a guest, or no player of the event). */
async function whoami() {
  if (!session.account || !isPlayer()) {
    view.me = null;
    return;
  }
  try {
    view.me = await call("POST", `${base()}/whoami`, {});
  } catch (_) {
    view.me = null;
  }
}

let lastSeen = "";

async function onEvent(event) {
  const before = view.event;
  setEvent(event);
  // A round paired or a table finished may move this player: ask again.
  const roundsNow = `${event.rounds?.length ?? 0}:${event.phase}`;
  if (session.account && roundsNow !== lastSeen) await whoami();
  lastSeen = roundsNow;
  render();
  if (view.open.size && before) refreshOpenSheets();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket;
  try {
    socket = new WebSocket(`${scheme}://${location.host}/ws/events/${encodeURIComponent(eventId)}`);
  } catch (_) {
    return;
  }
  view.socket = socket;
  // a ping every 20 s keeps the connection from being closed as idle (docs/protocol.md)
  const pinger = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send('{"type": "ping"}'), 20000);
  socket.addEventListener("message", (message) => {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch (_) {
      return;
    }
    if (data.type === "event" && data.event) onEvent(data.event);
    else if (data.type === "error" && data.code === "unknown_event") {
      view.notFound = true;
      render();
    }
  });
  socket.addEventListener("close", (close) => {
    clearInterval(pinger);
    view.socket = null;
    if (close.code === 4401) {
      // this browser's session ended (signed out here or elsewhere): no reconnecting
      view.error = t("conn.signedOut");
      render();
      return;
    }
    if (close.code !== 4404) setTimeout(connect, 2000);
  });
}

async function start() {
  try {
    if (sessionStorage.getItem(`cardroom:event:${eventId}:new`)) {
      sessionStorage.removeItem(`cardroom:event:${eventId}:new`);
      view.newDirectorToken = view.director;
    }
  } catch (_) {
    // no banner
  }
  const signedIn = initPage(() => {
    view.registrationBuiltFor = null;
    render();
  });
  render();
  await Promise.all([refresh(), signedIn]);
  await whoami();
  lastSeen = `${view.event?.rounds?.length ?? 0}:${view.event?.phase}`;
  render();
  connect();
  // A safety net when the websocket is down (a proxy without websockets).
  setInterval(async () => {
    if (view.socket && view.socket.readyState === WebSocket.OPEN) return;
    await refresh();
    render();
  }, 5000);
}

start();

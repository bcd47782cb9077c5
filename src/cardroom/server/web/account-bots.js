// The account page's "Bots" section (docs/ladder.md, "Bot accounts"): your bot accounts, a form to
// create one, and for each a new token (rotate), revoke and delete. A token is shown once, when it is
// made, and never kept by the page: hiding it or leaving the page forgets it.

import { api, copyText, h } from "./common.js";
import { t } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);

const state = { account: null, bots: [], loaded: false, token: null };

function showError(message) {
  const box = $("#bots-error");
  box.textContent = message || "";
  box.hidden = !message;
}

function refused(error) {
  return t("account.refused", { message: error.message });
}

/** Show a token made just now for ``bot``, with what to do with it. */
function showToken(bot, token) {
  state.token = { name: bot.name, generation: bot.generation, token };
  drawToken();
}

function drawToken() {
  const box = $("#bot-token");
  box.hidden = !state.token;
  if (!state.token) return;
  $("#bot-token-note").textContent = t("bots.token.once", { name: state.token.name, generation: state.token.generation });
  $("#bot-token-value").textContent = state.token.token;
}

function hideToken() {
  state.token = null;
  drawToken();
}

async function load() {
  try {
    state.bots = (await api("GET", "/api/account/bots")).bots || [];
    state.loaded = true;
  } catch (error) {
    showError(refused(error));
  }
  draw();
}

/** Do one change to a bot, then list them again. */
async function change(method, path, { ask, tokenOf } = {}) {
  if (ask && !window.confirm(ask)) return;
  showError(null);
  try {
    const answer = await api(method, path);
    if (tokenOf && answer && answer.token) showToken(answer.bot, answer.token);
    else if (state.token && method === "DELETE") hideToken();
  } catch (error) {
    showError(refused(error));
  }
  await load();
}

function botItem(bot) {
  const path = `/api/account/bots/${encodeURIComponent(bot.id)}`;
  const status = bot.active ? t("bots.active", { generation: bot.generation }) : t("bots.revoked");
  const link = bot.link
    ? h("a.bot-link", { href: bot.link, rel: "noopener noreferrer nofollow", target: "_blank", testid: "bot-link" }, bot.link)
    : null;
  return h(
    "li.bot-item",
    { testid: "bot-item", dataset: { id: bot.id } },
    h("div.bot-title", {}, h("strong", { testid: "bot-name" }, bot.name), " ", h("span.badge.bot", { text: t("badge.bot") }), " ", h("span.note", { testid: "bot-status" }, status)),
    bot.description ? h("p.bot-description", { testid: "bot-description" }, bot.description) : null,
    link,
    h(
      "div.account-actions",
      {},
      h("button.btn", { type: "button", testid: "bot-rotate", text: t("bots.rotate"), onclick: () => change("POST", `${path}/token`, { tokenOf: true, ask: bot.active ? t("bots.rotate.ask", { name: bot.name }) : null }) }),
      h("button.btn", { type: "button", testid: "bot-version", text: t("bots.version"), onclick: () => change("POST", `${path}/version`, { ask: t("bots.version.ask", { name: bot.name, generation: bot.generation + 1 }) }) }),
      bot.active ? h("button.btn", { type: "button", testid: "bot-revoke", text: t("bots.revoke"), onclick: () => change("DELETE", `${path}/token`, { ask: t("bots.revoke.ask", { name: bot.name }) }) }) : null,
      h("button.btn.ghost", { type: "button", testid: "bot-delete", text: t("bots.delete"), onclick: () => change("DELETE", path, { ask: t("bots.delete.ask", { name: bot.name }) }) }),
    ),
  );
}

function draw() {
  const list = $("#bot-list");
  list.replaceChildren(...state.bots.map(botItem));
  if (state.loaded && !state.bots.length) list.append(h("li.note", { testid: "bots-none", text: t("bots.none") }));
  drawToken();
}

async function create(event) {
  event.preventDefault();
  const form = event.target;
  const body = { name: $("#bot-name").value.trim(), description: $("#bot-description").value, link: $("#bot-link").value.trim() };
  showError(null);
  if (!body.name) {
    showError(t("bots.name.missing"));
    return;
  }
  for (const control of form.querySelectorAll("input, textarea, button")) control.disabled = true;
  try {
    const answer = await api("POST", "/api/account/bots", body);
    form.reset();
    showToken(answer.bot, answer.token);
  } catch (error) {
    showError(refused(error));
  } finally {
    for (const control of form.querySelectorAll("input, textarea, button")) control.disabled = false;
  }
  await load();
}

/** Show or hide the section as the session says (a bot's token signs no page in). */
export function renderBots(account) {
  const panel = $("#bots-panel");
  panel.hidden = !account;
  const changed = (account && account.key) !== (state.account && state.account.key);
  state.account = account;
  if (!account) {
    state.bots = [];
    state.loaded = false;
    state.token = null;
  } else if (changed || !state.loaded) {
    load();
    return;
  }
  draw();
}

export function startBots() {
  $("#bot-form").addEventListener("submit", create);
  $("#bot-token-hide").addEventListener("click", hideToken);
  $("#bot-token-copy").addEventListener("click", async () => {
    if (state.token) await copyText(state.token.token);
  });
}

// The account page (/account, docs/accounts.md): sign in, open an account, or, signed in, who you are,
// "Sign out", a change of password and "Sign out my other devices" (both end the other sessions and
// close their pages' connections). After signing in the page goes to ?next= (a path of this site
// only) or the lobby.

import { api, session, setAccount } from "./common.js";
import { signOut } from "./account.js";
import { t } from "./i18n.js";
import { initPage } from "./pages.js";

const $ = (sel) => document.querySelector(sel);

const MIN_PASSWORD = 8; // the server's (cardroom.server.accounts.accounts.MIN_PASSWORD)

/** Where to go once signed in: ?next= when it is a path of this site ("/…", not "//…" nor "/\…",
 * which a browser reads as another site), else the lobby. */
export function nextPath(search = location.search) {
  const next = new URLSearchParams(search).get("next") || "";
  return /^\/(?![/\\])/.test(next) && !/[\u0000-\u001f]/.test(next) ? next : "/";
}

function showError(box, message) {
  box.textContent = message || "";
  box.hidden = !message;
}

/** The page as the session says: the signed-in panel, or the two forms. */
function render() {
  const account = session.account;
  $("#signed-in").hidden = !account;
  $("#signin-panel").hidden = Boolean(account);
  $("#register-panel").hidden = Boolean(account);
  $("#password-panel").hidden = !account;
  $("#sessions-panel").hidden = !account;
  $("#continue").href = nextPath();
  if (account) {
    $("#signed-in-as").textContent = t("account.as", { name: account.name, role: t(`account.role.${account.role}`) });
  }
  document.title = `${t("account.title")} · ${t("lobby.heading")}`;
  window.__account = { ready: true, account };
}

function busy(form, on) {
  for (const control of form.querySelectorAll("input, button")) control.disabled = on;
}

/** Send a sign-in or a registration; signed in, go on. ``explain`` turns a refusal into the message. */
async function submit(form, box, path, body, explain) {
  showError(box, null);
  busy(form, true);
  try {
    const answer = await api("POST", path, body);
    setAccount(answer.account, answer.csrf);
    location.href = nextPath();
  } catch (error) {
    busy(form, false);
    showError(box, explain(error));
  }
}

function signIn(event) {
  event.preventDefault();
  const name = $("#signin-name").value.trim();
  const password = $("#signin-password").value;
  const box = $("#signin-error");
  if (!name || !password) {
    showError(box, t("account.wrong"));
    return;
  }
  submit(event.target, box, "/api/session", { name, password }, (error) =>
    error.status === 401 ? t("account.wrong") : t("account.refused", { message: error.message }),
  );
}

function register(event) {
  event.preventDefault();
  const name = $("#register-name").value.trim();
  const password = $("#register-password").value;
  const again = $("#register-password2").value;
  const box = $("#register-error");
  for (const input of [$("#register-password"), $("#register-password2")]) input.removeAttribute("aria-invalid");
  if (password !== again) {
    $("#register-password2").setAttribute("aria-invalid", "");
    showError(box, t("account.mismatch"));
    return;
  }
  if (password.length < MIN_PASSWORD) {
    $("#register-password").setAttribute("aria-invalid", "");
    showError(box, t("account.short", { min: MIN_PASSWORD }));
    return;
  }
  submit(event.target, box, "/api/accounts", { name, password }, (error) =>
    error.reason === "name_taken"
      ? t("account.taken", { name })
      : t("account.refused", { message: error.message }),
  );
}

/** A new password must be long enough and typed twice the same (the server also refuses a common
 * one, told as it says). */
async function changePassword(event) {
  event.preventDefault();
  const form = event.target;
  const current = $("#current-password").value;
  const fresh = $("#new-password").value;
  const box = $("#password-error");
  const done = $("#password-done");
  done.hidden = true;
  showError(box, null);
  if (fresh !== $("#new-password2").value) {
    showError(box, t("account.mismatch"));
    return;
  }
  if (fresh.length < MIN_PASSWORD) {
    showError(box, t("account.short", { min: MIN_PASSWORD }));
    return;
  }
  busy(form, true);
  try {
    const answer = await api("POST", "/api/account/password", { current_password: current, new_password: fresh });
    form.reset();
    done.textContent = t("account.change.done", { n: answer.signed_out ?? 0 });
    done.hidden = false;
  } catch (error) {
    showError(box, error.status === 403 ? t("account.change.wrong") : t("account.refused", { message: error.message }));
  } finally {
    busy(form, false);
  }
}

async function signOutOthers() {
  const done = $("#sessions-done");
  const box = $("#sessions-error");
  done.hidden = true;
  showError(box, null);
  try {
    const answer = await api("DELETE", "/api/account/sessions");
    done.textContent = t("account.sessions.done", { n: answer.signed_out ?? 0 });
    done.hidden = false;
  } catch (error) {
    showError(box, t("account.refused", { message: error.message }));
  }
}

async function start() {
  $("#password-form").addEventListener("submit", changePassword);
  $("#sign-out-others").addEventListener("click", signOutOthers);
  $("#signin-form").addEventListener("submit", signIn);
  $("#register-form").addEventListener("submit", register);
  $("#sign-out").addEventListener("click", signOut);
  await initPage(render);
  render();
}

start();

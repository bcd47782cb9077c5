// The signed-in account in every page's header (docs/accounts.md): "Sign in" (a link to
// /account?next=<this page>) or "NAME · Sign out". The session itself (GET /api/account, the CSRF
// token) is kept by common.js; the sign-in page is account-page.js.

import { api, h, loadAccount, needsSignIn, session, setAccount } from "./common.js";
import { onLangChange, t } from "./i18n.js";

/** Where a sign-in link sends the reader, coming back to ``next`` (default: this page). */
export function signInHref(next = location.pathname + location.search + location.hash) {
  return `/account?next=${encodeURIComponent(next)}`;
}

/** A "Sign in" link coming back here (``text``: its label key). */
export function signInLink(testid = "sign-in-link", text = "account.signin") {
  return h("a.btn.small.primary.sign-in-link", { href: signInHref(), testid, text: t(text) });
}

/** An error's message, with a sign-in link when signing in would help (see needsSignIn). */
export function errorWithSignIn(error, message = error.message || String(error)) {
  const parts = [h("span", { text: message })];
  if (needsSignIn(error) && !session.account) parts.push(" ", signInLink("error-sign-in"));
  return parts;
}

/** Sign out (DELETE /api/session), then reload the page as a guest's. */
export async function signOut() {
  try {
    await api("DELETE", "/api/session");
  } catch (_) {
    // the cookie may be gone already: the page reloads as a guest's either way
  }
  setAccount(null, null);
  location.reload();
}

function renderBar(box) {
  const account = session.account;
  box.dataset.signedIn = account ? "1" : "0";
  if (!account) {
    if (location.pathname === "/account") {
      box.replaceChildren(); // the page is the sign-in form
      return;
    }
    box.replaceChildren(h("a.btn.ghost.small", { href: signInHref(), testid: "header-sign-in", text: t("account.signin") }));
    return;
  }
  box.replaceChildren(
    h("a.account-name", { href: "/account", testid: "header-account", title: t("account.as", { name: account.name, role: t(`account.role.${account.role}`) }), text: account.name }),
    h("span.account-sep", { text: "·" }),
    h("button.btn.ghost.small", { type: "button", testid: "header-sign-out", text: t("account.signout"), onclick: signOut }),
  );
}

/** Fill the header's account bar (#account-bar, made before the language button when a page lacks
 * one) once the account is known, and again on a language switch; the session. */
export async function initAccountBar() {
  let box = document.querySelector("#account-bar");
  if (!box) {
    const bar = document.querySelector(".topbar");
    if (bar) {
      box = h("span.account-bar#account-bar", { testid: "account-bar" });
      bar.insertBefore(box, bar.querySelector("#lang"));
    }
  }
  const current = await loadAccount();
  if (box) {
    renderBar(box);
    onLangChange(() => renderBar(box));
  }
  return current;
}

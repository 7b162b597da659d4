// Sharing a table: its join code, the QR code of the join link, the join and viewer links,
// a scorer link for another phone (the scorer's to make), and the chat-ready share text.
// The join, QR, share and token endpoints come with the service's sharing release: the
// page asks the service's own OpenAPI document whether it has them, and a control whose
// endpoint answers 404 or 405 hides itself.
import { ApiError, call, newKey } from "./api.js";
import { copyText, fill, h, submitOnEnter, uniqueId } from "./dom.js";
import { errorText, lang, t } from "./i18n.js";

const SHARING = { join: "/v1/tables/join", qr: "/v1/tables/{id}/qr",
  share: "/v1/tables/{id}/share", tokens: "/v1/tables/{id}/tokens" };
const LABEL_MAX = 64; // a token's label (POST /v1/tables/{id}/tokens)

// The scorer link made on this device, by table id, until the page is reloaded: the API
// shows a token once, and the panel is drawn again (a language change, the table closed).
const scorerLinks = new Map();

/** Add to `absent` the sharing features this server lacks (its OpenAPI paths). */
export async function learnFeatures(absent) {
  try {
    const answer = await call("GET", "/v1/openapi.json");
    const paths = answer.data.paths ?? {};
    for (const [feature, path] of Object.entries(SHARING)) if (!paths[path]) absent.add(feature);
  } catch {
    // unknown: each control finds out when it is used (404/405 hides it)
  }
}

/** The share panel of the table `current` ({id, token, role, join_code, viewer_token});
 * `closed`: its join code opens nothing any more, so neither it, its link nor its QR code
 * is shown (the QR's answer would be a 404). */
export function renderShare({ box, current, absent, closed = false }) {
  const root = `${location.origin}${location.pathname}`;
  const code = closed ? null : current.join_code;
  const joinLink = code ? `${root}?join=${encodeURIComponent(code)}` : null;
  // The viewer token travels in the fragment, which browsers never send to a server.
  const viewerToken = current.role === "viewer" ? current.token : current.viewer_token;
  const viewerLink = viewerToken
    ? `${root}#table=${encodeURIComponent(current.id)}&viewer=${encodeURIComponent(viewerToken)}`
    : null;
  const qr = h("div", { class: "qr", hidden: true });
  const headingId = uniqueId("share");
  box.setAttribute("aria-labelledby", headingId);
  fill(box, h("h2", { id: headingId }, t("shareTable")),
    code ? h("p", { class: "join-code" }, h("span", {}, `${t("joinCode")}: `),
      h("strong", { dataset: { joinCode: code } }, code)) : null,
    qr,
    joinLink && !absent.has("join") ? linkRow(t("joinLink"), joinLink, "join") : null,
    viewerLink ? linkRow(t("viewerLink"), viewerLink, "viewer") : null,
    closed ? null : scorerLinkMaker(current, absent, root),
    absent.has("share") ? null : h("div", { class: "share-text" },
      h("button", { type: "button", onclick: (e) => shareText(e.currentTarget, current, absent) },
        t("shareText")),
      h("pre", { class: "shared", hidden: true })));
  if (!absent.has("qr") && !closed) loadQr(qr, current, absent);
}

function linkRow(text, link, name) {
  const id = uniqueId("link");
  return h("div", { class: "field" }, h("label", { for: id }, text),
    h("div", { class: "inline" },
      h("input", { id, readonly: true, value: link, dataset: { link: name } }),
      copyButton(() => link)));
}

/** The scorer's way to let another phone keep score too: a scorer token minted for that
 * phone, named (POST /v1/tables/{id}/tokens; each event it writes is signed with the
 * name), as a link whose fragment carries the token, which browsers never send. */
function scorerLinkMaker(current, absent, root) {
  if (current.role !== "scorer" || absent.has("tokens")) return null;
  const made = h("div", { class: "scorer-made" });
  const shown = scorerLinks.get(current.id);
  if (shown) fill(made, linkRow(t("scorerLink", { label: shown.label }), shown.link, "scorer"));
  const id = uniqueId("label");
  const name = h("input", { id, maxlength: LABEL_MAX, autocomplete: "off" });
  const said = h("p", { class: "notice", role: "status" });
  const button = h("button", { type: "button", onclick: () => mint() }, t("makeScorerLink"));
  submitOnEnter(name, button);
  const section = h("div", { class: "scorer-link" },
    h("h3", {}, t("anotherScorer")),
    h("p", { class: "hint" }, t("anotherScorerHint")),
    h("div", { class: "field" }, h("label", { for: id }, t("scorerLabel")),
      h("div", { class: "inline" }, name, button)),
    said, made);
  let busy = false; // one token per tap: a second tap while the first is on its way does nothing

  async function mint() {
    if (busy) return;
    const label = name.value.trim();
    if (!label) {
      said.textContent = t("scorerLabelNeeded");
      name.focus();
      return;
    }
    busy = true;
    said.textContent = "";
    try {
      const answer = await call("POST", `/v1/tables/${current.id}/tokens`,
        { token: current.token, key: newKey(), body: { role: "scorer", label } });
      const link = `${root}#table=${encodeURIComponent(current.id)}`
        + `&scorer=${encodeURIComponent(answer.data.token)}`;
      scorerLinks.set(current.id, { label: answer.data.label, link });
      name.value = "";
      fill(made, linkRow(t("scorerLink", { label: answer.data.label }), link, "scorer"));
      made.querySelector("input").focus(); // the link, ready to copy
    } catch (error) {
      if (error instanceof ApiError && error.absent) {
        absent.add("tokens");
        section.remove();
        return;
      }
      said.textContent = error instanceof ApiError ? errorText(error) : t("noAnswer");
    } finally {
      busy = false;
    }
  }
  return section;
}

async function loadQr(holder, current, absent) {
  try {
    const answer = await call("GET", `/v1/tables/${current.id}/qr`, { token: current.token });
    // Parsed as SVG and imported as nodes, never written as HTML; the page's CSP would not
    // run a script in it anyway.
    const svg = new DOMParser().parseFromString(answer.data, "image/svg+xml").documentElement;
    if (svg.nodeName !== "svg") return;
    svg.querySelectorAll("script, foreignObject").forEach((e) => e.remove());
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("qr"));
    holder.replaceChildren(document.importNode(svg, true));
    holder.hidden = false;
  } catch (error) {
    if (error instanceof ApiError && error.absent) absent.add("qr");
  }
}

async function shareText(button, current, absent) {
  try {
    const answer = await call("GET", `/v1/tables/${current.id}/share?lang=${lang()}`,
      { token: current.token });
    const holder = button.parentElement;
    const pre = holder.querySelector("pre");
    pre.textContent = answer.data;
    pre.hidden = false;
    holder.dataset.version = /(\d+)/.exec(answer.etag ?? "")?.[1] ?? ""; // "N" or "N.en"
    if (await copyText(answer.data)) button.textContent = t("copied");
  } catch (error) {
    if (error instanceof ApiError && error.absent) {
      absent.add("share");
      button.parentElement.remove();
    }
  }
}

/** The share text shown under its button, and the button's "Copied", go once the table
 * is at another `version` than the text was made at: its totals would be old ones, ready
 * to be pasted into the chat. */
export function forgetStaleShare(box, version) {
  const holder = box?.querySelector(".share-text");
  if (!holder || holder.dataset.version == null || holder.dataset.version === String(version)) {
    return;
  }
  delete holder.dataset.version;
  const pre = holder.querySelector("pre");
  pre.hidden = true;
  pre.textContent = "";
  holder.querySelector("button").textContent = t("shareText");
}

function copyButton(text) {
  const button = h("button", { type: "button", onclick: async () => {
    if (await copyText(text())) button.textContent = t("copied");
  } }, t("copy"));
  return button;
}

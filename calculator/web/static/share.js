// Sharing a table: its join code, the QR code of the join link, the join and viewer links,
// and the chat-ready share text. The join, QR and share endpoints come with the service's
// sharing release: the page asks the service's own OpenAPI document whether it has them,
// and a control whose endpoint answers 404 or 405 hides itself.
import { ApiError, call } from "./api.js";
import { copyText, fill, h, uniqueId } from "./dom.js";
import { lang, t } from "./i18n.js";

const SHARING = { join: "/v1/tables/join", qr: "/v1/tables/{id}/qr",
  share: "/v1/tables/{id}/share" };

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
  const linkRow = (text, link, name) => {
    const id = uniqueId("link");
    return h("div", { class: "field" }, h("label", { for: id }, text),
      h("div", { class: "inline" },
        h("input", { id, readonly: true, value: link, dataset: { link: name } }),
        copyButton(() => link)));
  };
  const qr = h("div", { class: "qr", hidden: true });
  const headingId = uniqueId("share");
  box.setAttribute("aria-labelledby", headingId);
  fill(box, h("h2", { id: headingId }, t("shareTable")),
    code ? h("p", { class: "join-code" }, h("span", {}, `${t("joinCode")}: `),
      h("strong", { dataset: { joinCode: code } }, code)) : null,
    qr,
    joinLink && !absent.has("join") ? linkRow(t("joinLink"), joinLink, "join") : null,
    viewerLink ? linkRow(t("viewerLink"), viewerLink, "viewer") : null,
    absent.has("share") ? null : h("div", { class: "share-text" },
      h("button", { type: "button", onclick: (e) => shareText(e.currentTarget, current, absent) },
        t("shareText")),
      h("pre", { class: "shared", hidden: true })));
  if (!absent.has("qr") && !closed) loadQr(qr, current, absent);
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
    const pre = button.parentElement.querySelector("pre");
    pre.textContent = answer.data;
    pre.hidden = false;
    if (await copyText(answer.data)) button.textContent = t("copied");
  } catch (error) {
    if (error instanceof ApiError && error.absent) {
      absent.add("share");
      button.parentElement.remove();
    }
  }
}

function copyButton(text) {
  const button = h("button", { type: "button", onclick: async () => {
    if (await copyText(text())) button.textContent = t("copied");
  } }, t("copy"));
  return button;
}

// What the hand is worth so far and how it ends: the live preview (the API asked again a
// moment after each edit, the answer of an older edit never shown over a newer one), and
// the outcome buttons (stop, 나가리, 총통, 3뻑; a balance hand's cards left and "Score").
import { ApiError, call } from "./api.js";
import { fill, h, select, uniqueId } from "./dom.js";
import { label, num, signed, t } from "./i18n.js";
import { satOut } from "./result.js";
import { handPath } from "./hand-body.js";

const PREVIEW_DELAY_MS = 250;

/** The preview and outcome of the hand editor `view` (hand.js). */
export function createPreview(view) {
  const { state, parts, context, onOutcome, onEdit } = view;
  let timer = null;
  let inflight = null;

  /** The preview was of other piles: drop it and any answer still on its way (render()
   * asks again). */
  function forgetPreview() {
    clearTimeout(timer);
    inflight?.abort();
    state.preview = null;
    state.previewOffline = false;
    state.previewRefused = false;
  }

  function changed() {
    view.clearErrors();
    view.updateCards();
    view.updateBar();
    onEdit();
    clearTimeout(timer);
    // A problem said after this edit (the hand sent meanwhile and refused, even before
    // the preview goes out) stands: the preview's answer neither clears it nor says its
    // own over it.
    const asked = view.problemsSaid();
    timer = setTimeout(() => preview(asked), PREVIEW_DELAY_MS);
  }

  async function preview(asked) {
    if (view.playing().length < 2) return;
    inflight?.abort();
    inflight = new AbortController();
    try {
      // lang=all: labels in both languages, so a language switch redraws without a call
      const answer = await call("POST", `${handPath(state.variant)}?lang=all`,
        { body: { ...context(), ...view.body() }, signal: inflight.signal });
      state.preview = answer.data;
      state.previewOffline = false;
      state.previewRefused = false;
      if (view.problemsSaid() === asked) view.clearErrors();
    } catch (error) {
      if (error.name === "AbortError") return;
      state.preview = null;
      state.previewOffline = !(error instanceof ApiError); // no answer: said, not blank
      state.previewRefused = error instanceof ApiError; // its problems are said instead
      if (error instanceof ApiError && view.problemsSaid() === asked) view.showProblems(error);
    }
    view.updateBar();
    renderPreview();
  }

  function renderPreview() {
    if (!parts.preview) return;
    const answer = state.preview;
    const balance = state.variant === "balance";
    // One line per player in every state, each two lines high (a longer one cut: CSS):
    // the answer's, or "…" while it is asked, or "—" when there is none (refused: its
    // problems are said; no connection). So nothing under it moves as an answer comes or
    // a line grows: a tap aimed at an outcome button lands on it (they moved ~250 ms after
    // a card's tap, and a tap meant for Nagari stored "B stops").
    let lines = null;
    if (answer) lines = balance ? balanceLines(answer) : handLines(answer);
    else if (view.playing().length >= 2) {
      const none = state.previewOffline || state.previewRefused;
      lines = h("ul", { class: "preview-waiting", "aria-busy": String(!none) },
        state.names.map((name) => h("li", {}, h("strong", {}, name), none ? " —" : " …")));
    }
    // a balance hand's missing cards: a line of its own, kept empty when none are
    const missing = balance && answer?.void
      ? t("balanceMissing", { n: answer.missing_cards.length }) : "\u00a0";
    fill(parts.preview,
      h("h3", { id: parts.previewId }, t("preview")),
      h("p", { class: "hint" }, t("previewHelp")),
      balance && lines ? h("p", { class: "hint preview-line" }, missing) : null,
      lines);
    fill(parts.previewNote,
      state.previewOffline ? h("p", { class: "notice" }, t("previewOffline")) : null);
  }

  /** A Go-Stop hand so far: each player's points, whether it may stop, its items. */
  function handLines(answer) {
    // the one who sits out scores nothing and may not stop: it says what it did
    return h("ul", { class: "preview-list" }, answer.players.map((player) => h("li", {
      dataset: { previewPlayer: player.id } },
    h("strong", {}, player.id), " ",
    player.sits_out ? satOut(player) : [
      h("span", { class: "preview-points" }, t("pointsShort", { n: num(player.points) })),
      " · ", player.may_stop ? t("mayStop") : t("mayNotStop"),
      player.items.length ? ` — ${player.items.map((item) =>
        `${label(item.label)} ${num(item.points)}`).join(", ")}` : ""])));
  }

  /** A balance hand so far: each player's total and balance. */
  function balanceLines(answer) {
    return h("ul", { class: "preview-list" }, answer.players.map((player) => h("li", {
      dataset: { previewPlayer: player.id } },
    h("strong", {}, player.id), " ",
    h("span", { class: "preview-points" }, t("pointsShort", { n: num(player.total) })),
    player.balance === null ? "" : ` · ${t("balanceOf", { n: signed(player.balance) })}`)));
  }

  /** A balance hand: the cards nobody holds yet go to one player; then score it. */
  function balanceButtons() {
    const headingId = uniqueId("outcome");
    const rest = (i) => () => {
      const held = new Set(state.piles.flat());
      const left = state.cards.filter((c) => c.in_deck !== false && !held.has(c.id));
      state.piles[i] = [...state.piles[i], ...left.map((c) => c.id)];
      changed();
    };
    return h("section", { class: "outcome", "aria-labelledby": headingId },
      h("h3", { id: headingId }, t("outcome")),
      h("div", { class: "outcome-row", role: "group", "aria-label": t("restTo") },
        h("span", { class: "row-title", "aria-hidden": "true" }, t("restTo")),
        state.names.map((name, i) => h("button", { type: "button", onclick: rest(i) },
          t("restToPlayer", { id: name })))),
      h("div", { class: "outcome-row" }, h("button", { type: "button", class: "go",
        onclick: () => onOutcome(null) }, t("scoreHand"))));
  }

  function outcomeButtons() {
    const row = (title, make) => h("div", { class: "outcome-row", role: "group",
      "aria-label": title }, h("span", { class: "row-title", "aria-hidden": "true" }, title),
    view.playing().map((i) => make(state.names[i])));
    const fire = (outcome) => () => onOutcome(outcome);
    const headingId = uniqueId("outcome");
    return h("section", { class: "outcome", "aria-labelledby": headingId,
      dataset: { pointer: "/outcome" } },
    h("h3", { id: headingId }, t("outcome")),
    select({ label: t("liable"), value: state.liable, pointer: "/outcome/liable",
      choices: [["", t("liableNone")], ...view.playing().map((i) => [state.names[i], state.names[i]])],
      onchange: (value) => { state.liable = value; } }),
    row(t("stop"), (name) => h("button", { type: "button", class: "go",
      onclick: fire({ type: "stop", winner: name }) }, t("stopBy", { id: name }))),
    h("div", { class: "outcome-row" }, h("button", { type: "button",
      onclick: fire({ type: "nagari" }) }, t("nagari"))),
    row(t("chongtong"), (name) => h("button", { type: "button",
      onclick: fire({ type: "chongtong", winner: name }) }, t("chongtongBy", { id: name }))),
    row(t("threePpuk"), (name) => h("button", { type: "button",
      onclick: fire({ type: "three_ppuk", winner: name }) }, t("threePpukBy", { id: name }))));
  }

  return { forgetPreview, changed, renderPreview, balanceButtons, outcomeButtons };
}

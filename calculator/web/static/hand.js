// One hand being entered: the players' piles (tapped cards or counts), their go, shakes,
// bombs and sake-cup choice, who sits out when four play (광팔기) and how many cards it
// sells, the live preview and the outcome buttons. A balance-variant hand (120/80/60) is
// the captured cards alone, then "Score". It builds the hand body of POST
// /v1/gostop/hands (or /v1/balance/hands); what the body is worth is always the API's answer (the
// page checks nothing itself: a card held twice is shown where the API points).
//
// This module holds the editor's state, draws it and answers its callers; each part of
// the editor is a module of its own, made with the `view` it shares with the others (the
// state, the editor's boxes, what the caller gave, and each part's functions, which the
// others call through it): no part imports another, so none depends on the order they
// are made in. hand-body.js is no part: plain functions of the state, which any may use.
//   hand-body.js      the state and the API's hand body, both ways (and handPath)
//   hand-sitter.js    who sits out when four play (광팔기) and how many cards it sells
//   hand-cards.js     the player bar and the deck: tapping cards to players (and badges)
//   hand-counts.js    counts entered instead of cards, go / shakes / bombs, side events
//   hand-preview.js   the live preview, asked again after each edit, and the outcome buttons
//   hand-problems.js  the API's problems, each shown where its pointer points
import { fill, h, keepFocus, uniqueId } from "./dom.js";
import { fieldName, t } from "./i18n.js";
import { createCards } from "./hand-cards.js";
import { createCounts } from "./hand-counts.js";
import { editableEvents, emptyFlags, emptyTally, EVENTS, handBody, handOutcome, loadHand }
  from "./hand-body.js";
import { createPreview } from "./hand-preview.js";
import { createProblems } from "./hand-problems.js";
import { createSitter } from "./hand-sitter.js";

export { handPath } from "./hand-body.js";
export { badges } from "./hand-cards.js";

/**
 * The hand editor. `context()` gives what a preview needs besides the hand (ruleset,
 * stake); `onOutcome(outcome)` is called by the outcome buttons (a balance hand has no
 * outcome: its "Score" button calls `onOutcome(null)`).
 */
export function createHandEditor({ mount, context, onOutcome, entry = "cards",
  around = () => [], onEdit = () => {} }) {
  const state = {
    names: [],
    piles: [],
    tallies: [],
    flags: [],
    entry,
    selectedPlayer: null,
    selectedCard: null,
    cardStop: null, // the card that takes the tab into the deck (the one focused last)
    cards: [],
    preview: null,
    previewOffline: false, // the last preview got no answer (the network)
    previewRefused: false, // the last preview was refused (its problems are said)
    sitter: null, // the index in names of who sits out (four players), or null
    sold: 0, // the cards the sitter sells
    sitterHand: null, // a sitter's cards as a loaded hand gave them (kept until changed)
    // the pile, counts and flags of the player who sits out, as they were before: back if
    // another player sits out instead, {name, pile, tally, flags}
    benched: null,
    variant: "gostop", // or "balance": captured cards only, everyone plays, no outcome
    kept: null, // a loaded hand's fields the editor does not edit (kept(hand))
    liable: "", // the loser who pays for every loser (독박), or "" (none named)
    events: editableEvents([]), // side event type → the player it pays, or ""
  };
  const parts = {};
  // what the parts share: each adds its functions, called through it by the others
  const view = { state, parts, mount, context, onOutcome, around, onEdit };
  Object.assign(view, { render, clear, body, outcome },
    createSitter(view), createCards(view), createCounts(view), createPreview(view),
    createProblems(view));

  function setPlayers(names) {
    const old = state.names;
    const keep = (list, fresh) => names.map((name) => {
      const at = old.indexOf(name);
      return at >= 0 ? list[at] : fresh();
    });
    state.piles = keep(state.piles, () => []);
    state.tallies = keep(state.tallies, emptyTally);
    state.flags = keep(state.flags, emptyFlags);
    const sitter = state.sitter === null ? null : old[state.sitter];
    state.names = [...names];
    if (!names.includes(state.liable)) state.liable = "";
    for (const type of EVENTS) if (!names.includes(state.events[type])) state.events[type] = "";
    state.selectedPlayer = null;
    view.forgetPreview();
    view.seat(sitter);
    render();
  }

  /** Player `from` is now called `to`: its piles, counts and flags stay. */
  /** `from` is named `to` from now on, its tapped cards with it; `draw` false: the
   * editor is drawn again later (`render`), by whoever asked. */
  function renamePlayer(from, to, { draw = true } = {}) {
    const at = state.names.indexOf(from);
    if (at < 0 || from === to) return;
    state.names[at] = to;
    if (state.liable === from) state.liable = to;
    for (const type of EVENTS) if (state.events[type] === from) state.events[type] = to;
    state.sitterHand = state.sitterHand && [...state.sitterHand];
    if (state.benched?.name === from) state.benched = { ...state.benched, name: to };
    view.forgetPreview();
    if (draw) render();
  }

  /** Score hands of `variant` ("gostop" or "balance"); a balance hand is tapped cards. */
  function setVariant(variant) {
    if (variant === state.variant) return;
    state.variant = variant;
    if (variant === "balance") state.entry = "cards";
    view.seat(state.sitter === null ? null : state.names[state.sitter]);
    view.forgetPreview();
    render();
  }

  function setCards(cards) {
    state.cards = cards;
    render();
  }

  /** The hand as the API takes it (no outcome, rule set or stake), with a loaded hand's
   * fields the editor does not edit as they were. */
  function body() {
    return handBody(state);
  }

  /** The outcome tapped, with the loaded outcome's other fields (a liable loser, 총통
   * holders) when it is the same outcome (type and winner). */
  function outcome(tapped) {
    return handOutcome(state, tapped);
  }

  /** Load a stored hand body (a correction starts from the hand as it was entered). */
  function load(hand) {
    loadHand(state, hand);
    view.forgetPreview();
    render();
  }

  /** Empty every pile; `forget`: also the loaded hand's fields the editor does not edit
   * (the hand is saved or given up; "Clear every pile" during a correction keeps them). */
  function clear({ forget = false } = {}) {
    state.piles = state.names.map(() => []);
    state.tallies = state.names.map(emptyTally);
    state.flags = state.names.map(emptyFlags);
    state.sold = 0;
    state.sitterHand = null;
    state.benched = null;
    state.selectedCard = null;
    if (forget === true) state.kept = null;
    state.liable = "";
    state.events = editableEvents([]);
    view.forgetPreview();
    render();
  }

  // --- rendering -------------------------------------------------------------------

  function render() {
    if (!mount) return;
    keepFocus(mount, draw, () => mount.querySelector("button:not(:disabled)"));
  }

  function draw() {
    parts.status = h("p", { class: "hint", role: "status" }, view.help());
    parts.bar = h("div", { class: "player-bar", role: "group", "aria-label": t("players") });
    parts.pile = h("div", { class: "pile" });
    parts.flags = h("div", { class: "flags" });
    parts.previewId = uniqueId("preview");
    parts.deckId = uniqueId("deck");
    parts.preview = h("section", { class: "preview", "aria-labelledby": parts.previewId });
    parts.errors = h("div", { class: "errors", role: "alert" });
    // the preview's "no connection", under the outcome buttons: above them, it moved them
    // as it came and went
    parts.previewNote = h("div", { class: "preview-note" });
    const balance = state.variant === "balance";
    fill(mount,
      state.kept ? h("p", { class: "notice kept" }, t("keptParts",
        { parts: state.kept.names.map(fieldName).join(", ") })) : null,
      balance ? null : entrySwitch(),
      view.sitterChoice(),
      parts.bar, parts.status,
      // the months' headings (h4) sit under one of their own for screen readers, as the
      // flags' sit under theirs
      state.entry === "cards"
        ? h("h3", { class: "visually-hidden", id: parts.deckId }, t("deckHeading")) : null,
      parts.pile,
      balance ? null : [h("h3", {}, t("flags")), parts.flags, view.sideEvents()],
      parts.preview,
      balance ? view.balanceButtons() : view.outcomeButtons(),
      parts.previewNote,
      parts.errors);
    view.renderBar();
    if (state.entry === "cards") view.renderCards();
    else view.renderCounts();
    if (!balance) view.renderFlags();
    view.renderPreview();
    if (view.playing().length >= 2 && !state.preview) view.changed();
  }

  /** Cards or counts: how the piles are entered (a balance hand is cards alone). */
  function entrySwitch() {
    const choice = (value, text) => h("button", {
      type: "button", class: "seg", "aria-pressed": String(state.entry === value),
      onclick: () => {
        if (state.entry === value) return;
        state.entry = value;
        view.forgetPreview();
        render();
      },
    }, text);
    return h("div", { class: "segmented", role: "group", "aria-label": t("entry") },
      choice("cards", t("entryCards")), choice("counts", t("entryCounts")));
  }

  return { setPlayers, renamePlayer, setCards, setVariant, body, outcome, load, clear, render,
    showErrors: view.showErrors, clearErrors: view.clearErrors, refresh: view.changed,
    get names() { return state.names; } };
}

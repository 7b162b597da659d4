// One hand being entered: the players' piles (tapped cards or counts), their go, shakes,
// bombs and sake-cup choice, who sits out when four play (광팔기) and how many cards it
// sells, the live preview and the outcome buttons. A balance-variant hand (120/80/60) is
// the captured cards alone, then "Score". It builds the hand body of POST
// /v1/gostop/hands (or /v1/balance/hands); what the body is worth is always the API's answer (the
// page checks nothing itself: a card held twice is shown where the API points).
import { ApiError, call } from "./api.js";
import { cardFace, cardName, cardWord } from "./cards.js";
import { checkbox, fill, h, keepFocus, roving, select, stepper, uniqueId } from "./dom.js";
import { codeLabel, fieldName, label, monthName, num, problemText, signed, t } from "./i18n.js";
import { satOut } from "./result.js";

const TALLY_NUMBERS = [["brights", 5], ["animals", 9], ["ribbons", 10], ["junk_value", 60]];
const TALLY_FLAGS = ["rain_bright", "godori", "rain_ribbon", "hongdan", "cheongdan", "chodan",
  "has_gukjin"];
const FLAG_LABELS = { rain_bright: "rainBright", godori: "godori", rain_ribbon: "rainRibbon",
  hongdan: "hongdan", cheongdan: "cheongdan", chodan: "chodan", has_gukjin: "hasGukjin" };
const NUMBER_LABELS = { brights: "brights", animals: "animals", ribbons: "ribbons",
  junk_value: "junkValue" };
const PREVIEW_DELAY_MS = 250;
// Four at the table: one sits out and sells its brights (광팔기); the API takes at most four.
const SEATS_WITH_SITTER = 4;
const MAX_SOLD = 10; // the most any rule set sells (gwangpal_cards: fudawiki); the API says less

/** Where a hand of `variant` ("gostop" or "balance") is scored. */
export function handPath(variant) {
  return variant === "balance" ? "/v1/balance/hands" : "/v1/gostop/hands";
}

// What the editor edits; a loaded hand's other fields (side events, 역고, bombs after a
// shake, a declared score, the outcome's liable loser…) are carried through unchanged.
const EDITED_PLAYER = new Set(["id", "captured", "tally", "go_count", "shakes", "bombs", "gukjin",
  "sits_out", "sold_brights", "hand"]);
const EDITED_HAND = new Set(["players", "outcome"]);
// Side events the editor enters: one player each at most (paid when they happen).
const EVENTS = ["first_ppuk", "consecutive_ppuk", "first_ttadak"];

/** A hand's side events as {type: player}, or null when the editor cannot show them so
 * (an unknown type, or one type twice): then they are carried as they are. */
function editableEvents(events) {
  const chosen = Object.fromEntries(EVENTS.map((type) => [type, ""]));
  for (const event of events ?? []) {
    if (!EVENTS.includes(event.type) || chosen[event.type] || Object.keys(event).length !== 2) {
      return null;
    }
    chosen[event.type] = event.player;
  }
  return chosen;
}

/** A loaded hand's fields the editor does not edit: {hand, players: Map(id → fields),
 * outcome, names (for the notice)}, or null when there are none. */
function kept(hand) {
  const rest = (object, edited) => Object.fromEntries(Object.entries(object ?? {})
    .filter(([name]) => !edited.has(name)));
  const top = rest(hand, EDITED_HAND);
  if (editableEvents(hand.events)) delete top.events;
  const players = new Map(hand.players.map((p) => [p.id, rest(p, EDITED_PLAYER)])
    .filter(([, fields]) => Object.keys(fields).length));
  const outcome = hand.outcome ?? null;
  const names = new Set([...Object.keys(top), ...[...players.values()].flatMap(Object.keys),
    ...Object.keys(rest(outcome, new Set(["type", "winner", "liable"])))
      .map((n) => `outcome.${n}`)]);
  return names.size ? { hand: top, players, outcome, names: [...names] } : null;
}

function emptyTally() {
  return { brights: 0, animals: 0, ribbons: 0, junk_value: 0, rain_bright: false,
    godori: false, rain_ribbon: false, hongdan: false, cheongdan: false, chodan: false,
    has_gukjin: false };
}

function emptyFlags() {
  return { go_count: 0, shakes: 0, bombs: 0, gukjin: "" };
}

/** Each player's badge on the cards it holds: two letters of its name, told apart —
 * the first two, else the last two (김민수 and 김민지 are 민수 and 민지: Korean names
 * share a family name), else its place. Letters, not UTF-16 halves (an emoji is one). */
export function badges(names) {
  const letters = names.map((name) => Array.from(name));
  const pick = [(l) => l.slice(0, 2).join(""), (l) => l.slice(-2).join("")];
  const found = letters.map((l) => pick[0](l));
  for (const take of pick.slice(1)) {
    const clash = (i) => found.filter((x) => x === found[i]).length > 1;
    const clashing = found.map((_, i) => clash(i));
    clashing.forEach((c, i) => { if (c) found[i] = take(letters[i]); });
  }
  return found.map((x, i) => (found.filter((y) => y === x).length > 1 ? String(i + 1) : x));
}

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
  let timer = null;
  let inflight = null;
  // The problems of hands sent (showErrors, from outside): a preview answered late leaves
  // the ones said after its edit alone. Not its own kind's: an earlier preview's problem
  // is the piles', which a later preview's answer replaces.
  let problemsShown = 0;

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
    state.preview = null;
    seat(sitter);
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
    forgetPreview();
    if (draw) render();
  }

  /** Who sits out: with four Go-Stop players, `sitter` if it is one of them, else the
   * last; nobody otherwise (a balance hand is played by all four). */
  function seat(sitter) {
    const names = state.names;
    if (names.length !== SEATS_WITH_SITTER || state.variant === "balance") {
      unbench();
      state.sitter = null;
    } else if (!names.includes(sitter)) {
      sitOut(names.length - 1);
    } else {
      state.sitter = names.indexOf(sitter);
    }
  }

  /** Score hands of `variant` ("gostop" or "balance"); a balance hand is tapped cards. */
  function setVariant(variant) {
    if (variant === state.variant) return;
    state.variant = variant;
    if (variant === "balance") state.entry = "cards";
    seat(state.sitter === null ? null : state.names[state.sitter]);
    state.preview = null;
    render();
  }

  /** Player `i` sits this hand out: it captured nothing and only sells. What it held is
   * set aside, and comes back (less the cards given to others since) when another player
   * sits out instead: a tap on the wrong name loses nothing. */
  function sitOut(i) {
    const name = state.names[i];
    if (state.benched?.name !== name) { // (seated again after a roster change: kept as is)
      unbench();
      state.benched = { name, pile: state.piles[i], tally: state.tallies[i],
        flags: state.flags[i] };
    }
    state.sitter = i;
    state.sold = 0;
    state.sitterHand = null;
    state.piles[i] = [];
    state.tallies[i] = emptyTally();
    state.flags[i] = emptyFlags();
  }

  /** The player who sat out plays again (another sits out, or nobody does: a player
   * removed, the balance variant): what it held before comes back, less the cards given
   * to others since. */
  function unbench() {
    const back = state.benched;
    state.benched = null;
    const at = back ? state.names.indexOf(back.name) : -1;
    if (at < 0) return;
    const others = new Set(state.piles.filter((_, j) => j !== at).flat());
    state.piles[at] = back.pile.filter((id) => !others.has(id));
    state.tallies[at] = back.tally;
    state.flags[at] = back.flags;
  }

  /** The indices of the players who play the hand (all but the sitter). */
  function playing() {
    return state.names.map((_, i) => i).filter((i) => i !== state.sitter);
  }

  function setCards(cards) {
    state.cards = cards;
    render();
  }

  /** The hand as the API takes it (no outcome, rule set or stake), with a loaded hand's
   * fields the editor does not edit as they were. */
  function body() {
    const made = edited();
    if (!state.kept) return made;
    return { ...state.kept.hand, ...made, players: made.players.map((player) => {
      const extra = state.kept.players.get(player.id);
      if (!extra) return player;
      const merged = { ...extra, ...player };
      // a declared score stands for the cards until cards or counts are entered
      if (extra.declared && !merged.captured?.length) delete merged.captured;
      if (extra.declared && merged.tally
        && JSON.stringify(merged.tally) === JSON.stringify(emptyTally())) delete merged.tally;
      return merged;
    }) };
  }

  /** The outcome tapped, with the loaded outcome's other fields (a liable loser, 총통
   * holders) when it is the same outcome (type and winner). */
  function outcome(tapped) {
    if (!tapped) return tapped;
    const { liable: _, ...before } = state.kept?.outcome ?? {};
    const same = before.type === tapped.type && before.winner === tapped.winner;
    const made = same ? { ...before, ...tapped } : { ...tapped };
    if (state.liable && tapped.type === "stop" && state.liable !== tapped.winner) {
      made.liable = state.liable;
    }
    return made;
  }

  function edited() {
    if (state.variant === "balance") {
      return { players: state.names.map((id, i) => ({ id, captured: [...state.piles[i]] })) };
    }
    const events = EVENTS.filter((type) => state.events[type])
      .map((type) => ({ type, player: state.events[type] }));
    return {
      ...(events.length ? { events } : {}),
      players: state.names.map((id, i) => {
        if (i === state.sitter) {
          if (state.sitterHand) return { id, sits_out: true, hand: [...state.sitterHand] };
          return state.sold ? { id, sits_out: true, sold_brights: state.sold }
            : { id, sits_out: true };
        }
        const player = { id };
        if (state.entry === "cards") player.captured = [...state.piles[i]];
        else player.tally = { ...state.tallies[i] };
        const flags = state.flags[i];
        for (const name of ["go_count", "shakes", "bombs"]) if (flags[name]) player[name] = flags[name];
        if (flags.gukjin) player.gukjin = flags.gukjin;
        return player;
      }),
    };
  }

  /** Load a stored hand body (a correction starts from the hand as it was entered). */
  function load(hand) {
    const players = hand.players;
    const sitter = players.findIndex((p) => p.sits_out);
    state.names = players.map((p) => p.id);
    state.sitter = sitter >= 0 ? sitter : null;
    state.sold = players[sitter]?.sold_brights ?? 0;
    state.sitterHand = players[sitter]?.hand ?? null;
    state.benched = null; // a stored sitter held nothing else
    state.entry = players.some((p) => p.tally) ? "counts" : "cards";
    state.piles = players.map((p) => [...(p.captured ?? [])]);
    state.tallies = players.map((p) => ({ ...emptyTally(), ...(p.tally ?? {}) }));
    state.flags = players.map((p) => ({ go_count: p.go_count ?? 0, shakes: p.shakes ?? 0,
      bombs: p.bombs ?? 0, gukjin: p.gukjin ?? "" }));
    state.kept = kept(hand);
    state.liable = hand.outcome?.liable ?? "";
    state.events = editableEvents(hand.events) ?? editableEvents([]);
    forgetPreview();
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
    forgetPreview();
    render();
  }

  /** The preview was of other piles: drop it and any answer still on its way (render()
   * asks again). */
  function forgetPreview() {
    clearTimeout(timer);
    inflight?.abort();
    state.preview = null;
  }

  function changed() {
    clearErrors();
    updateCards();
    updateBar();
    onEdit();
    clearTimeout(timer);
    // A problem said after this edit (the hand sent meanwhile and refused, even before
    // the preview goes out) stands: the preview's answer neither clears it nor says its
    // own over it.
    const asked = problemsShown;
    timer = setTimeout(() => preview(asked), PREVIEW_DELAY_MS);
  }

  async function preview(asked) {
    if (playing().length < 2) return;
    inflight?.abort();
    inflight = new AbortController();
    try {
      // lang=all: labels in both languages, so a language switch redraws without a call
      const answer = await call("POST", `${handPath(state.variant)}?lang=all`,
        { body: { ...context(), ...body() }, signal: inflight.signal });
      state.preview = answer.data;
      state.previewOffline = false;
      if (problemsShown === asked) clearErrors();
    } catch (error) {
      if (error.name === "AbortError") return;
      state.preview = null;
      state.previewOffline = !(error instanceof ApiError); // no answer: said, not blank
      if (error instanceof ApiError && problemsShown === asked) showProblems(error);
    }
    updateBar();
    renderPreview();
  }

  // --- rendering -------------------------------------------------------------------

  function render() {
    if (!mount) return;
    keepFocus(mount, draw, () => mount.querySelector("button:not(:disabled)"));
  }

  function draw() {
    parts.status = h("p", { class: "hint", role: "status" }, help());
    parts.bar = h("div", { class: "player-bar", role: "group", "aria-label": t("players") });
    parts.pile = h("div", { class: "pile" });
    parts.flags = h("div", { class: "flags" });
    parts.previewId = uniqueId("preview");
    parts.deckId = uniqueId("deck");
    parts.preview = h("section", { class: "preview", "aria-labelledby": parts.previewId });
    parts.errors = h("div", { class: "errors", role: "alert" });
    const balance = state.variant === "balance";
    fill(mount,
      state.kept ? h("p", { class: "notice kept" }, t("keptParts",
        { parts: state.kept.names.map(fieldName).join(", ") })) : null,
      balance ? null : entrySwitch(),
      sitterChoice(),
      parts.bar, parts.status,
      // the months' headings (h4) sit under one of their own for screen readers, as the
      // flags' sit under theirs
      state.entry === "cards"
        ? h("h3", { class: "visually-hidden", id: parts.deckId }, t("deckHeading")) : null,
      parts.pile,
      balance ? null : [h("h3", {}, t("flags")), parts.flags, sideEvents()],
      parts.preview,
      balance ? balanceButtons() : outcomeButtons(),
      parts.errors);
    renderBar();
    if (state.entry === "cards") renderCards();
    else renderCounts();
    if (!balance) renderFlags();
    renderPreview();
    if (playing().length >= 2 && !state.preview) changed();
  }

  /** With four players: who sits out (one button each) and how many cards it sells. */
  function sitterChoice() {
    if (state.sitter === null) return null;
    const headingId = uniqueId("sitter");
    const at = `/players/${state.sitter}`;
    return h("section", { class: "sitter", "aria-labelledby": headingId, dataset: { pointer: at } },
      h("h3", { id: headingId }, t("sitsOut")),
      h("div", { class: "segmented", role: "group", "aria-label": t("sitsOut") },
        state.names.map((name, i) => h("button", {
          type: "button", class: "seg", "aria-pressed": String(state.sitter === i),
          dataset: { sitter: name },
          onclick: () => {
            if (state.sitter === i) return;
            sitOut(i);
            state.selectedPlayer = null;
            state.preview = null;
            render();
          },
        }, name))),
      stepper({ label: t("soldCards", { id: state.names[state.sitter] }), value: state.sold,
        max: MAX_SOLD, pointer: `${at}/sold_brights`, onchange: (value) => {
          state.sold = value;
          state.sitterHand = null;
          changed();
        } }),
      h("p", { class: "hint" }, t("sitterHelp")));
  }

  /** Who each side event (첫뻑, 연뻑, 첫따닥) pays, if anyone: hidden when a loaded hand
   * carries events the editor cannot show (they are kept as they are). */
  function sideEvents() {
    if (state.kept?.hand.events) return null;
    const chosen = EVENTS.filter((type) => state.events[type]).length;
    return h("details", { class: "side-events", open: chosen > 0,
      dataset: { pointer: "/events" } },
    h("summary", {}, t("sideEvents", { n: chosen })),
    EVENTS.map((type) => select({ label: codeLabel("reason", type), value: state.events[type],
      choices: [["", t("liableNone")], ...playing().map((i) => [state.names[i], state.names[i]])],
      onchange: (value) => {
        state.events[type] = value;
        changed();
      } })));
  }

  function entrySwitch() {
    const choice = (value, text) => h("button", {
      type: "button", class: "seg", "aria-pressed": String(state.entry === value),
      onclick: () => {
        if (state.entry === value) return;
        state.entry = value;
        state.preview = null;
        render();
      },
    }, text);
    return h("div", { class: "segmented", role: "group", "aria-label": t("entry") },
      choice("cards", t("entryCards")), choice("counts", t("entryCounts")));
  }

  function renderBar() {
    fill(parts.bar, state.names.map((name, i) => i === state.sitter ? null : h("button", {
      type: "button", class: `player p${i}`, dataset: { player: String(i) }, title: name,
      onclick: () => tapPlayer(i),
    }, h("span", { class: `player-name ${nameSize(name)}` }, name),
    h("span", { class: "player-sub" }))));
    updateBar();
  }

  /** A name's size class in the bar by its letters (n8 … n12; app.css draws a long one
   * smaller, to its button's width), so that a name of up to 12 letters is read whole
   * at 360 px, not cut short. */
  function nameSize(name) {
    const letters = Array.from(name).length;
    return letters >= 8 ? `n${Math.min(letters, 12)}` : "";
  }

  function updateBar() {
    if (!parts.bar) return;
    parts.bar.querySelectorAll("button.player").forEach((button) => {
      const i = Number(button.dataset.player);
      const scored = state.preview?.players?.find((p) => p.id === state.names[i]);
      // the points and the stop mark first: on a narrow bar the line's end is cut off
      const bits = [];
      if (scored) {
        bits.push(t("pointsShort", { n: num(scored.points ?? scored.total) })
          + (scored.may_stop ? " ✓" : ""));
      }
      if (state.entry === "cards") bits.push(t("cardsShort", { n: state.piles[i].length }));
      button.querySelector(".player-sub").textContent = bits.join(" · ");
      button.setAttribute("aria-pressed", String(state.selectedPlayer === i));
      button.classList.toggle("may-stop", Boolean(scored?.may_stop));
    });
  }

  /** What the entry asks for: tapping cards, or (counts) setting each player's counts. */
  function help() {
    return t(state.entry === "counts" ? "countsHelp" : "pickHelp");
  }

  function tapPlayer(i) {
    if (state.entry === "counts") {
      // counts: the player's own steppers, not cards
      const counts = parts.pile.querySelector(`[data-pointer="/players/${i}/tally"]`);
      parts.status.textContent = t("countsFor", { id: state.names[i] });
      counts?.scrollIntoView({ block: "nearest" });
      counts?.querySelector("button:not(:disabled)")?.focus({ preventScroll: true });
      return;
    }
    if (state.entry === "cards" && state.selectedCard) {
      // a card then a player: the card goes to that player alone
      const card = state.selectedCard;
      state.piles = state.piles.map((pile, j) => (j === i
        ? (pile.includes(card) ? pile : [...pile, card]) : pile.filter((c) => c !== card)));
      state.selectedCard = null;
      parts.status.textContent = t("pickHelp");
      changed();
      parts.pile.querySelector(`[data-card="${card}"]`)?.focus();
      return;
    }
    state.selectedPlayer = state.selectedPlayer === i ? null : i;
    parts.status.textContent = state.selectedPlayer === null
      ? t("pickHelp") : t("givingTo", { id: state.names[i] });
    updateBar();
    updateCards();
  }

  function tapCard(card) {
    if (state.selectedPlayer !== null) {
      // a player then cards: each tap puts the card in (or takes it out of) that pile only
      const pile = state.piles[state.selectedPlayer];
      const at = pile.indexOf(card.id);
      if (at >= 0) pile.splice(at, 1);
      else pile.push(card.id);
      changed();
      return;
    }
    state.selectedCard = state.selectedCard === card.id ? null : card.id;
    parts.status.textContent = state.selectedCard
      ? t("givingCard", { card: cardName(card) }) : t("pickHelp");
    updateCards();
  }

  function renderCards() {
    const months = new Map();
    for (const card of state.cards) {
      if (card.in_deck === false) continue;
      const key = card.month ?? 0;
      if (!months.has(key)) months.set(key, []);
      months.get(key).push(card);
    }
    const groups = [...months.keys()].sort((a, b) => (a || 13) - (b || 13)).map((month) => {
      const headingId = uniqueId("month");
      const title = month ? `${t("month", { m: month })} ${monthName(month)}` : t("bonusCards");
      // a group, not a section: thirteen named sections were thirteen landmarks
      return h("div", { class: "month", role: "group", "aria-labelledby": headingId },
        h("h4", { id: headingId }, title),
        h("div", { class: "month-cards" }, months.get(month).map(cardButton)),
        h("div", { class: "month-errors" }));
    });
    // one tab stop for the 50 cards, the arrow keys between them: Stop is a few Tabs
    // away, not fifty
    const hintId = uniqueId("deck-keys");
    const deck = h("div", { class: "months", role: "group", "aria-labelledby": parts.deckId,
      "aria-describedby": hintId }, groups);
    fill(parts.pile,
      h("p", { id: hintId, class: "visually-hidden" }, t("deckKeys")),
      deck,
      h("button", { type: "button", class: "quiet", onclick: clear }, t("clearCards")));
    roving(deck, "button.card", {
      stop: (button) => button.dataset.card === state.cardStop,
      onstop: (button) => { state.cardStop = button.dataset.card; },
    });
    updateCards();
  }

  function cardButton(card) {
    return h("button", { type: "button", class: "card", dataset: { card: card.id },
      title: cardName(card), onclick: () => tapCard(card) },
    cardFace(card),
    h("span", { class: "visually-hidden card-name" }),
    h("span", { class: "card-word", "aria-hidden": "true" }, cardWord(card)),
    h("span", { class: "owners", "aria-hidden": "true" }));
  }

  function updateCards() {
    if (state.entry !== "cards" || !parts.pile) return;
    const shortNames = badges(state.names);
    const byCard = new Map();
    state.piles.forEach((pile, i) => pile.forEach((id) => {
      if (!byCard.has(id)) byCard.set(id, []);
      byCard.get(id).push(i);
    }));
    parts.pile.querySelectorAll("button.card").forEach((button) => {
      const id = button.dataset.card;
      const owners = byCard.get(id) ?? [];
      const card = state.cards.find((c) => c.id === id);
      const held = owners.length
        ? t("heldBy", { ids: owners.map((i) => state.names[i]).join(", ") }) : t("nobody");
      button.querySelector(".card-name").textContent = `${cardName(card)}, ${held}`;
      const pressed = state.selectedPlayer !== null
        ? owners.includes(state.selectedPlayer) : state.selectedCard === id;
      button.setAttribute("aria-pressed", String(pressed));
      button.classList.toggle("held", owners.length > 0);
      fill(button.querySelector(".owners"), owners.map((i) => h("span",
        { class: `badge p${i}` }, shortNames[i])));
    });
  }

  function renderCounts() {
    fill(parts.pile, ...state.names.map((name, i) => {
      if (i === state.sitter) return null;
      const tally = state.tallies[i];
      const set = (field) => (value) => { tally[field] = value; changed(); };
      return h("fieldset", { class: "counts", dataset: { pointer: `/players/${i}/tally` } },
        h("legend", {}, `${name} · ${t("counts")}`),
        // typed or tapped: 17 junk is a number, not 17 taps
        TALLY_NUMBERS.map(([field, max]) => stepper({
          label: t(NUMBER_LABELS[field]), value: tally[field], max, onchange: set(field),
          pointer: `/players/${i}/tally/${field}`, who: name, typed: true,
        })),
        h("div", { class: "checks" }, TALLY_FLAGS.map((field) => checkbox({
          label: t(FLAG_LABELS[field]), checked: tally[field], onchange: set(field),
          pointer: `/players/${i}/tally/${field}`,
        }))));
    }), h("button", { type: "button", class: "quiet", onclick: clear }, t("clearCounts")));
  }

  function renderFlags() {
    fill(parts.flags, state.names.map((name, i) => {
      if (i === state.sitter) return null;
      const flags = state.flags[i];
      const set = (field) => (value) => { flags[field] = value; changed(); };
      return h("fieldset", { class: "player-flags", dataset: { pointer: `/players/${i}` } },
        h("legend", {}, name),
        stepper({ label: t("goCount"), value: flags.go_count, max: 20, onchange: set("go_count"),
          pointer: `/players/${i}/go_count`, who: name }),
        stepper({ label: t("shakes"), value: flags.shakes, max: 12, onchange: set("shakes"),
          pointer: `/players/${i}/shakes`, who: name }),
        stepper({ label: t("bombs"), value: flags.bombs, max: 12, onchange: set("bombs"),
          pointer: `/players/${i}/bombs`, who: name }),
        select({ label: `${t("gukjin")} · ${name}`, value: flags.gukjin, onchange: set("gukjin"),
          pointer: `/players/${i}/gukjin`, choices: [["", t("optionDefault")],
            ["auto", t("gukjinAuto")], ["animal", t("gukjinAnimal")], ["junk", t("gukjinJunk")]] }));
    }));
  }

  function renderPreview() {
    if (!parts.preview) return;
    const answer = state.preview;
    let shown = null;
    if (answer && state.variant === "balance") shown = balancePreview(answer);
    else if (answer) {
      // the one who sits out scores nothing and may not stop: it says what it did
      shown = h("ul", { class: "preview-list" }, answer.players.map((player) => h("li", {
        dataset: { previewPlayer: player.id } },
      h("strong", {}, player.id), " ",
      player.sits_out ? satOut(player) : [
        h("span", { class: "preview-points" }, t("pointsShort", { n: num(player.points) })),
        " · ", player.may_stop ? t("mayStop") : t("mayNotStop"),
        player.items.length ? ` — ${player.items.map((item) =>
          `${label(item.label)} ${num(item.points)}`).join(", ")}` : ""])));
    }
    fill(parts.preview,
      h("h3", { id: parts.previewId }, t("preview")),
      h("p", { class: "hint" }, t("previewHelp")),
      shown ?? (state.previewOffline ? h("p", { class: "notice" }, t("previewOffline")) : null));
  }

  /** A balance hand so far: each player's total and balance, or the cards still missing. */
  function balancePreview(answer) {
    return [
      answer.void ? h("p", { class: "hint" }, t("balanceMissing", { n: answer.missing_cards.length }))
        : null,
      h("ul", { class: "preview-list" }, answer.players.map((player) => h("li", {
        dataset: { previewPlayer: player.id } },
      h("strong", {}, player.id), " ",
      h("span", { class: "preview-points" }, t("pointsShort", { n: num(player.total) })),
      player.balance === null ? "" : ` · ${t("balanceOf", { n: signed(player.balance) })}`)))];
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
    playing().map((i) => make(state.names[i])));
    const fire = (outcome) => () => onOutcome(outcome);
    const headingId = uniqueId("outcome");
    return h("section", { class: "outcome", "aria-labelledby": headingId,
      dataset: { pointer: "/outcome" } },
    h("h3", { id: headingId }, t("outcome")),
    select({ label: t("liable"), value: state.liable, pointer: "/outcome/liable",
      choices: [["", t("liableNone")], ...playing().map((i) => [state.names[i], state.names[i]])],
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

  // --- errors at the place they point to -------------------------------------------

  /** The editor and the parts of the page around it whose inputs a problem may point at
   * (`around`: the one-hand tab's rules panel, with the stake and the options). */
  function roots() {
    return mount ? [mount, ...around()] : [];
  }

  function clearErrors() {
    for (const root of roots()) {
      root.querySelectorAll(".inline-error").forEach((message) => {
        // the control tied to it for screen readers no longer points at nothing
        if (message.id) {
          document.querySelectorAll(`[aria-describedby="${message.id}"]`)
            .forEach((control) => control.removeAttribute("aria-describedby"));
        }
        message.remove();
      });
      root.querySelectorAll("[aria-invalid]").forEach((e) => e.removeAttribute("aria-invalid"));
      root.querySelectorAll(".has-error").forEach((e) => e.classList.remove("has-error"));
    }
    if (parts.errors) fill(parts.errors);
  }

  /** A sent hand's problems (the outcome's answer): said, and kept from older previews. */
  function showErrors(error, sent = body()) {
    problemsShown += 1;
    showProblems(error, sent);
  }

  /** Show each problem next to what it points at (a card, a stepper, the outcome…). */
  function showProblems(error, sent = body()) {
    clearErrors();
    const unplaced = [];
    for (const entry of error.entries) {
      const target = place(entry.pointer, sent);
      const text = problemText(entry);
      if (!target) {
        // nowhere on the page: the stake or the rule set say which
        const where = /^\/(stake|ruleset)\b/.exec(entry.pointer ?? "")?.[1];
        unplaced.push(where ? `${t(where === "stake" ? "stake" : "rules")}: ${text}` : text);
        continue;
      }
      // a closed panel (the rules, the side events) opens to show it
      for (let open = target.element.closest("details"); open;
        open = open.parentElement?.closest("details")) open.open = true;
      const id = uniqueId("error");
      const message = h("p", { class: "inline-error", id, dataset: { code: entry.code } }, text);
      target.element.classList.add("has-error");
      // said to screen readers by the control itself (a wrapper's first one: an option)
      const control = target.element.matches("input, select, textarea, button")
        ? target.element
        : target.element.querySelector("input, select, textarea") ?? target.element;
      control.setAttribute("aria-invalid", "true");
      control.setAttribute("aria-describedby", id);
      if (target.after === target.element) target.element.after(message);
      else target.after.append(message);
    }
    // no answer at all (the network), or another phone's change first, is not a problem
    // with what was entered
    const only = (code) => error.entries.every((e) => e.code === code);
    const heading = only("no_answer") ? "noAnswerHeading" : only("stale") ? "staleHeading"
      : "errors";
    fill(parts.errors, unplaced.length ? [h("h3", {}, t(heading)),
      h("ul", {}, unplaced.map((d) => h("li", {}, d)))] : []);
  }

  function place(pointer, sent) {
    const card = /^\/players\/(\d+)\/captured\/(\d+)/.exec(pointer ?? "");
    if (card && state.entry === "cards") {
      const id = sent.players[Number(card[1])]?.captured?.[Number(card[2])];
      const button = id && parts.pile.querySelector(`[data-card="${id}"]`);
      if (button) return { element: button, after: button.closest(".month").querySelector(".month-errors") };
    }
    let best = null;
    for (const root of roots()) {
      root.querySelectorAll("[data-pointer]").forEach((element) => {
        const p = element.dataset.pointer;
        if ((pointer === p || pointer?.startsWith(`${p}/`))
            && (!best || p.length > best.dataset.pointer.length)) best = element;
      });
    }
    return best ? { element: best, after: best } : null;
  }

  return { setPlayers, renamePlayer, setCards, setVariant, body, outcome, load, clear, render, showErrors,
    refresh: changed,
    get names() { return state.names; } };
}

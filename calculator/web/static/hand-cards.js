// Tapping cards to players: the bar of players (each with its points and cards so far) and
// the deck by month, each card with the badges of the players who hold it. A player then
// cards, or a card then a player; with counts, a player's tap goes to its counts.
import { cardFace, cardName, cardWord } from "./cards.js";
import { fill, h, roving, uniqueId } from "./dom.js";
import { monthName, num, t } from "./i18n.js";

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

/** The player bar and the deck of the hand editor `view` (hand.js). */
export function createCards(view) {
  const { state, parts } = view;

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
      view.changed();
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
      view.changed();
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
      h("button", { type: "button", class: "quiet", onclick: view.clear }, t("clearCards")));
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

  return { renderBar, updateBar, help, renderCards, updateCards };
}

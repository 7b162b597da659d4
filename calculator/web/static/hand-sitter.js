// Who sits the hand out when four play Go-Stop (광팔기) and how many cards it sells: the
// choice on screen, and the sitter's own piles set aside while it sits out, back when
// another player sits out instead (a tap on the wrong name loses nothing).
import { h, stepper, uniqueId } from "./dom.js";
import { t } from "./i18n.js";
import { emptyFlags, emptyTally } from "./hand-body.js";

// Four at the table: one sits out and sells its brights (광팔기); the API takes at most four.
const SEATS_WITH_SITTER = 4;
const MAX_SOLD = 10; // the most any rule set sells (gwangpal_cards: fudawiki); the API says less

/** The sitter of the hand editor `view` (hand.js). */
export function createSitter(view) {
  const { state } = view;

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
            view.forgetPreview();
            view.render();
          },
        }, name))),
      stepper({ label: t("soldCards", { id: state.names[state.sitter] }), value: state.sold,
        max: MAX_SOLD, pointer: `${at}/sold_brights`, onchange: (value) => {
          state.sold = value;
          state.sitterHand = null;
          view.changed();
        } }),
      h("p", { class: "hint" }, t("sitterHelp")));
  }

  return { seat, playing, sitterChoice };
}

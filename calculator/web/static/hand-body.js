// The hand editor's state and the API's hand body, both ways: the body the editor's state
// makes (a loaded hand's fields it does not edit carried through unchanged), the outcome
// tapped, and a stored hand loaded into the state. Plain functions of the state, no page:
// hand.js and its parts import them (this is no part of the editor's view).

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
export const EVENTS = ["first_ppuk", "consecutive_ppuk", "first_ttadak"];

/** A hand's side events as {type: player}, or null when the editor cannot show them so
 * (an unknown type, or one type twice): then they are carried as they are. */
export function editableEvents(events) {
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

/** A player's counts before any is entered. */
export function emptyTally() {
  return { brights: 0, animals: 0, ribbons: 0, junk_value: 0, rain_bright: false,
    godori: false, rain_ribbon: false, hongdan: false, cheongdan: false, chodan: false,
    has_gukjin: false };
}

/** A player's go, shakes, bombs and sake-cup choice before any is entered. */
export function emptyFlags() {
  return { go_count: 0, shakes: 0, bombs: 0, gukjin: "" };
}

/** The hand as the API takes it (no outcome, rule set or stake), with a loaded hand's
 * fields the editor does not edit as they were. */
export function handBody(state) {
  const made = edited(state);
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
export function handOutcome(state, tapped) {
  if (!tapped) return tapped;
  const { liable: _, ...before } = state.kept?.outcome ?? {};
  const same = before.type === tapped.type && before.winner === tapped.winner;
  const made = same ? { ...before, ...tapped } : { ...tapped };
  if (state.liable && tapped.type === "stop" && state.liable !== tapped.winner) {
    made.liable = state.liable;
  }
  return made;
}

function edited(state) {
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

/** A stored hand body into the state (a correction starts from the hand as it was
 * entered): its players, piles or counts, flags, sitter, liable loser and side events. */
export function loadHand(state, hand) {
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
}

// Entering a table's hands and correcting them: who plays the hand, the hand editor
// (hand.js) with the table's rule set, stake and streak, the correction banner with its
// reason, the hand set aside while another is corrected, and the result of the hand saved.
import { call } from "./api.js";
import { fill, focusAtTop, focusMoves, h, uniqueId } from "./dom.js";
import { currentBodies } from "./edits.js";
import { createHandEditor, handPath } from "./hand.js";
import { t } from "./i18n.js";
import { renderResult } from "./result.js";
import { save } from "./store.js";

// A hand is played by two or three, or by four with one sitting out (광팔기); a bigger roster
// chooses who plays each hand (a roster member not in the hand did not play it).
export const MAX_HAND_PLAYERS = 4;

/** The hand entry of the table `view` (table.js). */
export function createEntry(view) {
  const { s, box, mount, cardNames } = view;

  /** The hand being corrected is voided now, or no longer there (another phone voided
   * it, an undo took it away): the correction ends, and the notice says why. Saved, it
   * would bring a voided hand back (a correction of a voided hand counts it again). */
  function endStaleCorrection() {
    const number = s.correcting?.number;
    if (!number) return;
    const hand = s.table.hands.find((x) => x.number === number);
    if (hand && hand.status !== "voided") return;
    s.pending = null;
    endCorrection();
    view.say(() => t(hand ? "correctionVoided" : "correctionGone", { n: number }));
  }

  /** The correction is over (saved, given up, or its hand voided or gone meanwhile): the
   * hand that was being entered when it began comes back as it was, its players too. */
  function endCorrection() {
    s.correcting = null;
    const aside = s.setAside;
    s.setAside = null;
    if (!s.editor) return;
    if (!aside) {
      if (box.correcting) fill(box.correcting);
      s.editor.clear({ forget: true });
      return;
    }
    s.playing = aside.playing;
    s.pending = aside.pending ?? s.pending; // its write that got no answer, for its retry
    renderEntry();
    s.editor.load(aside.body);
    updatePickers();
  }

  function renderEntry() {
    const full = h("p", { class: "hint", role: "status" });
    const pickers = h("fieldset", { class: "hand-players" },
      h("legend", {}, t(s.table.variant === "balance" ? "handPlayersBalance" : "handPlayers")),
      s.table.roster.map((p) => {
        const id = uniqueId("plays");
        return h("div", { class: "check" },
          h("input", { type: "checkbox", id, checked: s.playing.includes(p.id),
            dataset: { plays: p.id }, onchange: (e) => {
              const on = e.target.checked;
              s.playing = s.table.roster.map((r) => r.id).filter((x) =>
                (x === p.id ? on : s.playing.includes(x)));
              updatePickers();
              s.editor.setPlayers(s.playing);
            } }),
          h("label", { for: id }, p.name ?? p.id));
      }), full);
    box.pickers = pickers;
    box.full = full;
    box.correcting = h("div", { class: "correcting" });
    fill(box.entry, h("h2", { id: "entry-h", tabindex: "-1" }, t("enterHand")), box.correcting, pickers,
      s.editorBox);
    renderCorrecting();
    updatePickers();
    if (s.editor) {
      s.editor.render();
      return;
    }
    s.editor = createHandEditor({
      mount: s.editorBox,
      // a preview is the stateless answer for the hand at this place: the table's rule set
      // and stake, and (Go-Stop) the streak it carries
      context: () => ({ ruleset: { preset: s.table.ruleset.preset,
        options: s.table.ruleset.options ?? s.table.ruleset.overrides ?? {} },
      stake: s.table.stake,
      ...(s.table.variant === "balance" ? {} : { nagari_streak: s.table.nagari_streak }) }),
      onOutcome: submit,
    });
    s.editor.setVariant(s.table.variant ?? "gostop");
    s.editor.setCards(s.cards);
    s.editor.setPlayers(s.playing);
  }

  /** The roster's checkboxes show who plays; with four ticked the others wait (and say why). */
  function updatePickers() {
    const full = s.playing.length >= MAX_HAND_PLAYERS;
    box.pickers.querySelectorAll("input[data-plays]").forEach((input) => {
      input.checked = s.playing.includes(input.dataset.plays);
      input.disabled = full && !input.checked;
    });
    box.full.textContent = full && s.table.roster.length > MAX_HAND_PLAYERS
      ? t("handPlayersFull") : "";
  }

  async function submit(outcome) {
    // a tap on the view a reopening table has not drawn again yet: no editor behind it
    if (!s.editor) return;
    const moved = focusMoves(); // a control tapped meanwhile keeps the focus
    try {
      const hand = outcome ? { ...s.editor.body(), outcome: s.editor.outcome(outcome) }
        : s.editor.body(); // balance: none
      if (!s.writing) { // the last hand's result goes: a refused hand must not read as saved
        s.shown = null;
        fill(box.result);
      }
      const number = s.correcting?.number;
      const reason = s.correcting?.reason?.value.trim();
      const answer = number
        ? await view.write("PUT", `/hands/${number}`, { hand, reason },
          { strip: "/hand", acted: number }) // the hand corrected is not news of itself
        : await view.write("POST", "/hands", hand, { strip: "" });
      if (!answer) return;
      // a correction's hand set aside comes back (unless it was given up meanwhile, and
      // it came back then); a new hand's piles empty
      if (!number) s.editor.clear({ forget: true });
      else if (s.correcting?.number === number) endCorrection();
      save("tableDraft", null); // saved: nothing of it to bring back
      const item = s.table.hands.find((x) => x.number === (number ?? answer.number));
      const stored = number ? item?.result : answer.result;
      if (stored) {
        const current = s.current;
        const result = await localized(item, hand, stored);
        if (s.current !== current) return; // another table opened meanwhile: not its result
        const names = cardNames(s.cards);
        const shownNumber = number ?? answer.number;
        // which hand of the night it is: the panel goes when that hand is voided or re-priced
        s.shown = () => [h("p", { class: "hint shown-hand" }, t("handN", { n: shownNumber })),
          renderResult(result, { names })];
        s.shownHand = { number: shownNumber, net: JSON.stringify(stored.net ?? {}) };
        fill(box.result, s.shown());
        if (!moved()) focusAtTop(box.result.querySelector("h2"));
      }
    } finally {
      moved(); // listening ends
    }
  }

  /** A table hand's result in both languages. The page polls the table in the service's
   * default language (the stored rows: the cheapest read; `?lang=all` would answer every
   * hand in both, from the ledger, at each change); the stateless endpoint gives the same
   * answer for the same hand, rule set, stake, streak and dealer, so the one hand shown is
   * asked again with ?lang=all. No answer: the stored result, as it is. */
  async function localized(item, hand, stored) {
    if (!item) return stored;
    const variant = s.table.variant ?? "gostop";
    const body = { ruleset: { preset: s.table.ruleset.preset,
      options: s.table.ruleset.options ?? s.table.ruleset.overrides ?? {} },
    stake: s.table.stake, ...hand };
    if (variant !== "balance") {
      body.nagari_streak = item.nagari_streak ?? 0;
      if (item.dealer) body.dealer = item.dealer;
    }
    try {
      return (await call("POST", `${handPath(variant)}?lang=all`, { body })).data;
    } catch {
      return stored;
    }
  }

  async function startCorrection(number) {
    // not while a write is on its way: its answer would empty the correction's hand, and
    // the hand set aside would be one already saved (tapped again: stored twice)
    if (s.writing) return;
    const events = await view.currentLog();
    if (s.writing) return;
    const hand = events && currentBodies(events)[number - 1];
    if (!hand) return;
    // the hand being entered is set aside (not while switching from another correction)
    if (!s.correcting) {
      s.setAside = { playing: [...s.playing], body: s.editor.body(), pending: s.pending };
    }
    s.playing = hand.players.map((p) => p.id);
    renderEntry();
    s.editor.load(hand);
    updatePickers();
    s.correcting = { number, reason: null };
    renderCorrecting();
    box.entry.scrollIntoView();
    s.correcting.reason.focus();
  }

  /** The banner of the hand being corrected, with its reason (drawn again as it stands
   * after a language switch: the correction goes on). */
  function renderCorrecting() {
    if (!s.correcting) {
      fill(box.correcting);
      return;
    }
    const reasonId = uniqueId("reason");
    const reason = h("input", { id: reasonId, maxlength: 500, autocomplete: "off" });
    const before = s.correcting.reason;
    reason.value = before?.value ?? "";
    if (before?.getAttribute("aria-invalid")) reason.setAttribute("aria-invalid", "true");
    s.correcting.reason = reason;
    fill(box.correcting, h("p", { class: "notice" },
      h("strong", {}, t("correcting", { n: s.correcting.number })), ` — ${t("saveCorrection")}`),
    h("div", { class: "inline", dataset: { pointer: "/reason" } },
      h("label", { for: reasonId }, t("reason")), reason,
      h("button", { type: "button", class: "quiet", onclick: cancelCorrection }, t("cancel"))));
  }

  /** Cancel tapped: the correction ends, and the focus goes back to the hand's Correct
   * button it began at (else to the entry's heading), not to the page. */
  function cancelCorrection() {
    const number = s.correcting?.number;
    endCorrection();
    const row = box.history?.querySelector(`[data-hand="${number}"]`);
    (row?.querySelector('[data-action="correct"]') ?? mount.querySelector("#entry-h"))?.focus();
  }

  /** The hand result shown goes when its hand no longer stands as shown: voided, undone,
   * or its amounts changed (a voided nagari before it, a correction, another phone). */
  function endStaleResult() {
    const shown = s.shownHand;
    if (!shown) return;
    const hand = s.table.hands.find((x) => x.number === shown.number);
    if (hand && hand.status !== "voided" && JSON.stringify(hand.result.net ?? {}) === shown.net) {
      return;
    }
    s.shown = null;
    s.shownHand = null;
    fill(box.result);
  }

  return { renderEntry, updatePickers, startCorrection, renderCorrecting, endCorrection,
    endStaleCorrection, endStaleResult };
}

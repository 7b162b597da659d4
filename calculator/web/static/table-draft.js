// The hand being entered, kept when the page goes away. A reload, or a phone that throws
// the tab away while it is in the background, would lose the hand half entered: the page
// keeps it (persist, as it is hidden) and gives it back when the same table opens again,
// with who plays it and a correction's reason.
import { t } from "./i18n.js";
import { load, save } from "./store.js";

/** The kept hand of the table `view` (table.js). */
export function createDraft(view) {
  const { s } = view;

  /** What this device keeps of the table open: the hand in the editor, who plays it, and
   * the correction going on (a scorer's, on a table still open). */
  function persist() {
    if (!s.current || !s.table || !view.scorer() || !s.editor) return;
    // with the write that got no answer, if any (its signature names its table): tapped
    // again after the reload, it goes with its key and is not stored twice
    save("tableDraft", { id: s.current.id, body: s.editor.body(), playing: s.playing,
      pending: s.pending,
      correcting: s.correcting ? { number: s.correcting.number,
        reason: s.correcting.reason?.value ?? "" } : null,
      setAside: s.correcting ? s.setAside : null }); // the hand the correction set aside
  }

  /** The kept hand of the table opening, taken (kept once: the next hiding keeps it
   * again), if it was kept for it and its players are still on the roster. */
  function takeDraft() {
    const draft = load("tableDraft");
    if (!draft || draft.id !== s.current.id) return null;
    save("tableDraft", null);
    const roster = new Set(s.table.roster.map((p) => p.id));
    const playing = Array.isArray(draft.playing) ? draft.playing : [];
    if (!view.scorer() || playing.length < 2 || !playing.every((id) => roster.has(id))) return null;
    return { ...draft, playing };
  }

  /** The kept hand back in the editor (drawn for its players), its correction going on,
   * and the write that got no answer, for its retry. A correction of a hand voided or gone
   * meanwhile is not brought back: tapped, it would be entered as a new hand. */
  function resumeDraft(draft) {
    if (!s.editor) return;
    s.pending = draft.pending ?? null;
    const number = draft.correcting?.number;
    const hand = number && s.table.hands.find((x) => x.number === number);
    // the hand a correction set aside, if its players are still on the roster
    const roster = new Set(s.table.roster.map((p) => p.id));
    const aside = number && Array.isArray(draft.setAside?.playing)
      && draft.setAside.playing.length >= 2
      && draft.setAside.playing.every((id) => roster.has(id)) ? draft.setAside : null;
    if (number && (!hand || hand.status === "voided")) {
      s.setAside = aside;
      view.endCorrection(); // the hand set aside, if any, comes back
      view.say(() => t(hand ? "correctionVoided" : "correctionGone", { n: number }));
      return;
    }
    const fresh = JSON.stringify(s.editor.body());
    if (draft.body && JSON.stringify(draft.body) !== fresh) {
      s.editor.load(draft.body);
      s.editor.refresh(); // its preview
    }
    if (hand) {
      s.correcting = { number, reason: null };
      s.setAside = aside;
      view.renderCorrecting();
      s.correcting.reason.value = draft.correcting.reason ?? "";
    }
    view.updatePickers();
  }

  return { persist, takeDraft, resumeDraft };
}

// Writing to a table: one write at a time, with an Idempotency-Key and If-Match (the
// version the phone last saw), kept for its retry when no answer came; then the table read
// again, and what became of the write said where the scorer tapped.
import { ApiError, call, newKey } from "./api.js";
import { fieldError, keepFocus } from "./dom.js";
import { errorText, problemText, t } from "./i18n.js";

/** The writes of the table `view` (table.js). */
export function createWriter(view) {
  const { s, box, mount } = view;

  /** One write; on success the table is read again. Returns the answer's body, or null.
   * A write that got no answer (the network failed: it may or may not have reached the
   * service) keeps its Idempotency-Key and If-Match: tapping the same write again replays
   * it, so the service answers with what it stored instead of writing it twice (SPEC §9).
   * A second tap while a write is on its way is ignored. What became of it is said where
   * the scorer tapped: in the editor (`strip` maps the API's pointers into the hand back
   * to the editor's), in the void or bring-back being asked (`asking`), or in the panel
   * of the button (`near`: "history" or "settle"), kept through the redraws the answer
   * brings; on top otherwise. The hands whose amounts the write changed are said, all
   * but the one it was about (`acted`). */
  function write(method, path, body, options = {}) {
    if (s.writing) return Promise.resolve(null);
    const done = writing(method, path, body, options);
    s.writeDone = done.catch(() => null); // what a table being opened waits for (table.js)
    return done;
  }

  async function writing(method, path, body, { strip = null, asking = false, near = null,
    acted = null } = {}) {
    const current = s.current; // a table opened meanwhile (a link) takes none of this answer
    const signature = JSON.stringify([s.current.id, method, path, body ?? null]);
    const retry = s.pending?.signature === signature ? s.pending : null;
    const key = retry?.key ?? newKey();
    const ifMatch = retry?.ifMatch ?? s.table.version;
    const asked = asking ? s.asking : null; // the form tapped (another may open meanwhile)
    s.writing = true;
    // what the last write said on top is old news now (a correction's note stayed on top
    // beside a later Undo's refusal: a page probe); this write says its own. Not what the
    // poll said ("the correction was stopped, nothing was saved": the tap it warns of)
    if (s.notice && s.notice === s.writeNotice) view.say(null);
    const sayOnTop = (text) => {
      s.writeNotice = text;
      view.say(text);
    };
    // what went wrong (`text()`, in the language of the moment), said where it was tapped
    // (in the editor: "no_answer" is its offline heading, "stale" another phone's change
    // first; "said" is no code of the API, so the text is shown as it is); said in a
    // panel, it speaks of the version `at` (a poll's newer one takes it away: table-sync.js)
    // — on top once the table is closed: nothing is left to tap there
    const tell = (text, code = "said", at = s.etag) => {
      if (asked && s.asking === asked) {
        asked.error = text;
        view.askReason(null, true);
      } else if (strip !== null && s.editor) {
        s.editor.showErrors({ entries: [{ pointer: null, code, detail: text() }] });
      } else if (near && !s.table.closed) {
        s.notes[near] = text;
        s.notesAt[near] = at;
        keepFocus(mount, near === "history" ? view.renderHistory : view.renderSettlement,
          () => box[near].querySelector("h2"));
      } else {
        sayOnTop(text);
      }
    };
    try {
      const answer = await call(method, `/v1/tables/${current.id}${path}`, {
        token: current.token, key, ifMatch, body });
      if (s.current !== current) return null; // the table is being read again: it shows it
      // answered: its own retry is done (another write's, given back with the hand a
      // correction set aside meanwhile, stays for that hand)
      if (!s.pending || s.pending.signature === signature) s.pending = null;
      const inHistory = asking || near === "history"; // said there; the others' on top
      const wasClosed = s.table.closed;
      const got = await view.fetchTable();
      if (got === "left") return null;
      s.link = got;
      // an undo or redo says whose change it took back or made again, from the log read
      // with the table ("hand 2's amounts changed" was said of a hand an undo took away)
      const made = s.log?.events.find((e) => e.seq === answer.data?.version);
      const again = ["undone", "redone"].includes(made?.type) && made.number ? made : null;
      const changed = (answer.data?.changed ?? [])
        .filter((c) => c.number !== acted && c.number !== again?.number);
      const told = again || changed.length ? () => [
        again ? t(again.type === "undone" ? "undoneHand" : "redoneHand", { n: again.number })
          : null,
        ...changed.map((c) => t("changed", { n: c.number }))].filter(Boolean).join(", ")
        : null;
      s.notes = { history: inHistory ? told : null, settle: null };
      // of the version read; of the write's own when that read failed (as a 412's below)
      const at = s.link === "ok" ? s.etag : answer.etag ?? s.etag;
      s.notesAt = { history: at, settle: at };
      if (!inHistory) sayOnTop(told);
      if (s.table.closed !== wasClosed) view.renderTable(); // closed: no editor any more
      else view.updateLive();
      return answer.data;
    } catch (error) {
      if (!(error instanceof ApiError)) {
        if (s.current !== current) return null; // left meanwhile
        s.pending = { signature, key, ifMatch };
        // of no version: it stays until the scorer taps again (table-sync.js), whatever
        // another phone changes meanwhile (its retry then says that)
        tell(() => t("notSent"), "no_answer", null);
        return null;
      }
      if (s.current !== current) return null;
      if (error.status !== 409) s.pending = null; // 409: the first is still on its way
      if (error.status === 412) {
        // the table is read again (a correction of a hand voided or gone meanwhile ends),
        // and the scorer hears it where it tapped: nothing was written. "End the night?"
        // is asked again: the scorer should see what changed before closing over it.
        s.endAsked = false;
        const wasClosed = s.table.closed;
        const got = await view.fetchTable();
        if (got === "left") return null;
        s.link = got;
        if (s.table.closed !== wasClosed) view.renderTable(); // closed: no editor any more
        else view.updateLive();
        // said of the version read; of the one the 412 named when that read failed (a
        // poll that brings it later is no news: what was said stays)
        tell(() => t("stale"), "stale", s.link === "ok" ? s.etag : error.etag ?? s.etag);
        return null;
      }
      if (asked && s.asking === asked) {
        tell(() => (error.status === 429 ? errorText(error) : error.entries.map((e) =>
          (e.pointer === "/reason" ? t("reasonNeeded") : problemText(e))).join(" ")));
      } else if (strip !== null && s.editor && error.status !== 429) {
        const entries = error.entries.map((e) => ({ ...e,
          pointer: e.pointer?.startsWith(strip) ? e.pointer.slice(strip.length) : e.pointer }));
        const forReason = s.correcting ? entries.filter((e) => e.pointer === "/reason") : [];
        s.editor.showErrors({ entries: entries.filter((e) => !forReason.includes(e)) },
          s.editor.body());
        if (forReason.length) fieldError(s.correcting.reason, t("reasonNeeded"));
      } else {
        tell(() => errorText(error), "said", error.etag ?? s.etag); // of the version now
      }
      return null;
    } finally {
      s.writing = false;
    }
  }

  return { write };
}

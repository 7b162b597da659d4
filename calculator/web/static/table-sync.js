// Reading a table: the table itself (GET with If-None-Match: a 304 costs nearly nothing),
// its settlement, and its events (only the new ones, and only when the version moved);
// and the poll that reads it every few seconds while the page is shown.
import { ApiError, call } from "./api.js";
import { errorText, t } from "./i18n.js";

const POLL_MS = 2500;

/** The reads of the table `view` (table.js). */
export function createSync(view) {
  const { s } = view;

  /** Read the table again: "ok", "gone" (the API refused: deleted, or the token no longer
   * opens it) or "offline" (no answer: what is shown stays, the next poll retries); "left"
   * when a table was opened (or this one again) or left while it was read: the answer is
   * not taken, the table open now has its own reads. */
  async function fetchTable() {
    const at = s.current;
    try {
      const answer = await call("GET", `/v1/tables/${at.id}`,
        { token: at.token, ifNoneMatch: s.etag });
      if (s.current !== at) return "left";
      if (answer.status === 304) {
        // the events of this version not read yet (the last try got no answer)
        if (s.log?.version !== s.table.version) await syncLog();
        return s.current === at ? "ok" : "left";
      }
      s.table = answer.data;
      s.etag = answer.etag;
      await Promise.all([fetchSettlement(), syncLog()]);
      return s.current === at ? "ok" : "left";
    } catch (error) {
      if (s.current !== at) return "left";
      // 404: deleted, or the token no longer opens it (the API does not say which)
      return error instanceof ApiError && [401, 404].includes(error.status) ? "gone" : "offline";
    }
  }

  async function fetchSettlement() {
    const at = s.current;
    let settlement = null;
    try {
      settlement = (await call("GET", `/v1/tables/${at.id}/settlement`, { token: at.token })).data;
    } catch {
      // none shown
    }
    if (s.current === at) s.settlement = settlement;
  }

  /** The events not read yet (all of them, the first time), added to `s.log`: true once
   * it holds them, false when they did not come (`tell`: said on top). */
  async function syncLog({ tell = false } = {}) {
    const id = s.current.id;
    const known = () => (s.log?.id === id ? s.log : { id, seq: 0, version: null, events: [] });
    try {
      const answer = await call("GET", `/v1/tables/${id}/events?after=${known().seq}`,
        { token: s.current.token });
      if (s.current?.id !== id) return false; // left meanwhile
      // another read may have added some of them meanwhile (a poll and a write's read)
      const log = known();
      const events = answer.data.events.filter((e) => e.seq > log.seq);
      s.log = { id, events: [...log.events, ...events], seq: events.at(-1)?.seq ?? log.seq,
        version: Math.max(answer.data.version, log.version ?? 0) };
      return true;
    } catch (error) {
      if (tell) view.say(error instanceof ApiError ? () => errorText(error) : () => t("noAnswer"));
      return false;
    }
  }

  /** The events as this device holds them, brought up to date first; null if they did
   * not come (said on top). */
  async function currentLog() {
    return (await syncLog({ tell: true })) && s.log?.id === s.current?.id ? s.log.events : null;
  }

  function schedule() {
    clearTimeout(s.timer);
    if (s.stopped) return;
    s.timer = setTimeout(async () => {
      if (!document.hidden && s.current) {
        const before = { etag: s.etag, link: s.link, closed: s.table?.closed };
        const got = await fetchTable();
        if (got === "left" || s.stopped) return; // left, or a table opened: it polls itself
        s.link = got;
        if (s.link === "gone") {
          view.stop(); // nothing more will come
        }
        // what a panel says speaks of a version: a new one takes it away (not this poll's
        // answer to the version a write's own read brought meanwhile, with what it said,
        // nor while a write is on its way: it says its own when answered, then marks its
        // version); a write that got no answer speaks of none (null): it stays — until the
        // table is closed, which leaves nothing to tap again. Then what speaks of the
        // version read goes on top, where a write says it once the table is closed
        // (table-write.js): an Undo refused as another phone closed the table, whose own
        // read got no answer, said it in the history, and it vanished (found while
        // chasing a CI failure)
        const closed = s.table.closed && !before.closed;
        const kept = [];
        for (const panel of ["history", "settle"]) {
          const at = s.notesAt[panel];
          const stale = at !== null && s.etag !== before.etag && s.etag !== at && !s.writing;
          if (closed && s.notes[panel] && at === s.etag) kept.push(s.notes[panel]);
          if (stale || closed) s.notes[panel] = null;
        }
        if (kept.length) {
          const text = () => kept.map((said) => said()).join(" ");
          s.writeNotice = text; // a write's, as if said there: the next write's takes it away
          view.say(text);
        }
        if (s.table.closed !== before.closed) view.renderTable(); // closed: no editor any more
        else if (s.etag !== before.etag || s.link !== before.link) view.updateLive();
      }
      schedule();
    }, POLL_MS);
  }

  return { fetchTable, currentLog, schedule };
}

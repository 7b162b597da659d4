// A table night on the ledger (POST /v1/tables …): create or join a table, share it (join
// code, QR, links), enter hands, watch the totals live (a poll with If-None-Match every
// few seconds: a 304 costs nearly nothing), correct / void / undo, settle, share the text.
// Writes carry an Idempotency-Key and If-Match with the version the phone last saw.
//
// This module opens a table, draws its screen and leaves it; each part of the screen is a
// module of its own, made with the `view` it shares with the others (the state `s`, the
// screen's boxes, and each part's functions, which the others call through it): no
// part imports another, so none depends on the order they are made in.
//   table-start.js    no table open: create, join, reopen
//   table-sync.js     reading the table and its events, and the poll
//   table-totals.js   the live totals, the settlement and ending the night
//   table-history.js  the history: details, undo / redo, void, bring back, and why
//   table-entry.js    entering and correcting hands, and the result shown
//   table-draft.js    the hand being entered, kept when the page goes away
//   table-write.js    one write: retries, If-Match, and where it is told
import { ApiError, call, newKey } from "./api.js";
import { fill, h, keepFocus } from "./dom.js";
import { errorText, num, presetText, t } from "./i18n.js";
import { forgetStaleShare, learnFeatures, renderShare } from "./share.js";
import { load, save } from "./store.js";
import { createDraft } from "./table-draft.js";
import { createEntry, MAX_HAND_PLAYERS } from "./table-entry.js";
import { createHistory } from "./table-history.js";
import { createStart } from "./table-start.js";
import { createSync } from "./table-sync.js";
import { createTotals } from "./table-totals.js";
import { createWriter } from "./table-write.js";

/** The table screen. `open({id, token, role} | {join})` shows a table. */
export function createTableView({ mount, presets, rules, cardsFor, cardNames }) {
  const s = {
    current: null, // {id, token, role, join_code}
    table: null,
    etag: null,
    cards: [],
    playing: [],
    correcting: null,
    timer: null,
    stopped: false,
    lastResult: null,
    settlement: null,
    absent: new Set(), // sharing features this server does not have
    creating: null, // a create that got no answer: {signature, key}
    pending: null, // a write that got no answer: {signature, key, ifMatch}, kept for its retry
    writing: false, // a write is on its way
    writeDone: null, // its promise, settled once it has ended (table-write.js)
    link: "ok", // the last read: "ok", "offline" (no answer) or "gone" (deleted, revoked)
    shown: null, // the result shown, drawn again in a new language: () => element
    // the table hand it shows, {number, net}: voided, undone or re-priced, it goes
    shownHand: null,
    // a void or bring-back being asked, {kind, number, text, error}: kept through the
    // redraws a poll makes (a connection blip redraws the history), its reason too
    asking: null,
    endAsked: false, // "end the night?" being confirmed, kept through redraws too
    // the hand being entered when a correction began, {playing, body}: back once it ends
    setAside: null,
    // what became of the last write of a panel's own controls (Undo/Redo, a void, End
    // the night), said in that panel and kept through its redraws: () => text, by panel
    notes: { history: null, settle: null },
    notice: null, // the notice on top, said again in a new language: () => text
    // the hands whose details (points, steps, payments) are open in the history, by
    // number, and the table read in English they come from there, {version, hands}
    // (the poll reads the stored rows, in Korean)
    detailsOpen: new Set(),
    readEn: null,
    // the table's events read so far, {id, seq, version, events}: the history says why a
    // hand was corrected or voided, and a correction starts from the body in effect.
    // Read once, then only what is new (?after=seq), and only when the version moved
    log: null,
    editor: null, // the hand editor (a scorer's, on a table still open)
  };

  const box = {};
  // what the parts share: each adds its functions, called through it by the others
  const view = { s, box, mount, presets, rules, cardsFor, cardNames };
  Object.assign(view, { open, say, scorer, renderTable, updateLive, stop },
    createStart(view), createSync(view), createTotals(view), createHistory(view),
    createEntry(view), createDraft(view), createWriter(view));

  // --- a table open --------------------------------------------------------------

  let openings = 0; // opens begun: one that another began after gives way to it
  let loading = false; // a table is being read to be opened: a status line says so

  async function open(entry) {
    const turn = ++openings;
    // the table shown (a link reopens it, or opens another) goes at once: its buttons,
    // tapped while the table is read, would write through an editor no longer there
    // (a tap lost); nothing draws it again meanwhile (renderTable)
    stop();
    loading = true;
    drawLoading();
    try {
      // a write on its way ends first, on the table it was made for (at most the call's
      // timeout, api.js): its hand saved and cleared from the editor, or its key kept for
      // the retry (else the hand came back after it was saved, and a tap stored it twice)
      await s.writeDone;
      if (turn !== openings) return;
      // reopened, the hand half entered is kept, back once the table is read
      if (entry.id && entry.id === s.current?.id) view.persist();
      await opening(entry, () => turn !== openings);
    } finally {
      if (turn === openings) loading = false;
    }
  }

  function drawLoading() {
    // a way out while it reads (a phone on a dead Wi-Fi would wait for good)
    fill(mount, h("p", { class: "notice", role: "status" }, t("loading")),
      h("button", { type: "button", class: "quiet", onclick: leave }, t("leave")));
  }

  /** Open `entry` (`open`), unless `superseded()` says another open began meanwhile: that
   * one opens its table, this one then does nothing more. */
  async function opening(entry, superseded) {
    let opened = entry;
    if (entry.join) {
      try {
        const answer = await call("POST", "/v1/tables/join", { body: { join_code: entry.join },
          key: newKey() });
        if (superseded()) return;
        opened = { id: answer.data.id, token: answer.data.viewer_token, role: "viewer",
          join_code: entry.join.toUpperCase() };
      } catch (error) {
        if (superseded()) return;
        if (!(error instanceof ApiError)) {
          view.renderStart(t("noAnswer"));
          return;
        }
        if (error.absent) s.absent.add("join");
        view.renderStart(error.absent ? t("joinUnavailable")
          : error.status === 404 ? t("joinUnknown") : errorText(error));
        return;
      }
    }
    // a link (join, viewer, or another scorer's) to a table this device scores: it stays
    // this device's scorer, with the token it had (and the viewer link it may know); a
    // scorer link's token is the spare, should the device's own open it no more (revoked)
    const known = load("tables", []).find((x) => x.id === opened.id);
    let spare = null;
    if (known?.role === "scorer") {
      if (opened.role === "scorer" && opened.token !== known.token) spare = opened.token;
      opened = { ...known, join_code: known.join_code ?? opened.join_code ?? null };
    }
    s.current = opened;
    s.etag = null;
    s.link = "ok";
    s.shown = null;
    s.shownHand = null;
    s.notice = null;
    s.correcting = null;
    s.setAside = null;
    s.asking = null;
    s.endAsked = false;
    s.notes = { history: null, settle: null };
    s.notesAt = { history: null, settle: null }; // the version each speaks of (table-write.js)
    s.detailsOpen = new Set();
    s.readEn = null;
    s.log = null;
    s.editorBox = h("div", { class: "editor" });
    s.editor = null;
    let got = await view.fetchTable();
    if (got === "gone" && spare && !superseded()) {
      opened = { ...opened, token: spare };
      s.current = opened;
      got = await view.fetchTable();
    }
    if (superseded()) return;
    const listed = load("tables", []).some((x) => x.id === opened.id);
    if (got === "ok") {
      let cards = null;
      try {
        cards = await cardsFor(s.table.ruleset.preset);
      } catch {
        // the cards did not come: as if the table had not (below)
      }
      if (superseded()) return;
      if (cards) s.cards = cards;
      else s.table = null;
    }
    if (got !== "ok" || !s.table) {
      s.current = null;
      s.table = null;
      if (got === "gone") view.renderStart(t("tableGone"), listed ? opened.id : null);
      else view.renderStart(t("noAnswer"));
      return;
    }
    // the code as the table gives it: one typed with spaces or in lower case joined too,
    // and was shown and remembered as typed
    if (s.table.join_code) opened.join_code = s.table.join_code;
    remember(opened);
    save("openTable", opened.id); // a reload mid-night comes back here
    s.playing = s.table.roster.slice(0, MAX_HAND_PLAYERS).map((p) => p.id);
    const draft = view.takeDraft();
    if (draft) s.playing = draft.playing;
    loading = false;
    renderTable();
    if (draft) view.resumeDraft(draft);
    toTop(mount.querySelector(".table-head h2"));
    s.stopped = false;
    view.schedule();
  }

  /** A new screen (a table opened, or left): its heading has the focus, the page is at its
   * top (the tap that got here was far down). */
  function toTop(heading) {
    heading?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }

  /** The notice on top: `make()` gives its text, in the language of the moment. */
  function say(make) {
    s.notice = make;
    if (box.notice) box.notice.textContent = make ? make() : "";
  }

  /** Put the table first in "Tables on this device". A viewer entry never replaces a
   * scorer's: its token is the only way back to writing. */
  function remember(entry) {
    const before = load("tables", []);
    const known = before.find((x) => x.id === entry.id);
    if (known?.role === "scorer" && entry.role !== "scorer") entry = known;
    const tables = before.filter((x) => x.id !== entry.id);
    const kept = { id: entry.id, token: entry.token, role: entry.role,
      join_code: entry.join_code ?? null, viewer_token: entry.viewer_token ?? null };
    save("tables", [kept, ...tables].slice(0, 10));
  }

  function scorer() {
    return s.current.role === "scorer" && !s.table.closed;
  }

  /** Draw the table screen; the control that had the focus keeps it, or the heading gets
   * it when that control is gone (the table closed by another phone took the editor away,
   * and the focus fell to the page). */
  function renderTable() {
    if (loading) return; // a table being opened: "Loading…" stays until it is read
    keepFocus(mount, drawTable, () => mount.querySelector(".table-head h2"));
  }

  function drawTable() {
    box.notice = h("p", { class: "notice", role: "status" }, s.notice ? s.notice() : "");
    box.share = h("section", { class: "panel" });
    box.totals = h("section", { class: "panel totals-panel", "aria-labelledby": "totals-h" });
    box.entry = h("section", { class: "panel", "aria-labelledby": "entry-h" });
    box.result = h("div", { class: "result-box" });
    box.history = h("section", { class: "panel", "aria-labelledby": "history-h" });
    box.settle = h("section", { class: "panel", "aria-labelledby": "settle-h" });
    fill(mount,
      h("div", { class: "table-head" },
        h("h2", { tabindex: "-1" }, `${t("tableNight")} · ${t(s.current.role)}`),
        h("button", { type: "button", class: "quiet", onclick: leave }, t("leave"))),
      rulesLine(),
      box.notice, box.totals,
      scorer() ? box.entry : null, box.result,
      box.history, box.settle, box.share);
    // a phone opened by a scorer link learns the join code from the table itself
    const current = { ...s.current, join_code: s.table.join_code ?? s.current.join_code ?? null };
    renderShare({ box: box.share, current, absent: s.absent, closed: s.table.closed });
    if (scorer()) view.renderEntry();
    fill(box.result, s.shown ? s.shown() : null);
    updateLive();
  }

  /** The rule set the table is locked to (preset, changed options), its stake, rounding. */
  function rulesLine() {
    const ruleset = s.table.ruleset ?? {};
    const overrides = Object.entries(ruleset.overrides ?? {});
    return h("p", { class: "hint table-rules", dataset: { rules: ruleset.preset ?? "" } },
      [t("tableRules", { preset: ruleset.preset ? presetText({ name: ruleset.preset,
        title: ruleset.preset, description: "" }).title : "" }),
        overrides.length ? overrides.map(([name, value]) => `${name} = ${value}`).join(", ") : null,
        t("tableStake", { n: num(s.table.stake) }),
        s.table.rounding ? t("roundedTo", { n: num(s.table.rounding.unit) }) : null]
        .filter(Boolean).join(" · "));
  }

  function updateLive() {
    if (!s.table || !box.totals) return;
    // a control redrawn away (a void confirmed) leaves the focus on the history's heading,
    // never on a button: an Enter typed next would press it (Undo, say)
    keepFocus(mount, () => {
      view.endStaleCorrection();
      view.endStaleResult();
      view.renderTotals();
      view.renderHistory();
      view.renderSettlement();
    }, () => box.history.querySelector("h2"));
    forgetStaleShare(box.share, s.table.version);
  }

  function leave() {
    openings += 1; // a table being opened gives way
    loading = false;
    save("openTable", null);
    s.current = null;
    s.table = null;
    s.etag = null;
    s.shown = null;
    s.shownHand = null;
    s.notice = null;
    s.correcting = null;
    s.setAside = null;
    s.asking = null;
    s.endAsked = false;
    s.notes = { history: null, settle: null };
    s.log = null;
    save("tableDraft", null); // left: the hand being entered goes with it
    stop();
    view.renderStart();
    toTop(mount.querySelector("h2"));
  }

  function stop() {
    s.stopped = true;
    clearTimeout(s.timer);
  }

  /** Draw again in the current language (the state stays). */
  function rerender() {
    if (loading) {
      drawLoading();
      return;
    }
    if (s.current && s.table) {
      renderTable();
      return;
    }
    view.renderStart();
  }

  const learnt = learnFeatures(s.absent).then(() => {
    if (s.absent.has("join")) mount.querySelector(".join-panel")?.remove();
  });
  view.renderStart();
  /** Reopen the table this device had open (a reload mid-night), if it remembers one. */
  async function resume() {
    const id = load("openTable");
    const entry = id && load("tables", []).find((x) => x.id === id);
    if (!entry) return;
    await learnt;
    await open(entry);
  }

  return { open: async (entry) => { await learnt; await open(entry); }, resume, stop, rerender,
    persist: view.persist };
}

// A table night on the ledger (POST /v1/tables …): create or join a table, share it (join
// code, QR, links), enter hands, watch the totals live (a poll with If-None-Match every
// few seconds: a 304 costs nearly nothing), correct / void / undo, settle, share the text.
// Writes carry an Idempotency-Key and If-Match with the version the phone last saw.
import { ApiError, call, newKey } from "./api.js";
import { fill, focusAtTop, focusMoves, h, keepFocus, submitOnEnter, uniqueId } from "./dom.js";
import { currentBodies, lastEdits } from "./edits.js";
import { createHandEditor, handPath } from "./hand.js";
import { clockTime, errorText, lang, num, presetText, problemText, signed, t } from "./i18n.js";
import { renderResult } from "./result.js";
import { forgetStaleShare, learnFeatures, renderShare } from "./share.js";
import { rulesetOf, rulesPicker, variantOf } from "./rules.js";
import { load, save } from "./store.js";

const POLL_MS = 2500;
// A hand is played by two or three, or by four with one sitting out (광팔기); a bigger roster
// chooses who plays each hand (a roster member not in the hand did not play it).
const MAX_HAND_PLAYERS = 4;
const NAME_MAX = 40; // a player's name, as the API takes it

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
  };
  const box = {};
  let editor = null;

  // --- no table open: create, join, reopen ---------------------------------------

  /** The start screen; `message` on top, and with `forgetId` a button that forgets that
   * table on this device (a remembered table that is gone). */
  function renderStart(message, forgetId = null) {
    const rosterId = uniqueId("roster");
    const roundingId = uniqueId("rounding");
    const codeId = uniqueId("code");
    const rulesBox = h("div", {});
    // one name a line, each at most NAME_MAX characters (the one-hand inputs' limit)
    const roster = h("textarea", { id: rosterId, rows: 4, autocomplete: "off",
      oninput: (e) => {
        const lines = e.target.value.split("\n");
        if (lines.some((line) => line.length > NAME_MAX)) {
          e.target.value = lines.map((line) => line.slice(0, NAME_MAX)).join("\n");
        }
      } },
    (load("roster") ?? ["A", "B", "C"]).join("\n"));
    const rounding = h("select", { id: roundingId },
      [["", t("roundingNone")], ["100", "100"], ["1000", "1,000"]].map(([v, text]) =>
        h("option", { value: v }, text)));
    const code = h("input", { id: codeId, autocomplete: "off", autocapitalize: "characters",
      maxlength: 16, class: "code-input" });
    const problems = h("div", { class: "errors", role: "alert" });
    const tables = load("tables", []);
    const codeSaid = h("p", { class: "notice", role: "status" });
    const joinButton = h("button", { type: "button", onclick: () => {
      const typed = code.value.trim();
      if (typed) open({ join: typed });
      else { // nothing to ask the service: say so at the box
        codeSaid.textContent = t("joinCodeNeeded");
        code.focus();
      }
    } }, t("join"));
    submitOnEnter(code, joinButton);
    fill(mount,
      message ? h("p", { class: "notice", role: "status" }, message) : null,
      forgetId ? h("button", { type: "button", class: "forget", onclick: () => {
        save("tables", load("tables", []).filter((x) => x.id !== forgetId));
        renderStart();
        mount.querySelector("h2")?.focus();
      } }, t("forget")) : null,
      h("section", { class: "panel", "aria-labelledby": "create-h" },
        h("h2", { id: "create-h", tabindex: "-1" }, t("createTable")),
        h("div", { class: "field", dataset: { pointer: "/roster" } },
          h("label", { for: rosterId }, t("roster")), roster),
        rulesBox,
        h("div", { class: "field" }, h("label", { for: roundingId }, t("rounding")), rounding),
        h("button", { type: "button", class: "primary", onclick: () => create(
          roster.value.split("\n").map((x) => x.trim()).filter(Boolean), rounding.value, problems) },
        t("createTable")),
        problems),
      s.absent.has("join") ? null : h("section", { class: "panel join-panel",
        "aria-labelledby": "join-h" },
        h("h2", { id: "join-h" }, t("joinByCode")),
        h("div", { class: "inline" }, h("label", { for: codeId }, t("joinCode")), code,
          joinButton), codeSaid),
      tables.length ? h("section", { class: "panel", "aria-labelledby": "mine-h" },
        h("h2", { id: "mine-h" }, t("myTables")),
        h("ul", { class: "my-tables" }, tables.map((entry) => h("li", {},
          h("button", { type: "button", onclick: () => open(entry) },
            `${t("open")} ${entry.join_code ?? entry.id.slice(0, 8)} · ${t(entry.role)}`))))) : null);
    rulesPicker({ mount: rulesBox, presets, rules, key: "tableRules", onchange: () => {} });
  }

  async function create(names, unit, problems) {
    const body = { roster: names, variant: variantOf(presets, rules), ruleset: rulesetOf(rules),
      stake: rules.stake };
    if (unit) body.rounding = { unit: Number(unit) };
    // a create that got no answer keeps its key: tapped again, the same table comes back
    const signature = JSON.stringify(body);
    if (s.creating?.signature !== signature) s.creating = { signature, key: newKey() };
    try {
      const answer = await call("POST", "/v1/tables", { body, key: s.creating.key });
      s.creating = null;
      save("roster", names);
      const created = answer.data;
      await open({ id: created.id, token: created.scorer_token, role: "scorer",
        join_code: created.join_code, viewer_token: created.viewer_token });
    } catch (error) {
      // a problem with one name says which (the Korean text names the code, not the name)
      const about = (entry) => {
        const at = /^\/roster\/(\d+)/.exec(entry.pointer ?? "");
        const text = problemText(entry);
        const name = at ? names[Number(at[1])] : null;
        return name && !text.includes(name) ? `${name}: ${text}` : text;
      };
      const details = !(error instanceof ApiError) ? [t("notSent")]
        : error.status === 429 ? [errorText(error)] : error.entries.map(about);
      fill(problems, h("ul", {}, details.map((detail) => h("li", {}, detail))));
    }
  }

  // --- a table open --------------------------------------------------------------

  async function open(entry) {
    let opened = entry;
    if (entry.join) {
      try {
        const answer = await call("POST", "/v1/tables/join", { body: { join_code: entry.join },
          key: newKey() });
        opened = { id: answer.data.id, token: answer.data.viewer_token, role: "viewer",
          join_code: entry.join.toUpperCase() };
      } catch (error) {
        if (!(error instanceof ApiError)) {
          renderStart(t("noAnswer"));
          return;
        }
        if (error.absent) s.absent.add("join");
        renderStart(error.absent ? t("joinUnavailable")
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
    s.detailsOpen = new Set();
    s.readEn = null;
    s.log = null;
    s.editorBox = h("div", { class: "editor" });
    editor = null;
    let got = await fetchTable();
    if (got === "gone" && spare) {
      opened = { ...opened, token: spare };
      s.current = opened;
      got = await fetchTable();
    }
    const listed = load("tables", []).some((x) => x.id === opened.id);
    if (got === "ok") {
      try {
        s.cards = await cardsFor(s.table.ruleset.preset);
      } catch {
        s.table = null; // the cards did not come: as if the table had not
      }
    }
    if (got !== "ok" || !s.table) {
      s.current = null;
      s.table = null;
      if (got === "gone") renderStart(t("tableGone"), listed ? opened.id : null);
      else renderStart(t("noAnswer"));
      return;
    }
    remember(opened);
    save("openTable", opened.id); // a reload mid-night comes back here
    s.playing = s.table.roster.slice(0, MAX_HAND_PLAYERS).map((p) => p.id);
    const draft = takeDraft();
    if (draft) s.playing = draft.playing;
    renderTable();
    if (draft) resumeDraft(draft);
    toTop(mount.querySelector(".table-head h2"));
    s.stopped = false;
    schedule();
  }

  // --- the hand being entered, kept when the page goes away -------------------------
  // A reload, or a phone that throws the tab away while it is in the background, would
  // lose the hand half entered: the page keeps it (persist, as it is hidden) and gives it
  // back when the same table opens again, with who plays it and a correction's reason.

  /** What this device keeps of the table open: the hand in the editor, who plays it, and
   * the correction going on (a scorer's, on a table still open). */
  function persist() {
    if (!s.current || !s.table || !scorer() || !editor) return;
    // with the write that got no answer, if any (its signature names its table): tapped
    // again after the reload, it goes with its key and is not stored twice
    save("tableDraft", { id: s.current.id, body: editor.body(), playing: s.playing,
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
    if (!scorer() || playing.length < 2 || !playing.every((id) => roster.has(id))) return null;
    return { ...draft, playing };
  }

  /** The kept hand back in the editor (drawn for its players), its correction going on,
   * and the write that got no answer, for its retry. A correction of a hand voided or gone
   * meanwhile is not brought back: tapped, it would be entered as a new hand. */
  function resumeDraft(draft) {
    if (!editor) return;
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
      endCorrection(); // the hand set aside, if any, comes back
      say(() => t(hand ? "correctionVoided" : "correctionGone", { n: number }));
      return;
    }
    const fresh = JSON.stringify(editor.body());
    if (draft.body && JSON.stringify(draft.body) !== fresh) {
      editor.load(draft.body);
      editor.refresh(); // its preview
    }
    if (hand) {
      s.correcting = { number, reason: null };
      s.setAside = aside;
      renderCorrecting();
      s.correcting.reason.value = draft.correcting.reason ?? "";
    }
    updatePickers();
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

  /** Read the table again: "ok", "gone" (the API refused: deleted, or the token no longer
   * opens it) or "offline" (no answer: what is shown stays, the next poll retries). */
  async function fetchTable() {
    try {
      const answer = await call("GET", `/v1/tables/${s.current.id}`,
        { token: s.current.token, ifNoneMatch: s.etag });
      if (answer.status === 304) {
        // the events of this version not read yet (the last try got no answer)
        if (s.log?.version !== s.table.version) await syncLog();
        return "ok";
      }
      s.table = answer.data;
      s.etag = answer.etag;
      await Promise.all([fetchSettlement(), syncLog()]);
      return "ok";
    } catch (error) {
      // 404: deleted, or the token no longer opens it (the API does not say which)
      return error instanceof ApiError && [401, 404].includes(error.status) ? "gone" : "offline";
    }
  }

  async function fetchSettlement() {
    try {
      const answer = await call("GET", `/v1/tables/${s.current.id}/settlement`,
        { token: s.current.token });
      s.settlement = answer.data;
    } catch {
      s.settlement = null;
    }
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
      if (tell) say(error instanceof ApiError ? () => errorText(error) : () => t("noAnswer"));
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
        s.link = await fetchTable();
        if (!s.current) return; // left meanwhile
        if (s.link === "gone") {
          stop(); // nothing more will come
        }
        // what was said speaks of a version: a new one takes it away (not this poll's answer
        // to the version a write's own read brought meanwhile, with what it said)
        if (s.etag !== before.etag && s.etag !== s.notesAt) s.notes = { history: null, settle: null };
        if (s.table.closed !== before.closed) renderTable(); // closed: no editor any more
        else if (s.etag !== before.etag || s.link !== before.link) updateLive();
      }
      schedule();
    }, POLL_MS);
  }

  function scorer() {
    return s.current.role === "scorer" && !s.table.closed;
  }

  function renderTable() {
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
    const current = { ...s.current, join_code: s.current.join_code ?? s.table.join_code ?? null };
    renderShare({ box: box.share, current, absent: s.absent, closed: s.table.closed });
    if (scorer()) renderEntry();
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
      endStaleCorrection();
      endStaleResult();
      renderTotals();
      renderHistory();
      renderSettlement();
    }, () => box.history.querySelector("h2"));
    forgetStaleShare(box.share, s.table.version);
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

  function renderTotals() {
    const table = s.table;
    fill(box.totals, h("h2", { id: "totals-h" }, t("totals")),
      h("p", { class: `live ${s.link === "ok" ? "hint" : "notice"}`, role: "status" },
        s.link === "gone" ? t("tableGone") : liveLine()),
      h("ul", { class: "net totals" }, table.roster.map((p) => {
        const chips = table.totals[p.id] ?? 0;
        return h("li", { class: chips > 0 ? "plus" : chips < 0 ? "minus" : "zero",
          dataset: { total: p.id } },
        h("span", { class: "who" }, p.name ?? p.id), h("span", { class: "chips" }, signed(chips)));
      })),
      h("p", { class: "hint" }, [table.dealer ? t("dealer", { id: table.dealer }) : null,
        table.nagari_streak ? t("streak", { n: table.nagari_streak }) : null,
        table.closed ? t("closed") : null].filter(Boolean).join(" · ")));
  }

  /** Whether the totals are live, and when the table last changed (what two phones can
   * compare): the table's version is a count of events, which says nothing to a player. */
  function liveLine() {
    const last = s.log?.id === s.current.id ? s.log.events.at(-1)?.at : null;
    const now = s.link === "offline" ? t("liveOffline") : s.table.closed ? t("closedNow")
      : t("live");
    const time = last ? clockTime(last) : null;
    return time ? `${now} · ${t("lastChange", { time })}` : now;
  }

  function renderHistory() {
    const table = s.table;
    const canWrite = scorer();
    // the hand asked about was voided, brought back or undone meanwhile (by this phone's
    // write or another's): nothing left to ask
    const asked = s.asking && table.hands.find((x) => x.number === s.asking.number);
    if (s.asking && (!asked || (asked.status === "voided") !== (s.asking.kind === "restore"))) {
      s.asking = null;
    }
    const hands = [...table.hands].reverse();
    // why each hand stands as it does: its correction's or void's reason (undo/redo read)
    const edits = s.log?.id === s.current.id ? lastEdits(s.log.events) : new Map();
    fill(box.history, h("h2", { id: "history-h", tabindex: "-1" }, t("history")),
      s.notes.history ? h("p", { class: "notice history-note", role: "status" },
        s.notes.history()) : null,
      canWrite ? h("div", { class: "inline undo-redo" },
        h("button", { type: "button", disabled: !table.can_undo,
          onclick: () => write("POST", "/undo", undefined, { near: "history" }) }, t("undo")),
        h("button", { type: "button", disabled: !table.can_redo,
          onclick: () => write("POST", "/redo", undefined, { near: "history" }) }, t("redo")))
        : null,
      hands.length ? h("ol", { class: "history", reversed: true }, hands.map((hand) => {
        const result = hand.result;
        const voided = hand.status === "voided";
        const outcome = result.outcome;
        const what = !outcome ? t("balanceHand") : outcome.type === "nagari" ? t("nagari")
          : t({ stop: "stopBy", chongtong: "chongtongBy", three_ppuk: "threePpukBy" }[
            outcome.type] ?? "stopBy", { id: outcome.winner });
        const actions = h("div", { class: "hand-actions" });
        // named with the hand for screen readers, which list the buttons out of their rows
        const about = (key) => `${t(key)} · ${t("handN", { n: hand.number })}`;
        const kind = voided ? "restore" : "void";
        if (canWrite && s.asking?.number === hand.number && s.asking.kind === kind) {
          askReason(actions, false);
        } else if (canWrite && !voided) {
          actions.append(
            h("button", { type: "button", "aria-label": about("correct"),
              dataset: { action: "correct" }, onclick: () => startCorrection(hand.number) },
            t("correct")),
            h("button", { type: "button", "aria-label": about("void"),
              onclick: () => ask("void", hand.number, actions) }, t("void")));
        } else if (canWrite) {
          actions.append(h("button", { type: "button", "aria-label": about("restore"),
            onclick: () => ask("restore", hand.number, actions) }, t("restore")));
        }
        const open = s.detailsOpen.has(hand.number);
        const detailsId = `details-${hand.number}`;
        actions.prepend(h("button", { type: "button", class: "quiet", "aria-expanded": String(open),
          "aria-controls": open ? detailsId : null, "aria-label": about("details"),
          onclick: () => toggleDetails(hand.number) }, t("details")));
        return h("li", { class: voided ? "voided" : null, dataset: { hand: String(hand.number) } },
          h("p", {}, h("strong", {}, t("handN", { n: hand.number })), ` · ${what}`,
            voided ? ` · ${t("voided")}` : "",
            // a balance hand stored with cards missing: void by the rules, nobody paid
            result.void ? ` · ${t("cardsMissing", { n: result.missing_cards?.length ?? 0 })}`
              : ""),
          h("p", { class: "hand-net" }, Object.entries(result.net ?? {}).map(([id, chips]) =>
            `${id} ${signed(chips)}`).join(" · ")),
          whyChanged(edits.get(hand.number), voided),
          actions,
          open ? h("div", { class: "hand-details", id: detailsId }, handDetails(hand)) : null);
      })) : h("p", { class: "hint" }, t("noHands")));
  }

  /** Why a hand of the history was last changed, if it was: "Corrected: typo", "Voided:
   * entered twice" (the reason is the scorer's text, drawn as text). Only an edit that
   * agrees with the hand as the table read it: events read a version behind say nothing. */
  function whyChanged(edit, voided) {
    if (!edit || (edit.type === "voided") !== voided) return null;
    return h("p", { class: "hand-reason", dataset: { edit: edit.type } },
      t(edit.type === "voided" ? "voidedWhy" : "correctedWhy", { reason: edit.reason ?? "" }));
  }

  /** Open or close a hand's details in the history (the focus stays on its button). */
  function toggleDetails(number) {
    if (s.detailsOpen.has(number)) s.detailsOpen.delete(number);
    else s.detailsOpen.add(number);
    keepFocus(mount, renderHistory, () => box.history.querySelector("h2"));
  }

  /** A hand's result as the table stores it, every amount with its steps, for any phone
   * (a viewer's too): in Korean the rows the poll read; in English the table read again
   * in English once per version (then drawn when it comes). */
  function handDetails(hand) {
    const names = cardNames(s.cards);
    const heading = { level: 3, title: t("handN", { n: hand.number }) };
    if (lang() !== "en") return renderResult(hand.result, { names, heading });
    const read = s.readEn?.id === s.current.id ? s.readEn : null;
    if (read?.asked !== s.table.version) readInEnglish();
    else if (read.failed) {
      return h("p", { class: "notice" }, t("noAnswer"), " ",
        h("button", { type: "button", onclick: readInEnglish }, t("tryAgain")));
    }
    const found = s.readEn?.hands?.find((x) => x.number === hand.number);
    return found ? renderResult(found.result, { names, heading })
      : h("p", { class: "hint" }, t("loading"));
  }

  /** The table in English, asked for at the version the poll last read (`asked`; the
   * answer may be newer: it is kept, and asked for again only at the poll's next one).
   * Each read is its own: the answer of one that another has replaced (a newer version,
   * another table) is dropped. */
  async function readInEnglish() {
    // nothing old shown meanwhile: its amounts may have changed
    const mine = { id: s.current.id, asked: s.table.version, hands: null, failed: false };
    s.readEn = mine;
    try {
      const answer = await call("GET", `/v1/tables/${mine.id}?lang=en`,
        { token: s.current.token });
      mine.hands = answer.data.hands;
    } catch {
      mine.failed = true; // said in the details, with a button to ask again
    }
    if (s.readEn === mine && s.detailsOpen.size) {
      keepFocus(mount, renderHistory, () => box.history.querySelector("h2"));
    }
  }

  function renderSettlement() {
    const settled = s.settlement;
    const unit = settled?.rounding?.unit;
    // rounded: say so, and give the totals it settles (they differ from the live ones)
    const rounded = unit ? [h("p", { class: "hint rounded" }, t("settleRounded",
      { n: num(unit) })), h("ul", { class: "net rounded-totals" },
      s.table.roster.map((p) => {
        const chips = settled.totals[p.id] ?? 0;
        const raw = settled.rounding.raw?.[p.id];
        return h("li", { class: chips > 0 ? "plus" : chips < 0 ? "minus" : "zero",
          dataset: { rounded: p.id } },
        h("span", { class: "who" }, p.name ?? p.id),
        h("span", {}, raw == null || raw === chips ? null
          : h("span", { class: "hint" }, `${t("unrounded", { n: signed(raw) })} `),
        h("span", { class: "chips" }, signed(chips))));
      }))] : null;
    const ending = h("div", { class: "inline end-night" });
    fill(box.settle, h("h2", { id: "settle-h" }, t("settlement")),
      s.notes.settle ? h("p", { class: "notice settle-note", role: "status" }, s.notes.settle())
        : null,
      rounded,
      !settled ? null : settled.transfers.length
        ? h("ul", { class: "transfers" }, settled.transfers.map((x) => h("li", {
          dataset: { transfer: `${x.from}>${x.to}` } },
        `${t("pays", { from: x.from, to: x.to })}: ${t("chipsOf", { n: num(x.chips) })}`)))
        : h("p", { class: "hint" }, t("noTransfers")),
      scorer() ? ending : null);
    if (scorer()) askEnd(ending, s.endAsked);
  }

  /** Ending the night closes the table (read-only from then on, for every phone): asked
   * for, then confirmed, as it cannot be taken back. The question stays through the
   * redraws a poll makes; `tapped`: the scorer's own tap, which moves the focus. */
  function askEnd(ending, confirming, tapped = false) {
    s.endAsked = confirming;
    if (!confirming) {
      const ask = h("button", { type: "button", onclick: () => askEnd(ending, true, true) },
        t("endNight"));
      fill(ending, ask);
      if (tapped) ask.focus(); // a cancel: back to where it was asked
      return;
    }
    const hintId = uniqueId("end");
    const confirm = h("button", { type: "button", class: "go", "aria-describedby": hintId,
      onclick: async () => {
        // closed, the table is drawn again without its editor: the focus goes to its top
        if (await write("POST", "/close", undefined, { near: "settle" })) {
          s.endAsked = false;
          mount.querySelector(".table-head h2")?.focus();
        }
      } }, t("confirmEnd"));
    fill(ending, h("p", { class: "hint", id: hintId }, t("endNightHint")), confirm,
      h("button", { type: "button", class: "quiet", onclick: () => askEnd(ending, false, true) },
        t("cancel")));
    if (tapped) confirm.focus();
  }

  // --- entering and correcting hands --------------------------------------------

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
    say(() => t(hand ? "correctionVoided" : "correctionGone", { n: number }));
  }

  /** The correction is over (saved, given up, or its hand voided or gone meanwhile): the
   * hand that was being entered when it began comes back as it was, its players too. */
  function endCorrection() {
    s.correcting = null;
    const aside = s.setAside;
    s.setAside = null;
    if (!editor) return;
    if (!aside) {
      if (box.correcting) fill(box.correcting);
      editor.clear({ forget: true });
      return;
    }
    s.playing = aside.playing;
    s.pending = aside.pending ?? s.pending; // its write that got no answer, for its retry
    renderEntry();
    editor.load(aside.body);
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
              editor.setPlayers(s.playing);
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
    if (editor) {
      editor.render();
      return;
    }
    editor = createHandEditor({
      mount: s.editorBox,
      // a preview is the stateless answer for the hand at this place: the table's rule set
      // and stake, and (Go-Stop) the streak it carries
      context: () => ({ ruleset: { preset: s.table.ruleset.preset,
        options: s.table.ruleset.options ?? s.table.ruleset.overrides ?? {} },
      stake: s.table.stake,
      ...(s.table.variant === "balance" ? {} : { nagari_streak: s.table.nagari_streak }) }),
      onOutcome: submit,
    });
    editor.setVariant(s.table.variant ?? "gostop");
    editor.setCards(s.cards);
    editor.setPlayers(s.playing);
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
    const moved = focusMoves(); // a control tapped meanwhile keeps the focus
    try {
      const hand = outcome ? { ...editor.body(), outcome: editor.outcome(outcome) }
        : editor.body(); // balance: none
      if (!s.writing) { // the last hand's result goes: a refused hand must not read as saved
        s.shown = null;
        fill(box.result);
      }
      const number = s.correcting?.number;
      const reason = s.correcting?.reason?.value.trim();
      const answer = number
        ? await write("PUT", `/hands/${number}`, { hand, reason }, { strip: "/hand" })
        : await write("POST", "/hands", hand, { strip: "" });
      if (!answer) return;
      // a correction's hand set aside comes back (unless it was given up meanwhile, and
      // it came back then); a new hand's piles empty
      if (!number) editor.clear({ forget: true });
      else if (s.correcting?.number === number) endCorrection();
      save("tableDraft", null); // saved: nothing of it to bring back
      const item = s.table.hands.find((x) => x.number === (number ?? answer.number));
      const stored = number ? item?.result : answer.result;
      if (stored) {
        const result = await localized(item, hand, stored);
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
  async function write(method, path, body, { strip = null, asking = false, near = null,
    acted = null } = {}) {
    if (s.writing) return null;
    const signature = JSON.stringify([s.current.id, method, path, body ?? null]);
    const retry = s.pending?.signature === signature ? s.pending : null;
    const key = retry?.key ?? newKey();
    const ifMatch = retry?.ifMatch ?? s.table.version;
    const asked = asking ? s.asking : null; // the form tapped (another may open meanwhile)
    s.writing = true;
    // what went wrong (`text()`, in the language of the moment), said where it was tapped
    // (in the editor: "no_answer" is its offline heading, "stale" another phone's change
    // first; "said" is no code of the API, so the text is shown as it is)
    const tell = (text, code = "said") => {
      if (asked && s.asking === asked) {
        asked.error = text;
        askReason(null, true);
      } else if (strip !== null && editor) {
        editor.showErrors({ entries: [{ pointer: null, code, detail: text() }] });
      } else if (near) {
        s.notes[near] = text;
        s.notesAt = s.etag;
        keepFocus(mount, near === "history" ? renderHistory : renderSettlement,
          () => box[near].querySelector("h2"));
      } else {
        say(text);
      }
    };
    try {
      const answer = await call(method, `/v1/tables/${s.current.id}${path}`, {
        token: s.current.token, key, ifMatch, body });
      // answered: its own retry is done (another write's, given back with the hand a
      // correction set aside meanwhile, stays for that hand)
      if (!s.pending || s.pending.signature === signature) s.pending = null;
      const changed = (answer.data?.changed ?? []).filter((c) => c.number !== acted);
      const told = changed.length
        ? () => changed.map((c) => t("changed", { n: c.number })).join(", ") : null;
      // the history's own controls: said in the history, the others' on top
      const inHistory = asking || near === "history";
      s.notes = { history: inHistory ? told : null, settle: null };
      const wasClosed = s.table.closed;
      s.link = await fetchTable();
      s.notesAt = s.etag;
      say(inHistory ? null : told);
      if (s.table.closed !== wasClosed) renderTable(); // closed: no editor any more
      else updateLive();
      return answer.data;
    } catch (error) {
      if (!(error instanceof ApiError)) {
        s.pending = { signature, key, ifMatch };
        tell(() => t("notSent"), "no_answer");
        return null;
      }
      if (error.status !== 409) s.pending = null; // 409: the first is still on its way
      if (error.status === 412) {
        // the table is read again (a correction of a hand voided or gone meanwhile ends),
        // and the scorer hears it where it tapped: nothing was written. "End the night?"
        // is asked again: the scorer should see what changed before closing over it.
        s.endAsked = false;
        s.link = await fetchTable();
        updateLive();
        tell(() => t("stale"), "stale");
        return null;
      }
      if (asked && s.asking === asked) {
        tell(() => (error.status === 429 ? errorText(error) : error.entries.map((e) =>
          (e.pointer === "/reason" ? t("reasonNeeded") : problemText(e))).join(" ")));
      } else if (strip !== null && editor && error.status !== 429) {
        const entries = error.entries.map((e) => ({ ...e,
          pointer: e.pointer?.startsWith(strip) ? e.pointer.slice(strip.length) : e.pointer }));
        const forReason = s.correcting ? entries.filter((e) => e.pointer === "/reason") : [];
        editor.showErrors({ entries: entries.filter((e) => !forReason.includes(e)) },
          editor.body());
        if (forReason.length) fieldError(s.correcting.reason, t("reasonNeeded"));
      } else {
        tell(() => errorText(error));
      }
      return null;
    } finally {
      s.writing = false;
    }
  }

  /** A problem with an input, said right after it (and tied to it for screen readers). */
  function fieldError(field, text) {
    const id = field.getAttribute("aria-describedby") ?? uniqueId("error");
    let message = document.getElementById(id);
    if (!message) {
      message = h("p", { class: "inline-error", id, role: "alert" });
      field.parentElement.append(message);
    }
    message.textContent = text;
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", id);
    field.focus();
  }

  async function startCorrection(number) {
    // not while a write is on its way: its answer would empty the correction's hand, and
    // the hand set aside would be one already saved (tapped again: stored twice)
    if (s.writing) return;
    const events = await currentLog();
    if (s.writing) return;
    const hand = events && currentBodies(events)[number - 1];
    if (!hand) return;
    // the hand being entered is set aside (not while switching from another correction)
    if (!s.correcting) {
      s.setAside = { playing: [...s.playing], body: editor.body(), pending: s.pending };
    }
    s.playing = hand.players.map((p) => p.id);
    renderEntry();
    editor.load(hand);
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

  /** Ask why a hand is voided (`kind` "void") or brought back ("restore"), in its row. */
  function ask(kind, number, actions) {
    s.asking = { kind, number, text: "", error: null };
    askReason(actions, true);
  }

  /** The reason being asked, drawn in `actions` (or in its row as it is now, `actions`
   * null), with what the service said to the last try; `focus`: the reason gets it. */
  function askReason(actions, focus) {
    const asked = s.asking;
    const row = actions ?? box.history.querySelector(
      `[data-hand="${asked.number}"] .hand-actions`);
    if (!row) return;
    const id = uniqueId(asked.kind);
    const reason = h("input", { id, maxlength: 500, autocomplete: "off",
      dataset: { asking: `${asked.kind}-${asked.number}` },
      oninput: (e) => { asked.text = e.target.value; } });
    reason.value = asked.text;
    const confirm = h("button", { type: "button", onclick: () => sendAsked(asked) },
      t(asked.kind === "void" ? "confirmVoid" : "confirmRestore"));
    submitOnEnter(reason, confirm);
    fill(row, h("label", { for: id }, t("reason")), reason, confirm,
      h("button", { type: "button", class: "quiet", onclick: () => {
        s.asking = null;
        renderHistory();
        box.history.querySelector("h2")?.focus();
      } }, t("cancel")));
    if (asked.error) fieldError(reason, asked.error());
    else if (focus) reason.focus();
  }

  /** Void the hand asked about, or bring it back as it was: a correction with the body it
   * had (the ledger counts a corrected voided hand again), with a reason as every one. */
  async function sendAsked(asked) {
    const reason = asked.text.trim();
    if (asked.kind === "void") {
      await write("POST", `/hands/${asked.number}/void`, { reason },
        { asking: true, acted: asked.number });
      return;
    }
    const events = await currentLog();
    const hand = events && currentBodies(events)[asked.number - 1];
    if (!hand) return;
    await write("PUT", `/hands/${asked.number}`, { hand, reason },
      { asking: true, acted: asked.number });
  }

  function leave() {
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
    renderStart();
    toTop(mount.querySelector("h2"));
  }

  function stop() {
    s.stopped = true;
    clearTimeout(s.timer);
  }

  /** Draw again in the current language (the state stays). */
  function rerender() {
    if (s.current && s.table) {
      renderTable();
      return;
    }
    renderStart();
  }

  const learnt = learnFeatures(s.absent).then(() => {
    if (s.absent.has("join")) mount.querySelector(".join-panel")?.remove();
  });
  renderStart();
  /** Reopen the table this device had open (a reload mid-night), if it remembers one. */
  async function resume() {
    const id = load("openTable");
    const entry = id && load("tables", []).find((x) => x.id === id);
    if (!entry) return;
    await learnt;
    await open(entry);
  }

  return { open: async (entry) => { await learnt; await open(entry); }, resume, stop, rerender,
    persist };
}

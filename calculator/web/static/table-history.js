// The table's history, newest hand first: each hand's outcome and amounts, its details
// (points, steps, payments) on demand, why it was last corrected or voided, and the
// scorer's controls: undo / redo, correct, void and bring back (each with a reason).
import { call } from "./api.js";
import { fieldError, fill, h, keepFocus, submitOnEnter, uniqueId } from "./dom.js";
import { currentBodies, lastEdits, undoRedo } from "./edits.js";
import { lang, signed, t } from "./i18n.js";
import { renderResult } from "./result.js";

// The label the service gives the scorer token a table is created (or imported) with, " (2)"
// and on for a replayed create: the `by` of the changes made with it. A phone's own label
// (a scorer link's) never reads so: the API refuses it (calculator/api/access_schemas.py).
const OWNER_LABEL = /^scorer(?: \(\d+\))?$/;

/** Who made a change, as a player says it: a scorer link's phone by the name it was given,
 * the table's own scorer token as the table's owner ("scorer" says nothing to a player). */
function changedBy(by) {
  if (!by) return null;
  return OWNER_LABEL.test(by) ? t("tableOwner") : by;
}

/** The history panel of the table `view` (table.js). */
export function createHistory(view) {
  const { s, box, mount, cardNames } = view;

  function renderHistory() {
    const table = s.table;
    const canWrite = view.scorer();
    // the hand asked about was voided, brought back or undone meanwhile (by this phone's
    // write or another's): nothing left to ask
    const asked = s.asking && table.hands.find((x) => x.number === s.asking.number);
    if (s.asking && (!asked || (asked.status === "voided") !== (s.asking.kind === "restore"))) {
      s.asking = null;
    }
    const hands = [...table.hands].reverse();
    // why each hand stands as it does: its correction's or void's reason (undo/redo read)
    const edits = s.log?.id === s.current.id ? lastEdits(s.log.events) : new Map();
    // what Undo and Redo would do, said by them: another phone's hand is not taken back
    // unawares (a page probe). Only from a log of this version: else it could be stale.
    const next = s.log?.id === s.current.id && s.log.version === table.version
      ? undoRedo(s.log.events) : { undo: null, redo: null };
    // said by whom as the history says it ("the table's owner" for the service's own labels)
    const would = (key, edit, can) => {
      if (!can || !edit) return null;
      const who = changedBy(edit.by);
      return h("p", { class: "hint undo-what", id: uniqueId("would") },
        t(key, { what: t(`edit_${edit.type}`, { n: edit.number }) }),
        who ? ` · ${t("changedBy", { who })}` : "");
    };
    const undoWould = canWrite ? would("undoWould", next.undo, table.can_undo) : null;
    const redoWould = canWrite ? would("redoWould", next.redo, table.can_redo) : null;
    fill(box.history, h("h2", { id: "history-h", tabindex: "-1" }, t("history")),
      s.notes.history ? h("p", { class: "notice history-note", role: "status" },
        s.notes.history()) : null,
      canWrite ? h("div", { class: "inline undo-redo" },
        h("button", { type: "button", disabled: !table.can_undo,
          "aria-describedby": undoWould?.id,
          onclick: () => view.write("POST", "/undo", undefined, { near: "history" }) }, t("undo")),
        h("button", { type: "button", disabled: !table.can_redo,
          "aria-describedby": redoWould?.id,
          onclick: () => view.write("POST", "/redo", undefined, { near: "history" }) }, t("redo")))
        : null,
      undoWould, redoWould,
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
              dataset: { action: "correct" }, onclick: () => view.startCorrection(hand.number) },
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

  /** Why a hand of the history was last changed, if it was, and by which phone:
   * "Corrected: typo · by Minji's phone", "Voided: entered twice · by the table's owner"
   * (the reason and the phone's name are the scorers' text, drawn as text). Only an edit
   * that agrees with the hand as the table read it: events read a version behind say
   * nothing. */
  function whyChanged(edit, voided) {
    if (!edit || (edit.type === "voided") !== voided) return null;
    const why = t(edit.type === "voided" ? "voidedWhy" : "correctedWhy",
      { reason: edit.reason ?? "" });
    const who = changedBy(edit.by);
    return h("p", { class: "hand-reason", dataset: { edit: edit.type } },
      who ? `${why} · ${t("changedBy", { who })}` : why);
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
      await view.write("POST", `/hands/${asked.number}/void`, { reason },
        { asking: true, acted: asked.number });
      return;
    }
    const events = await view.currentLog();
    const hand = events && currentBodies(events)[asked.number - 1];
    if (!hand) return;
    await view.write("PUT", `/hands/${asked.number}`, { hand, reason },
      { asking: true, acted: asked.number });
  }

  return { renderHistory, askReason };
}

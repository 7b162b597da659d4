// The table's numbers: the live totals (and when the table last changed), the settlement
// (rounded, if the table rounds) and ending the night, which closes the table.
import { fill, h, uniqueId } from "./dom.js";
import { clockTime, num, signed, t } from "./i18n.js";

/** The totals and settlement panels of the table `view` (table.js). */
export function createTotals(view) {
  const { s, box, mount } = view;

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
      view.scorer() ? ending : null);
    if (view.scorer()) askEnd(ending, s.endAsked);
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
        if (await view.write("POST", "/close", undefined, { near: "settle" })) {
          s.endAsked = false;
          mount.querySelector(".table-head h2")?.focus();
        }
      } }, t("confirmEnd"));
    fill(ending, h("p", { class: "hint", id: hintId }, t("endNightHint")), confirm,
      h("button", { type: "button", class: "quiet", onclick: () => askEnd(ending, false, true) },
        t("cancel")));
    if (tapped) confirm.focus();
  }

  return { renderTotals, renderSettlement };
}

// What a hand's players enter by number or choice, not by tapping cards: each player's
// counts (when counts are entered instead of cards), each player's go, shakes, bombs and
// sake-cup choice (국진), and who each side event (첫뻑, 연뻑, 첫따닥) pays.
import { checkbox, fill, h, select, stepper } from "./dom.js";
import { codeLabel, t } from "./i18n.js";
import { EVENTS } from "./hand-body.js";

const TALLY_NUMBERS = [["brights", 5], ["animals", 9], ["ribbons", 10], ["junk_value", 60]];
const TALLY_FLAGS = ["rain_bright", "godori", "rain_ribbon", "hongdan", "cheongdan", "chodan",
  "has_gukjin"];
const FLAG_LABELS = { rain_bright: "rainBright", godori: "godori", rain_ribbon: "rainRibbon",
  hongdan: "hongdan", cheongdan: "cheongdan", chodan: "chodan", has_gukjin: "hasGukjin" };
const NUMBER_LABELS = { brights: "brights", animals: "animals", ribbons: "ribbons",
  junk_value: "junkValue" };

/** The counts, flags and side events of the hand editor `view` (hand.js). */
export function createCounts(view) {
  const { state, parts } = view;

  function renderCounts() {
    fill(parts.pile, ...state.names.map((name, i) => {
      if (i === state.sitter) return null;
      const tally = state.tallies[i];
      const set = (field) => (value) => { tally[field] = value; view.changed(); };
      return h("fieldset", { class: "counts", dataset: { pointer: `/players/${i}/tally` } },
        h("legend", {}, `${name} · ${t("counts")}`),
        // typed or tapped: 17 junk is a number, not 17 taps
        TALLY_NUMBERS.map(([field, max]) => stepper({
          label: t(NUMBER_LABELS[field]), value: tally[field], max, onchange: set(field),
          pointer: `/players/${i}/tally/${field}`, who: name, typed: true,
        })),
        h("div", { class: "checks" }, TALLY_FLAGS.map((field) => checkbox({
          label: t(FLAG_LABELS[field]), checked: tally[field], onchange: set(field),
          pointer: `/players/${i}/tally/${field}`,
        }))));
    }), h("button", { type: "button", class: "quiet", onclick: view.clear }, t("clearCounts")));
  }

  function renderFlags() {
    fill(parts.flags, state.names.map((name, i) => {
      if (i === state.sitter) return null;
      const flags = state.flags[i];
      const set = (field) => (value) => { flags[field] = value; view.changed(); };
      return h("fieldset", { class: "player-flags", dataset: { pointer: `/players/${i}` } },
        h("legend", {}, name),
        stepper({ label: t("goCount"), value: flags.go_count, max: 20, onchange: set("go_count"),
          pointer: `/players/${i}/go_count`, who: name }),
        stepper({ label: t("shakes"), value: flags.shakes, max: 12, onchange: set("shakes"),
          pointer: `/players/${i}/shakes`, who: name }),
        stepper({ label: t("bombs"), value: flags.bombs, max: 12, onchange: set("bombs"),
          pointer: `/players/${i}/bombs`, who: name }),
        select({ label: `${t("gukjin")} · ${name}`, value: flags.gukjin, onchange: set("gukjin"),
          pointer: `/players/${i}/gukjin`, choices: [["", t("optionDefault")],
            ["auto", t("gukjinAuto")], ["animal", t("gukjinAnimal")], ["junk", t("gukjinJunk")]] }));
    }));
  }

  /** Who each side event (첫뻑, 연뻑, 첫따닥) pays, if anyone: hidden when a loaded hand
   * carries events the editor cannot show (they are kept as they are). */
  function sideEvents() {
    if (state.kept?.hand.events) return null;
    const chosen = EVENTS.filter((type) => state.events[type]).length;
    return h("details", { class: "side-events", open: chosen > 0,
      dataset: { pointer: "/events" } },
    h("summary", {}, t("sideEvents", { n: chosen })),
    EVENTS.map((type) => select({ label: codeLabel("reason", type), value: state.events[type],
      choices: [["", t("liableNone")], ...view.playing().map((i) => [state.names[i], state.names[i]])],
      onchange: (value) => {
        state.events[type] = value;
        view.changed();
      } })));
  }

  return { renderCounts, renderFlags, sideEvents };
}

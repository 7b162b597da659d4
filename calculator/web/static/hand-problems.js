// The API's problems with a hand, each shown where its pointer points: at a card, a
// stepper, the outcome, a rule in the panel around the editor; the ones that point at no
// place on the page listed together (the page checks nothing itself: the API says).
import { fill, h, uniqueId } from "./dom.js";
import { problemText, t } from "./i18n.js";

/** The problems shown by the hand editor `view` (hand.js). */
export function createProblems(view) {
  const { state, parts, mount, around } = view;
  // The problems of hands sent (showErrors, from outside): a preview answered late leaves
  // the ones said after its edit alone. Not its own kind's: an earlier preview's problem
  // is the piles', which a later preview's answer replaces.
  let problemsShown = 0;

  /** How many times a sent hand's problems were said (a preview asked before the last
   * one neither clears them nor says its own over them). */
  function problemsSaid() {
    return problemsShown;
  }

  /** The editor and the parts of the page around it whose inputs a problem may point at
   * (`around`: the one-hand tab's rules panel, with the stake and the options). */
  function roots() {
    return mount ? [mount, ...around()] : [];
  }

  function clearErrors() {
    for (const root of roots()) {
      root.querySelectorAll(".inline-error").forEach((message) => {
        // the control tied to it for screen readers no longer points at nothing
        if (message.id) {
          document.querySelectorAll(`[aria-describedby="${message.id}"]`)
            .forEach((control) => control.removeAttribute("aria-describedby"));
        }
        message.remove();
      });
      root.querySelectorAll("[aria-invalid]").forEach((e) => e.removeAttribute("aria-invalid"));
      root.querySelectorAll(".has-error").forEach((e) => e.classList.remove("has-error"));
    }
    if (parts.errors) fill(parts.errors);
  }

  /** A sent hand's problems (the outcome's answer): said, and kept from older previews. */
  function showErrors(error, sent = view.body()) {
    problemsShown += 1;
    showProblems(error, sent);
  }

  /** Show each problem next to what it points at (a card, a stepper, the outcome…). */
  function showProblems(error, sent = view.body()) {
    clearErrors();
    const unplaced = [];
    // said where they point, far above the outcome buttons maybe (a sitter's sale, a
    // name): said under the buttons too, with a way there (a refused tap said nothing
    // where it was made)
    const elsewhere = [];
    for (const entry of error.entries) {
      const target = place(entry.pointer, sent);
      const text = problemText(entry);
      if (!target) {
        // nowhere on the page: the stake or the rule set say which
        const where = /^\/(stake|ruleset)\b/.exec(entry.pointer ?? "")?.[1];
        unplaced.push(where ? `${t(where === "stake" ? "stake" : "rules")}: ${text}` : text);
        continue;
      }
      // a closed panel (the rules, the side events) opens to show it
      for (let open = target.element.closest("details"); open;
        open = open.parentElement?.closest("details")) open.open = true;
      const id = uniqueId("error");
      const message = h("p", { class: "inline-error", id, dataset: { code: entry.code } }, text);
      target.element.classList.add("has-error");
      // said to screen readers by the control itself (a wrapper's first one: an option)
      const control = target.element.matches("input, select, textarea, button")
        ? target.element
        : target.element.querySelector("input, select, textarea") ?? target.element;
      control.setAttribute("aria-invalid", "true");
      control.setAttribute("aria-describedby", id);
      if (target.after === target.element) target.element.after(message);
      else target.after.append(message);
      // the way there: a control that takes the focus (a stepper's is its first button)
      const focusable = control.matches("input, select, textarea, button") ? control
        : target.element.querySelector("button, input, select, textarea") ?? control;
      if (!target.element.closest(".outcome")) elsewhere.push({ text, id, control: focusable });
    }
    // no answer at all (the network), or another phone's change first, is not a problem
    // with what was entered
    const only = (code) => error.entries.every((e) => e.code === code);
    const heading = only("no_answer") ? "noAnswerHeading" : only("stale") ? "staleHeading"
      : "errors";
    const show = (control) => () => {
      control.scrollIntoView({ block: "center" });
      control.focus({ preventScroll: true });
    };
    fill(parts.errors, unplaced.length || elsewhere.length ? [h("h3", {}, t(heading)),
      h("ul", {}, unplaced.map((d) => h("li", {}, d)),
        elsewhere.map(({ text, id, control }) => h("li", {}, `${text} `,
          h("button", { type: "button", class: "quiet", "aria-describedby": id,
            onclick: show(control) }, t("showProblem")))))] : []);
  }

  function place(pointer, sent) {
    const card = /^\/players\/(\d+)\/captured\/(\d+)/.exec(pointer ?? "");
    if (card && state.entry === "cards") {
      const id = sent.players[Number(card[1])]?.captured?.[Number(card[2])];
      const button = id && parts.pile.querySelector(`[data-card="${id}"]`);
      if (button) return { element: button, after: button.closest(".month").querySelector(".month-errors") };
    }
    let best = null;
    for (const root of roots()) {
      root.querySelectorAll("[data-pointer]").forEach((element) => {
        const p = element.dataset.pointer;
        if ((pointer === p || pointer?.startsWith(`${p}/`))
            && (!best || p.length > best.dataset.pointer.length)) best = element;
      });
    }
    return best ? { element: best, after: best } : null;
  }

  return { problemsSaid, clearErrors, showErrors, showProblems };
}

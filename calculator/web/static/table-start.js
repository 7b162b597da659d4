// The table screen with no table open: create a table (its roster, rule set and rounding),
// join one by its code, or reopen one this device remembers.
import { ApiError, call, newKey } from "./api.js";
import { fill, h, submitOnEnter, uniqueId } from "./dom.js";
import { errorText, problemText, t } from "./i18n.js";
import { rulesetOf, rulesPicker, variantOf } from "./rules.js";
import { load, save } from "./store.js";

const NAME_MAX = 40; // a player's name, as the API takes it

/** The start screen of the table `view` (table.js). */
export function createStart(view) {
  const { s, mount, presets, rules } = view;

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
      if (typed) view.open({ join: typed });
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
          h("button", { type: "button", onclick: () => view.open(entry) },
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
      await view.open({ id: created.id, token: created.scorer_token, role: "scorer",
        join_code: created.join_code, viewer_token: created.viewer_token });
    } catch (error) {
      // a problem with one name says which (the Korean text names the code, not the name);
      // one with the stake, the rule set or the rounding says which field ("0 is below the
      // minimum 1" said nothing of where: a page probe)
      const about = (entry) => {
        const at = /^\/roster\/(\d+)/.exec(entry.pointer ?? "");
        const text = problemText(entry);
        const name = at ? names[Number(at[1])] : null;
        const field = /^\/(stake|ruleset|rounding)\b/.exec(entry.pointer ?? "")?.[1];
        if (field) return `${t(field === "ruleset" ? "rules" : field)}: ${text}`;
        return name && !text.includes(name) ? `${name}: ${text}` : text;
      };
      const details = !(error instanceof ApiError) ? [t("notSent")]
        : error.status === 429 ? [errorText(error)] : error.entries.map(about);
      fill(problems, h("ul", {}, details.map((detail) => h("li", {}, detail))));
    }
  }

  return { renderStart };
}

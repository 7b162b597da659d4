// The rule set: a preset from GET /v1/rulesets, option overrides drawn from the options
// the API declares (type, allowed values, bounds), and the stake. Remembered on the device.
import { fill, h, uniqueId } from "./dom.js";
import { presetText, t } from "./i18n.js";
import { load, save } from "./store.js";

/** The remembered rule set under `key`: {preset, overrides, stake}. The one-hand tab and
 * the table's create form each keep their own ("rules", "tableRules"). */
export function savedRules(key = "rules") {
  return { preset: "standard", overrides: {}, stake: 100, ...load(key, {}) };
}

/** The request's `ruleset`: the preset's name, or the preset with its overrides. */
export function rulesetOf(rules) {
  return Object.keys(rules.overrides).length
    ? { preset: rules.preset, options: { ...rules.overrides } } : rules.preset;
}

/** The variant ("gostop" or "balance") of the preset the rules name. */
export function variantOf(presets, rules) {
  return presets.find((p) => p.name === rules.preset)?.variant ?? "gostop";
}

/**
 * The rule picker in `mount`. `onchange(rules)` after every change (the picker saves it
 * under `key`).
 */
export function rulesPicker({ mount, presets, rules, onchange, key = "rules" }) {
  const changed = () => {
    save(key, rules);
    onchange(rules);
  };
  const render = () => {
    const preset = presets.find((p) => p.name === rules.preset) ?? presets[0];
    rules.preset = preset.name;
    const presetId = uniqueId("preset");
    const stakeId = uniqueId("stake");
    fill(mount,
      h("div", { class: "field" }, h("label", { for: presetId }, t("preset")),
        h("select", { id: presetId, onchange: (e) => {
          rules.preset = e.target.value;
          rules.overrides = {};
          render();
          changed();
        } }, presets.map((p) => h("option", { value: p.name, selected: p.name === preset.name },
          `${p.name} — ${presetText(p).title}`)))),
      h("p", { class: "hint" }, presetText(preset).description),
      h("div", { class: "field" }, h("label", { for: stakeId }, t("stake")),
        h("input", { id: stakeId, type: "number", inputmode: "numeric", min: 1, value: rules.stake,
          dataset: { pointer: "/stake" }, onchange: (e) => {
            // sent as typed: a stake of 0, or no number, is the API's 422 at /stake (shown
            // by the preview and the outcome), never silently 1
            const typed = e.target.value.trim();
            rules.stake = typed !== "" && Number.isFinite(Number(typed)) ? Number(typed) : typed;
            changed();
          } })),
      h("details", { class: "options" },
        h("summary", {}, t("options", { n: Object.keys(rules.overrides).length })),
        h("div", { class: "option-list" }, preset.options.map((option) => optionField(option)))));
  };
  const optionField = (option) => {
    const id = uniqueId("opt");
    const value = option.name in rules.overrides ? rules.overrides[option.name] : option.value;
    const set = (next) => {
      if (JSON.stringify(next) === JSON.stringify(option.value)) delete rules.overrides[option.name];
      else rules.overrides[option.name] = next;
      mount.querySelector("summary").textContent = t("options",
        { n: Object.keys(rules.overrides).length });
      changed();
    };
    let input;
    if (option.type === "boolean") {
      input = h("input", { id, type: "checkbox", checked: value,
        onchange: (e) => set(e.target.checked) });
    } else if (option.allowed) {
      input = h("select", { id, onchange: (e) => set(e.target.value) },
        option.allowed.map((v) => h("option", { value: v, selected: v === value }, v)));
    } else {
      input = h("input", { id, type: "number", inputmode: "numeric", min: option.minimum,
        max: option.maximum, value: value ?? "", placeholder: option.null_means ?? "",
        onchange: (e) => set(e.target.value === "" && option.nullable ? null
          : Number(e.target.value)) });
    }
    return h("div", { class: `option ${option.type === "boolean" ? "check" : "field"}`,
      dataset: { pointer: `/ruleset/options/${option.name}` } },
      option.type === "boolean" ? input : null,
      h("label", { for: id }, h("code", {}, option.name), h("span", { class: "hint" },
        ` ${option.summary}`)),
      option.type === "boolean" ? null : input);
  };
  render();
  return { render };
}

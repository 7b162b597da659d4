// The scorekeeper page: boots from the public API (rule sets, cards), draws the two
// screens (one hand; a table night) and follows the links it is opened with:
// `?join=CODE` (a join link, or its QR code) and `#table=ID&viewer=TOKEN` (a viewer link).
import { ApiError, call } from "./api.js";
import { cardName } from "./cards.js";
import {
  afterTap, clearFieldError, fieldError, fill, focusAtTop, focusMoves, h, keepFocus, stepper,
  uniqueId,
} from "./dom.js";
import { createHandEditor, handPath } from "./hand.js";
import { lang, learnCodes, setLang, t } from "./i18n.js";
import { renderResult } from "./result.js";
import { rulesetOf, rulesPicker, savedRules, variantOf } from "./rules.js";
import { load, save } from "./store.js";
import { createTableView } from "./table.js";

const cardsByPreset = new Map();
const page = { presets: [], view: load("view", "hand"), rules: savedRules() };


/** The card catalogue under a preset (its bonus cards), fetched once per preset. */
export async function cardsFor(preset) {
  if (!cardsByPreset.has(preset)) {
    const answer = await call("GET", `/v1/cards?ruleset=${encodeURIComponent(preset)}`);
    cardsByPreset.set(preset, answer.data.cards);
  }
  return cardsByPreset.get(preset);
}

/** Card id → its name in the page's language. */
export function cardNames(cards) {
  return new Map(cards.map((card) => [card.id, cardName(card)]));
}

/** The letter a new player is named: its place's (D for the fourth) unless a player
 * is named so already (B renamed D), then the first free one. */
function freeLetter(names) {
  const byPlace = String.fromCharCode(65 + names.length);
  return names.includes(byPlace) ? [..."ABCDEFGH"].find((l) => !names.includes(l)) : byPlace;
}

/** The roster kept from the last visit: at most four names (one sits out, 광팔기), each
 * its own (a page before 2026-12-07 kept a name another player had: a later one is
 * given a free letter, or the editor, which keeps piles by name, held the two as one). */
function savedRoster() {
  const roster = load("roster");
  if (!Array.isArray(roster) || roster.length < 2) return ["A", "B", "C"];
  const names = [];
  for (const name of roster.slice(0, 4)) {
    const given = typeof name === "string" ? name.trim().slice(0, 40) : "";
    names.push(given && !names.includes(given) ? given : freeLetter(names));
  }
  return names;
}

// --- one hand ----------------------------------------------------------------------

function handView(mount) {
  const names = savedRoster();
  const rosterBox = h("section", { class: "panel", "aria-labelledby": "players-h" });
  const rulesBox = h("div", {});
  const editorBox = h("div", { class: "editor" });
  const resultBox = h("div", { class: "result-box" });
  // over a result whose hand was edited since: it no longer says what the editor holds
  const staleBox = h("p", { class: "notice", role: "status" });
  let scored = null; // the editor's body the result shown was scored from (JSON)
  const streakBox = h("div", { class: "streak-box" });
  // drawn hands (나가리) right before the next one: the answer's nagari_streak_after, kept
  // for the next hand as a table carries it (a player may also set it)
  let streak = Number.isInteger(load("handStreak")) ? load("handStreak") : 0;
  let cards = [];
  let shown = null; // the last answer and how to draw it, drawn again in a new language
  let picker = null;
  const editor = createHandEditor({
    mount: editorBox,
    context,
    onOutcome: score,
    // the stake, the options and the streak: a problem with them is said there
    around: () => [rulesBox, streakBox],
    onEdit: () => markStale(),
  });

  /** A result shown says so while the hand in the editor is not the one it scored (a
   * player's pass: a card tapped after Stop left the old amounts as they were). */
  function markStale() {
    const stale = shown !== null && scored !== null && sameHand(editor.body()) !== scored;
    const text = stale ? t("resultStale") : "";
    if (staleBox.textContent !== text) staleBox.textContent = text; // said once, not per tap
  }

  /** A hand body as compared: its piles' cards in any order (as the API reads them). */
  function sameHand(body) {
    return JSON.stringify(body, (key, value) => ((key === "captured" || key === "hand")
      && Array.isArray(value) ? [...value].sort() : value));
  }

  /** What every hand of the tab is scored under: the rules, the stake, and (Go-Stop) the
   * nagari streak. */
  function context() {
    return { ruleset: rulesetOf(page.rules), stake: page.rules.stake,
      ...(gostop() ? { nagari_streak: streak } : {}) };
  }

  function gostop() {
    return variantOf(page.presets, page.rules) !== "balance"; // balance has no nagari
  }

  /** The streak kept (`draw`: the stepper drawn again with it; a stepper's own change
   * is said by the stepper). */
  function keepStreak(value, draw = true) {
    streak = value;
    save("handStreak", value);
    if (draw) renderStreak();
  }

  function renderStreak() {
    keepFocus(streakBox, () => fill(streakBox, gostop() ? stepper({ label: t("nagariStreak"),
      value: streak, max: 64, pointer: "/nagari_streak",
      onchange: (value) => {
        keepStreak(value, false);
        shown = null; // a result of another streak goes, and its Next hand with it
        fill(resultBox);
        editor.refresh();
      } }) : null));
  }

  /** "Next hand": the piles emptied and the streak the answer gave the next hand taken
   * (a 나가리 doubles it). Scoring the same hand again before (a go count forgotten)
   * keeps the streak it was scored with. */
  function nextHand(next) {
    return h("div", { class: "next-hand" },
      Number.isInteger(next) && next > 0
        ? h("p", { class: "hint" }, t("nextStreak", { n: next })) : null,
      h("button", { type: "button", onclick: () => {
        if (Number.isInteger(next)) keepStreak(next);
        shown = null;
        fill(resultBox);
        editor.clear({ forget: true });
        mount.querySelector("#hand-h").focus();
      } }, t("nextHand")));
  }

  /** Score the hand (`outcome` null: a balance hand, which has none). */
  async function score(outcome) {
    const sent = editor.body();
    const moved = focusMoves(); // a control tapped meanwhile keeps the focus
    const variant = variantOf(page.presets, page.rules);
    const request = { ...context(), ...sent,
      ...(outcome ? { outcome: editor.outcome(outcome) } : {}) };
    try {
      // lang=all: both languages, so a language switch redraws the result without a call
      const answer = await call("POST", `${handPath(variant)}?lang=all`, { body: request });
      // "what if" compares Go-Stop rule sets only (compare_with is Go-Stop's), and the hand
      // that gave this result: not whatever the editor holds by then
      const others = page.presets.filter((p) => p.variant === "gostop");
      const preset = page.rules.preset;
      // one "what if" for this result: its last comparison stays through a redraw
      const whatIf = variant === "gostop" ? { presets: others, current: preset,
        run: (other) => compare(variant, request, other) } : null;
      const next = answer.data.nagari_streak_after; // (a balance hand has none)
      shown = () => [renderResult(answer.data, { names: cardNames(cards), compare: whatIf }),
        nextHand(next)];
      scored = sameHand(sent);
      // an earlier tap's refusal, or its "no connection", is over (not what an edit made
      // since said: its preview's problems)
      if (JSON.stringify(editor.body()) === JSON.stringify(sent)) editor.clearErrors();
      fill(resultBox, staleBox, shown());
      markStale();
      if (!moved()) focusAtTop(resultBox.querySelector("h2"));
    } catch (error) {
      shown = null;
      fill(resultBox);
      editor.showErrors(error instanceof ApiError ? error
        : { entries: [{ pointer: null, code: "no_answer", detail: t("noAnswer") }] }, sent);
    } finally {
      moved(); // listening ends
    }
  }

  /** The scored `request` again under `preset` too (its answer's comparisons). */
  async function compare(variant, request, preset) {
    const answer = await call("POST", `${handPath(variant)}?lang=all`,
      { body: { ...request, compare_with: [preset] } });
    return answer.data;
  }

  function renderRoster() {
    keepFocus(rosterBox, drawRoster, () => [...rosterBox.querySelectorAll("input")].at(-1)
      ?? rosterBox.querySelector("h2"));
  }

  function drawRoster() {
    const inputs = names.map((name, i) => {
      const id = uniqueId("name");
      const remove = names.length > 2 ? h("button", { type: "button", class: "quiet",
        "aria-label": t("removePlayer", { id: name }),
        onclick: () => { names.splice(i, 1); rosterChanged(); } }, "×") : null;
      return h("div", { class: "inline" },
        h("label", { for: id, class: "visually-hidden" }, t("playerName", { n: i + 1 })),
        h("input", { id, value: name, maxlength: 40, autocomplete: "off",
          dataset: { playerName: String(i) },
          // a refused name's note goes once another is being typed
          oninput: (e) => clearFieldError(e.target),
          onchange: (e) => {
            const before = names[i];
            const wanted = e.target.value.trim() || before;
            if (wanted !== before && names.includes(wanted)) {
              // two players of one name would be one to the editor (it keeps piles by
              // name) and the service refuses the hand: said at the field, the name kept
              e.target.value = before;
              fieldError(e.target, t("nameTaken", { id: wanted }));
              return;
            }
            clearFieldError(e.target);
            names[i] = wanted;
            save("roster", names);
            // said in place, not drawn again: a Tab (a phone keyboard's "next") changes
            // the name on its way to the next field, which a redraw would replace under
            // it (the focus fell to the page, and the keyboard closed)
            e.target.value = names[i];
            remove?.setAttribute("aria-label", t("removePlayer", { id: names[i] }));
            // its tapped cards go with it at once (a roster change the tap makes finds
            // them there); the editor drawn again once a tap under way is delivered
            editor.renamePlayer(before, names[i], { draw: false });
            afterTap(() => editor.render());
          } }),
        remove);
    });
    fill(rosterBox, h("h2", { id: "players-h", tabindex: "-1" }, t("players")), inputs,
      names.length < 4 ? h("button", { type: "button", class: "quiet", onclick: () => {
        names.push(freeLetter(names));
        rosterChanged();
      } }, t("addPlayer")) : null);
  }

  function rosterChanged() {
    save("roster", names);
    renderRoster();
    editor.setPlayers(names);
  }

  async function rulesChanged() {
    try {
      cards = await cardsFor(page.rules.preset);
    } catch {
      return; // no answer: the cards shown stay; the next change asks again
    }
    editor.setVariant(variantOf(page.presets, page.rules));
    renderStreak();
    editor.setCards(cards);
    editor.refresh(); // the preview under the new rules (a wrong stake: its problem)
    shown = null;
    fill(resultBox);
  }

  fill(mount, rosterBox,
    h("details", { class: "panel rules-panel" },
      h("summary", {}, h("h2", { id: "rules-h" }, t("rules"))), rulesBox),
    h("section", { class: "panel", "aria-labelledby": "hand-h" },
      h("h2", { id: "hand-h", tabindex: "-1" }, t("tabHand")), streakBox, editorBox),
    resultBox);
  renderRoster();
  renderStreak();
  picker = rulesPicker({ mount: rulesBox, presets: page.presets, rules: page.rules,
    onchange: () => afterTap(rulesChanged) }); // (a stake typed, then a tap: as a name)
  editor.setPlayers(names);
  // the hand half entered when the page went away (a reload, a tab thrown away), if it
  // was of these players
  const draft = load("handDraft");
  save("handDraft", null);
  if (draft?.body && JSON.stringify(draft.names) === JSON.stringify(names)) editor.load(draft.body);
  rulesChanged();
  return {
    persist() {
      save("handDraft", { names, body: editor.body() });
    },
    rerender() {
      fill(mount.querySelector("#rules-h"), t("rules"));
      fill(mount.querySelector("#hand-h"), t("tabHand"));
      renderRoster();
      renderStreak();
      picker.render();
      editor.render();
      fill(resultBox, shown ? [staleBox, shown()] : null);
      markStale();
    },
  };
}

// --- the page ----------------------------------------------------------------------

let views = null;

/** The header and the tabs in the current language; the chosen screen shown. */
function renderChrome() {
  document.documentElement.lang = lang();
  document.title = t("title");
  document.getElementById("title").textContent = t("title");
  const switcher = document.getElementById("lang");
  switcher.textContent = t("otherLang");
  switcher.setAttribute("lang", lang() === "ko" ? "en" : "ko");
  switcher.onclick = () => {
    setLang(lang() === "ko" ? "en" : "ko");
    renderChrome();
    views.hand.rerender();
    views.table.rerender();
  };
  const tab = (view, text) => h("button", { type: "button", "aria-pressed": String(page.view === view),
    dataset: { view }, onclick: () => {
      page.view = view;
      save("view", view);
      renderChrome();
    } }, text);
  const tabs = document.getElementById("tabs");
  // a tab pressed from the keyboard keeps the focus, on the same tab drawn again
  keepFocus(tabs, () => fill(tabs, tab("hand", t("tabHand")), tab("table", t("tabTable"))));
  tabs.setAttribute("aria-label", t("tabs"));
  document.getElementById("view-hand").hidden = page.view !== "hand";
  document.getElementById("view-table").hidden = page.view !== "table";
}

async function boot() {
  setLang(lang());
  keepLink(readLink()); // out of the address bar at once, whatever comes next
  addEventListener("hashchange", () => { // a link opened in a tab already on the page
    const opened = readLink();
    if (!opened) return;
    if (!views) keepLink(opened); // still booting: opened once it has
    else openLink(opened);
  });
  try {
    const [answer, codes] = await Promise.all([call("GET", "/v1/rulesets"),
      call("GET", "/v1/codes")]);
    page.presets = answer.data.rulesets; // Go-Stop and balance (120/80/60) presets
    learnCodes(codes.data.lists); // a payment's reason is a code: its name is here
  } catch {
    document.getElementById("boot").textContent = t("offline");
    return;
  }
  const opened = keptLink();
  if (opened) {
    page.view = "table";
    save("view", "table");
  }
  const hand = h("div", { id: "view-hand" });
  const table = h("div", { id: "view-table" });
  fill(document.getElementById("main"), hand, table);
  views = {
    hand: handView(hand),
    // the create form has its own rule set: what it shows is what a table is created with
    table: createTableView({ mount: table, presets: page.presets,
      rules: savedRules("tableRules"), cardsFor, cardNames }),
  };
  renderChrome();
  // hidden (another app, the screen off) or unloaded: the hands being entered are kept
  const persist = () => {
    views.hand.persist();
    views.table.persist();
  };
  addEventListener("pagehide", persist);
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) persist();
  });
  if (opened) await views.table.open(opened);
  else await views.table.resume();
}

/** A link read while the page boots, kept in this tab's session until a table is opened
 * from it: a boot that fails (offline) finds it again at the reload, though the address
 * bar no longer has it. */
const LINK_KEY = "gostop.link";
let linkKept = null; // the same, in memory: storage may throw (private browsing)

function keepLink(opened) {
  if (!opened) return;
  linkKept = opened;
  try {
    sessionStorage.setItem(LINK_KEY, JSON.stringify(opened));
  } catch {
    // kept in memory only: enough unless the boot fails
  }
}

function keptLink() {
  let kept = linkKept;
  linkKept = null;
  try {
    kept ??= JSON.parse(sessionStorage.getItem(LINK_KEY) ?? "null");
    sessionStorage.removeItem(LINK_KEY);
  } catch {
    // nothing kept there
  }
  return kept;
}

/** A link opened once the page is up: the table screen, and the table the link opens. */
async function openLink(opened) {
  page.view = "table";
  save("view", "table");
  renderChrome();
  await views.table.open(opened);
}

/** A join link (?join=CODE), a viewer link (#table=ID&viewer=TOKEN) or a scorer link
 * (#table=ID&scorer=TOKEN), then forget it from the address bar: the token should not
 * linger in the history. */
function readLink() {
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  let opened = null;
  if (query.get("join")) opened = { join: query.get("join") };
  else if (fragment.get("table")) {
    for (const role of ["scorer", "viewer"]) {
      if (!opened && fragment.get(role)) {
        opened = { id: fragment.get("table"), token: fragment.get(role), role };
      }
    }
  }
  if (opened) history.replaceState(null, "", location.pathname);
  return opened;
}

boot();

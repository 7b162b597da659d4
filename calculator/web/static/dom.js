// Building the DOM without innerHTML: text is always text (names come from people), and
// no inline style or script is ever written, so the page's strict CSP holds.
import { t } from "./i18n.js";

/** An element: h("button", {type: "button", onclick: f, class: "x"}, "text", child…). */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const element = svg
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
    : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

const FOCUSABLE = "button, input, select, textarea, summary, [tabindex]";
const TAP_AFTER_RELEASE_MS = 500; // a tap's click comes within this of its release

/** What identifies a control across a redraw: its tag, data and label, or its text when
 * it has no data (a player's button keeps its data while its points change). */
function focusKey(element) {
  const data = JSON.stringify({ ...element.dataset });
  const named = element.getAttribute("aria-label") ?? element.labels?.[0]?.textContent ?? "";
  return [element.tagName, data, named, data === "{}" ? element.textContent.trim() : ""].join("|");
}

/** Enter in `input` presses `button` (a one-field form: a reason, a join code). */
export function submitOnEnter(input, button) {
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      button.click();
    }
  });
}

/**
 * Run `draw()`, which may replace the control that has the keyboard focus inside `root`;
 * the focus then goes to the same control drawn again (same tag, data, label, text), or
 * to `fallback()`, never to <body>.
 */
export function keepFocus(root, draw, fallback = null) {
  const active = document.activeElement;
  const key = active && active !== document.body && root.contains(active) ? focusKey(active) : null;
  draw();
  if (!key) return;
  const now = document.activeElement;
  if (now && now !== document.body && root.contains(now)) return;
  const same = [...root.querySelectorAll(FOCUSABLE)].find((e) => !e.disabled
    && e.offsetParent !== null && focusKey(e) === key);
  (same ?? fallback?.())?.focus();
}

/**
 * Whether the user moves the keyboard focus to another control from now on: the function
 * returned answers (and stops listening; call it once the answer came, or in a `finally`).
 * A result whose answer comes later takes the focus only if not: a control tapped while
 * the answer was on its way (End the night, say) keeps it. A tap on no control, a scroll
 * begun, a lone Shift, or a redraw that gave the same control the focus again (or the
 * focus to another without a tap or key) moves nothing.
 */
export function focusMoves() {
  const before = document.activeElement;
  const beforeKey = before && before !== document.body ? focusKey(before) : null;
  let acted = false;
  const note = () => { acted = true; };
  const listening = new AbortController();
  for (const type of ["pointerdown", "keydown"]) {
    document.addEventListener(type, note, { capture: true, signal: listening.signal });
  }
  return () => {
    listening.abort();
    const now = document.activeElement;
    return acted && now !== null && now !== document.body && now !== before
      && focusKey(now) !== beforeKey;
  };
}

/**
 * The controls matching `selector` in `root` as one tab stop (a roving tabindex, as in
 * WAI-ARIA's composite widgets): Tab enters and leaves them in one press, and the arrow
 * keys move between them — ← and → in reading order, ↑ and ↓ to the nearest control of
 * the row drawn above or below (whatever columns the layout gives), Home and End to the
 * first and last. The control focused last keeps the stop: `stop(control)` picks it after
 * a redraw (else the first), and `onstop(control)` is told each time it moves.
 */
export function roving(root, selector, { stop = () => false, onstop = () => {} } = {}) {
  const controls = () => [...root.querySelectorAll(selector)].filter((e) => !e.disabled);
  const choose = (chosen) => {
    for (const control of controls()) control.tabIndex = control === chosen ? 0 : -1;
    onstop(chosen);
  };
  const all = controls();
  if (all.length) choose(all.find(stop) ?? all[0]);
  root.addEventListener("focusin", (event) => {
    const control = event.target.closest(selector);
    if (control && root.contains(control)) choose(control);
  });
  root.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const control = event.target.closest(selector);
    if (!control || !root.contains(control)) return;
    const list = controls();
    const at = list.indexOf(control);
    const moves = {
      ArrowRight: () => list[at + 1],
      ArrowLeft: () => list[at - 1],
      ArrowDown: () => nearestInRow(list, control, 1),
      ArrowUp: () => nearestInRow(list, control, -1),
      Home: () => list[0],
      End: () => list.at(-1),
    };
    if (!(event.key in moves)) return;
    event.preventDefault(); // at an end too: the page does not scroll instead
    moves[event.key]()?.focus();
  });
}

/** The control of `list` in the row drawn next below (`direction` 1) or above (-1)
 * `control`, nearest to it across; none past the last row. */
function nearestInRow(list, control, direction) {
  const from = control.getBoundingClientRect();
  const beyond = list.map((e) => [e, e.getBoundingClientRect()]).filter(([, r]) => (direction > 0
    ? r.top >= from.bottom - 1 : r.bottom <= from.top + 1));
  if (!beyond.length) return null;
  // the next row: the controls within half a control's height of the nearest one's edge
  const edge = direction > 0 ? Math.min(...beyond.map(([, r]) => r.top))
    : Math.max(...beyond.map(([, r]) => r.bottom));
  const row = beyond.filter(([, r]) => Math.abs((direction > 0 ? r.top : r.bottom) - edge)
    < from.height / 2);
  const middle = (r) => r.left + r.width / 2;
  row.sort(([, a], [, b]) => Math.abs(middle(a) - middle(from)) - Math.abs(middle(b) - middle(from)));
  return row[0][0];
}

// A tap under way: from its press until its click has been dispatched, or, for a press
// that clicks nothing (a scroll), half a second after its release. Not its release alone:
// on a touch screen the release comes first, then the mouse events the tap makes (the
// field's blur among them, at its mousedown), then the click.
let down = false; // a pointer pressed now
let tapping = false;
let released = null;
document.addEventListener("pointerdown", () => {
  down = true;
  tapping = true;
  clearTimeout(released);
}, true);
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, () => {
    down = false;
    released = setTimeout(() => { tapping = false; }, TAP_AFTER_RELEASE_MS);
  }, true);
}
window.addEventListener("click", () => setTimeout(() => { tapping = false; }, 0), true);
window.addEventListener("blur", () => { down = false; tapping = false; }); // released elsewhere

/**
 * Run `draw` now, or — while a tap is under way — once that tap has been delivered. A
 * field's change is said when it loses the focus, which is when the next tap presses
 * down: a redraw it asks for then replaces the control under the finger, whose click is
 * lost (a player's pass: a name typed, then a tap on a player, and the player was not
 * chosen; the card taps that followed went to nobody). So the redraw waits for the
 * tap's click (its handlers run first, on the controls pressed), or, for a tap that
 * clicks nothing, half a second after its release.
 */
export function afterTap(draw) {
  if (!tapping) {
    draw();
    return;
  }
  let done = false;
  const listening = new AbortController();
  const run = () => {
    if (done) return;
    done = true;
    listening.abort();
    draw();
  };
  const later = (delay) => () => setTimeout(run, delay);
  window.addEventListener("click", later(0), { capture: true, signal: listening.signal });
  if (!down) {
    later(TAP_AFTER_RELEASE_MS)(); // released already (a touch screen's tap)
    return;
  }
  for (const type of ["pointerup", "pointercancel"]) {
    window.addEventListener(type, later(TAP_AFTER_RELEASE_MS),
      { capture: true, signal: listening.signal });
  }
}

/** Focus `heading` and bring it to the top of the screen, what follows it below: a
 * result's heading focused where it was drawn sat at the screen's bottom edge, the result
 * itself out of sight (a player's pass). */
export function focusAtTop(heading) {
  heading.focus({ preventScroll: true });
  heading.scrollIntoView({ block: "start" });
}

/** Replace an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

let uid = 0;
/** A unique id for label/input pairs. */
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** A problem with an input, said right after it (and tied to it for screen readers). */
export function fieldError(field, text) {
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

/** What fieldError said at `field`, taken back (the field was put right). */
export function clearFieldError(field) {
  const id = field.getAttribute("aria-describedby");
  if (id) document.getElementById(id)?.remove();
  field.removeAttribute("aria-describedby");
  field.removeAttribute("aria-invalid");
}

/**
 * A − value + stepper: real buttons (keyboard, ≥44 px), the value in a live output.
 * `pointer` ties it to the API's error pointers. `who`: the player it counts for, named
 * in each button's accessible name ("one Go more for A"): a screen reader lists the
 * buttons out of their fieldset, whose legend alone named the player. `typed`: the
 * value is also a numeric field (17 junk is typed, not tapped 17 times); a typed number
 * goes through the same clamp and `onchange` as a tap.
 */
export function stepper({ label, value, min = 0, max = 99, onchange, pointer, who = null,
  typed = false }) {
  const id = uniqueId("step");
  const named = (key) => (who == null ? t(key, { what: label })
    : t(`${key}For`, { what: label, who }));
  const groupName = who == null ? label : t("countOf", { what: label, who });
  // a tap is said by the live output; typed, the field shows it (and the output is
  // there for the taps alone, out of sight)
  const output = h("output", { id, "aria-live": "polite",
    class: typed ? "step-value visually-hidden" : "step-value" }, value);
  const fieldId = uniqueId("step-input");
  const field = typed ? h("input", { type: "number", inputmode: "numeric", min, max, step: 1,
    id: fieldId, class: "step-input", "aria-label": groupName, value: String(value),
    onfocus: (e) => e.target.select(),
    oninput: (e) => {
      const typedValue = e.target.valueAsNumber;
      if (Number.isFinite(typedValue)) set(Math.trunc(typedValue), { tapped: false });
    },
    // left empty (or not a number): the value it has stands
    onchange: (e) => { e.target.value = String(value); } }) : null;
  const set = (next, { tapped = true } = {}) => {
    const clamped = Math.max(min, Math.min(max, next));
    if (field && field.value !== String(clamped)) field.value = String(clamped);
    if (clamped === value) return;
    value = clamped;
    if (tapped || !field) output.textContent = value;
    limits();
    onchange(value);
  };
  const minus = h("button", {
    type: "button", class: "step", "aria-label": named("decrease"),
    "aria-controls": field ? fieldId : id, onclick: () => set(value - 1),
  }, "−");
  const plus = h("button", {
    type: "button", class: "step", "aria-label": named("increase"),
    "aria-controls": field ? fieldId : id, onclick: () => set(value + 1),
  }, "+");
  // At a limit a button is aria-disabled, not disabled: disabled, it dropped the focus to
  // the page, and handing the focus to the other button made a held Enter count back.
  // Tapped there, it does nothing (set() keeps the value within the limits).
  const limits = () => {
    minus.setAttribute("aria-disabled", String(value <= min));
    plus.setAttribute("aria-disabled", String(value >= max));
  };
  limits();
  return h("div", { class: typed ? "stepper typed" : "stepper", role: "group",
    "aria-label": groupName,
    dataset: pointer ? { pointer } : {} },
  h("span", { class: "step-label", "aria-hidden": "true" }, label), minus, field ?? output, plus,
  field ? output : null);
}

/** A labelled checkbox. */
export function checkbox({ label, checked, onchange, pointer }) {
  const id = uniqueId("check");
  return h("div", { class: "check", dataset: pointer ? { pointer } : {} },
    h("input", { type: "checkbox", id, checked, onchange: (e) => onchange(e.target.checked) }),
    h("label", { for: id }, label));
}

/** A labelled select of [value, text] pairs. */
export function select({ label, value, choices, onchange, pointer, hideLabel = false }) {
  const id = uniqueId("select");
  const element = h("select", { id, onchange: (e) => onchange(e.target.value) },
    choices.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
  return h("div", { class: "field", dataset: pointer ? { pointer } : {} },
    h("label", { for: id, class: hideLabel ? "visually-hidden" : null }, label), element);
}

/** Copy text: the clipboard API needs a secure context, a LAN page over http has not. */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // fall through to the old way
    }
  }
  const area = h("textarea", { class: "offscreen", readonly: true });
  area.value = text;
  const had = document.activeElement; // the Copy button: it keeps the focus after
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  had?.focus?.();
  return ok;
}

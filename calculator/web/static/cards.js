// The cards, drawn by the page: a month colour, the month number and a sign of the card's
// kind (a sun for a bright, a ribbon band, a bird-like mark for an animal, leaves for junk).
// No card art: the names come from GET /v1/cards.
import { h } from "./dom.js";
import { kindName, label } from "./i18n.js";

// One colour per month, dark enough for white text in both colour schemes.
const MONTH_COLOURS = ["#1f6f3f", "#8a2f52", "#a3346a", "#4b3f72", "#2d5e8c", "#9c2f2f",
  "#7a3b1f", "#4f5a2a", "#8a6b12", "#a1441b", "#3d4f63", "#30507a"];
const RIBBON = { hongdan: "#d7263d", cheongdan: "#1e5fd6", chodan: "#d7263d" };

function ribbonColour(card) {
  for (const tag of card.tags) if (RIBBON[tag]) return RIBBON[tag];
  return "#9aa3ad"; // the December ribbon is in no set
}

/** The SVG face of a card (decorative: the button around it carries the name). */
export function cardFace(card) {
  const colour = card.month ? MONTH_COLOURS[card.month - 1] : "#5b5b5b";
  const parts = [
    h("svg:rect", { x: 1, y: 1, width: 46, height: 62, rx: 5, fill: colour }),
    h("svg:text", { x: 5, y: 14, class: "face-month" }, card.month ?? "+"),
  ];
  if (card.kind === "bright") {
    parts.push(h("svg:circle", { cx: 24, cy: 36, r: 12, fill: "#f2c230" }),
      h("svg:text", { x: 24, y: 41, class: "face-sign", "text-anchor": "middle" }, "光"));
  } else if (card.kind === "ribbon") {
    parts.push(h("svg:rect", { x: 18, y: 18, width: 12, height: 38, fill: ribbonColour(card),
      stroke: "#fff", "stroke-width": 1 }));
  } else if (card.kind === "animal") {
    parts.push(h("svg:path", { d: "M12 40 Q24 22 36 40 Q24 34 12 40 Z", fill: "#fff" }),
      h("svg:circle", { cx: 24, cy: 46, r: 3, fill: "#fff" }));
  } else {
    const leaves = card.kind === "double_junk" ? 2 : 1;
    for (let i = 0; i < leaves; i += 1) {
      const x = leaves === 2 ? 17 + i * 14 : 24;
      parts.push(h("svg:path", { d: `M${x} 52 Q${x - 7} 38 ${x} 24 Q${x + 7} 38 ${x} 52 Z`,
        fill: "none", stroke: "#fff", "stroke-width": 2 }));
    }
  }
  if (card.switchable) {
    parts.push(h("svg:circle", { cx: 40, cy: 10, r: 4, fill: "#fff" }));
  }
  return h("svg:svg", { viewBox: "0 0 48 64", class: "face", "aria-hidden": "true",
    focusable: "false" }, parts);
}

/** The card's full name in the page's language. */
export function cardName(card) {
  return label(card.name);
}

/** The short word under a card: its kind. */
export function cardWord(card) {
  return kindName(card.kind);
}

// A hand's answer, for people: each player's points item by item with the cards behind
// them, the winner's amount and every payment step by step (the API's labels), and the
// chips each player wins or loses. Nothing is computed here: every number is the API's.
import { ApiError } from "./api.js";
import { fill, h, uniqueId } from "./dom.js";
import { codeLabel, label, num, presetText, signed, t } from "./i18n.js";

/** One step in words: the API's ready sentence when it gives one (`text`), else its
 * label with the numbers, "bright penalty ×2 = 8". */
export function stepText(step) {
  if (step.text) return label(step.text);
  const times = step.times && step.times > 1 ? ` ${t("times", { n: step.times })}` : "";
  const name = label(step.label) + (step.player ? ` (${step.player})` : "");
  if (step.op === "start") return `${name} ${num(step.amount)}`;
  if (step.op === "add") return `${name} +${num(step.addend)}${times} = ${num(step.total)}`;
  return `${name} ×${num(step.factor)}${times} = ${num(step.total)}`;
}

function stepsLine(steps, extra = [], first = []) {
  return h("ol", { class: "steps" },
    [...first, ...steps.map(stepText), ...extra].map((s) => h("li", {}, s)));
}

/** A loser's steps run from the winner's amount (the API says it once, in winner_score):
 * the line it starts from, unless the payment has its own start (a side payment). */
function fromWinner(payment, score) {
  if (!score || payment.steps?.[0]?.op === "start" || payment.reason !== "stop") return [];
  return [`${t("winnerAmount", { id: score.winner })} ${num(score.amount)}`];
}

function netList(net, cls = "net") {
  return h("ul", { class: cls }, Object.entries(net).map(([id, chips]) => h("li", {
    class: chips > 0 ? "plus" : chips < 0 ? "minus" : "zero", dataset: { net: id } },
  h("span", { class: "who" }, id), h("span", { class: "chips" }, signed(chips)))));
}

/**
 * The whole result. `names` maps card ids to their names; `compare` (optional) is
 * {presets, run(preset)}: the "what if" control.
 */
export function renderResult(result, { names, compare, heading } = {}) {
  const headingId = uniqueId("result");
  // `heading` {level, title}: a stored hand's details in the history name their hand
  const level = heading?.level ?? 2;
  const title = heading ? `${heading.title} · ${t("result")}` : t("result");
  const section = h("section", { class: "result", "aria-labelledby": headingId },
    h(`h${level}`, { id: headingId, tabindex: "-1" }, title));
  if ("target" in result) return balanceResult(section, result, names);
  if (result.outcome) {
    section.append(h("p", { class: "outcome-line" }, outcomeText(result.outcome)));
  }
  section.append(h("h3", {}, t("items")), h("div", { class: "scores" },
    result.players.map((player) => h("article", { class: "score", dataset: { player: player.id } },
      h("h4", {}, player.id, " · ", h("span", { class: "points" },
        t("pointsShort", { n: num(player.points) }))),
      player.items.length
        ? h("ul", {}, player.items.map((item) => h("li", {},
          h("strong", {}, `${label(item.label)} ${t("pointsShort", { n: num(item.points) })}`),
          item.cards?.length ? h("span", { class: "item-cards" }, ` — ${t("cardsOf",
            { cards: item.cards.map((id) => names?.get(id) ?? id).join(", ") })}`) : null)))
        : h("p", { class: "hint" }, satOut(player))))));
  const score = result.winner_score;
  if (score) {
    // a 총통 priced in chips (chongtong_chips): the winner's part counts chips
    const inChips = result.payments.some((p) => p.reason === "chongtong" && p.priced_in === "chips");
    const lines = [`${t(inChips ? "baseChips" : "base")} ${num(score.base)}`,
      ...score.steps.map(stepText)];
    section.append(h("h3", {}, t("winnerAmount", { id: score.winner })),
      h("ol", { class: "steps winner-steps" }, lines.map((s) => h("li", {}, s))));
  }
  section.append(h("h3", {}, t("payments")));
  if (result.payments.length) {
    section.append(h("ul", { class: "payments" }, result.payments.map((payment) => {
      const inChips = payment.priced_in === "chips";
      const last = inChips ? t("pricedInChips")
        : `${t("pointsTimesStake", { points: num(payment.points), stake: num(result.stake) })}`
          + ` = ${t("chipsOf", { n: num(payment.chips) })}`;
      return h("li", { class: "payment" },
        h("p", {}, h("strong", {}, t("pays", { from: payment.from, to: payment.to })), " · ",
          codeLabel("reason", payment.reason), " · ", h("span", { class: "chips" },
            t("chipsOf", { n: num(payment.chips) }))),
        // no steps: the loser pays the winner's amount as it is
        stepsLine(payment.steps ?? [], [last], fromWinner(payment, score)));
    })));
  } else {
    section.append(h("p", { class: "hint" }, t("noPayments")));
  }
  section.append(h("h3", {}, t("net")), netList(result.net));
  if (compare) section.append(whatIf(result, compare));
  return section;
}

/** A balance-variant answer (POST /v1/balance/hands): each player's card points by kind,
 * the set bonuses it received and gave, its total against the break-even, its chips; the
 * fewest transfers. A hand with cards missing is void: it says which and moves nothing. */
function balanceResult(section, result, names) {
  const cards = (ids) => ids.map((id) => names?.get(id) ?? id).join(", ");
  section.append(result.void
    ? h("p", { class: "outcome-line" }, t("balanceVoid", { n: result.missing_cards.length }),
      " ", h("span", { class: "item-cards" }, cards(result.missing_cards)))
    : h("p", { class: "outcome-line" }, t("balanceTarget", { n: num(result.target) })));
  section.append(h("h3", {}, t("items")), h("div", { class: "scores" },
    result.players.map((player) => h("article", { class: "score", dataset: { player: player.id } },
      h("h4", {}, player.id, " · ", h("span", { class: "points" },
        t("pointsShort", { n: num(player.total) }))),
      h("ul", {},
        player.items.map((item) => h("li", {},
          h("strong", {}, `${label(item.label)} ${num(item.count)} · ${t("pointsShort",
            { n: num(item.points) })}`),
          item.cards.length ? h("span", { class: "item-cards" },
            ` — ${t("cardsOf", { cards: cards(item.cards) })}`) : null)),
        player.set_bonuses.received.map((bonus) => h("li", {}, t("bonusFrom",
          { set: label(bonus.label), id: bonus.from, n: num(bonus.points) }))),
        player.set_bonuses.given.map((bonus) => h("li", {}, t("bonusTo",
          { set: label(bonus.label), id: bonus.to, n: num(bonus.points) })))),
      h("ol", { class: "steps" },
        h("li", {}, t("balanceTotal", { cards: num(player.card_points), n: num(player.total) })),
        player.balance === null ? null : h("li", {}, t("balanceLine",
          { total: num(player.total), target: num(result.target), n: signed(player.balance) })),
        player.balance === null ? null : h("li", {}, `${t("pointsTimesStake",
          { points: signed(player.balance), stake: num(result.stake) })} = ${t("chipsOf",
          { n: signed(player.chips) })}`))))));
  section.append(h("h3", {}, t("payments")), result.transfers.length
    ? h("ul", { class: "payments" }, result.transfers.map((x) => h("li", { class: "payment" },
      h("p", {}, h("strong", {}, t("pays", { from: x.from, to: x.to })), " · ",
        h("span", { class: "chips" }, t("chipsOf", { n: num(x.chips) }))))))
    : h("p", { class: "hint" }, t("noPayments")));
  section.append(h("h3", {}, t("net")), netList(result.net));
  return section;
}

/** A player with no points: it sat out (and sold what it sold, if anything), or it
 * scored nothing. */
export function satOut(player) {
  if (!player.sits_out) return t("noItems");
  return player.sold ? t("satOutSold", { n: num(player.sold) }) : t("satOut");
}

function outcomeText(outcome) {
  if (outcome.type === "nagari") return t("nagari");
  const key = { stop: "stopBy", chongtong: "chongtongBy", three_ppuk: "threePpukBy" }[outcome.type];
  return key ? t(key, { id: outcome.winner }) : outcome.type;
}

/** "What if?": the hand under another preset. The last comparison is kept in `compare`
 * (its `last`), so a redraw (a language switch) shows it again. */
function whatIf(result, compare) {
  const { presets, current, run } = compare;
  const others = presets.filter((p) => p.name !== current);
  const id = uniqueId("whatif");
  const picker = h("select", { id }, others.map((p) => h("option", { value: p.name,
    selected: p.name === compare.last?.preset }, `${p.name} — ${presetText(p).title}`)));
  const out = h("div", { class: "compared", "aria-live": "polite" });
  const go = async () => {
    let answer;
    const preset = picker.value;
    try {
      answer = await run(preset);
    } catch (error) {
      compare.last = null;
      fill(out, h("p", { class: "inline-error" }, error instanceof ApiError
        ? error.entries.map((e) => e.detail).join("; ") : t("noAnswer")));
      return;
    }
    const comparison = answer?.comparisons?.[0];
    if (!comparison) return;
    compare.last = { preset, comparison };
    show(preset, comparison);
  };
  const show = (preset, comparison) => {
    if (comparison.net) {
      fill(out, h("p", {}, t("underPreset", { preset })),
        h("table", { class: "compare-table" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("players")),
            h("th", { scope: "col" }, t("net")), h("th", { scope: "col" }, t("difference")))),
          h("tbody", {}, Object.keys(result.net).map((player) => h("tr", {
            dataset: { compare: player } },
          h("th", { scope: "row" }, player),
          h("td", {}, signed(comparison.net[player])),
          h("td", {}, signed(comparison.difference[player])))))));
    } else {
      const problem = comparison.problem;
      fill(out, h("p", { class: "inline-error" },
        problem?.errors?.map((e) => e.detail).join("; ") || problem?.title || ""));
    }
  };
  if (compare.last) show(compare.last.preset, compare.last.comparison);
  return h("section", { class: "what-if" }, h("h3", {}, t("whatIf")),
    h("div", { class: "inline" }, h("label", { for: id, class: "visually-hidden" }, t("whatIf")),
      picker, h("button", { type: "button", onclick: go }, t("compare"))), out);
}

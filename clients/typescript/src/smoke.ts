/**
 * A smoke run of the client generated from api_spec/openapi.json against a live server.
 *
 *     node build/src/smoke.js http://127.0.0.1:8000      (or GOSTOP_BASE_URL=…)
 *
 * It scores a hand in each entry mode, a batch, a balance hand and a settlement, and
 * reads a 422 through the typed error branch. Every request body is typed by the
 * document's request schemas and every field read is typed by its response schemas, so
 * `tsc --strict` proves the two fit; the checks below prove the answers are right (the
 * expected amounts are the worked examples of docs/rules.md §10). Exits 1 on any failure.
 */

import createClient from "openapi-fetch";

import type { components, paths } from "../generated/api.js";

type Schemas = components["schemas"];
type Net = { [player: string]: number };

const baseUrl = process.argv[2] ?? process.env["GOSTOP_BASE_URL"];
if (!baseUrl) {
    console.error("usage: node build/src/smoke.js BASE_URL (or set GOSTOP_BASE_URL)");
    process.exit(2);
}
const client = createClient<paths>({ baseUrl });

const failures: string[] = [];
const summary: string[] = [];

/** Record a failure (the run goes on, so one run lists every difference). */
function expect(scenario: string, what: string, ok: boolean, got?: unknown): void {
    if (!ok) {
        failures.push(
            `${scenario}: ${what}${got === undefined ? "" : ` (got ${JSON.stringify(got)})`}`,
        );
    }
}

/** What a net map adds up to: zero when nobody's chips appear or vanish. */
function sum(net: Net): number {
    return Object.values(net).reduce((total, chips) => total + chips, 0);
}

/** Equal maps: the same players, the same amounts. */
function sameNet(got: Net, want: Net): boolean {
    const keys = Object.keys(want);
    return Object.keys(got).length === keys.length && keys.every((key) => got[key] === want[key]);
}

/** Fail loudly when a call that should succeed did not: the problem says why. */
function unwrap<T>(scenario: string, data: T | undefined, error: unknown, response: Response): T {
    if (data === undefined) {
        throw new Error(`${scenario}: HTTP ${response.status} ${JSON.stringify(error)}`);
    }
    return data;
}

// docs/rules.md W13: A stops with three brights; B holds the rain man, C pays 광박 ×2.
const w13: Schemas["HandRequest"] = {
    ruleset: "standard",
    stake: 100,
    players: [
        { id: "A", captured: ["01-bright", "03-bright", "08-bright", "02-junk-1", "04-junk-1"] },
        { id: "B", captured: ["12-bright", "06-junk-1", "07-junk-1"] },
        { id: "C", captured: ["05-junk-1", "09-junk-1"] },
    ],
    outcome: { type: "stop", winner: "A" },
};
const w13Net: Net = { A: 900, B: -300, C: -600 };

// docs/rules.md W33: three players, target 80, stake 10 → balances +20, −15, −5.
const w33: Schemas["BalanceRequest"] = {
    ruleset: "balance", // a Go-Stop preset here would not compile (issue #11 item 2)
    stake: 10,
    players: [
        {
            id: "A",
            captured: [
                ...["01-bright", "01-ribbon", "01-junk-1", "01-junk-2"],
                ...["02-animal", "02-ribbon", "02-junk-1", "02-junk-2"],
                ...["03-bright", "03-ribbon", "03-junk-1", "03-junk-2"],
                ...["10-animal", "10-ribbon", "10-junk-1", "10-junk-2"],
            ] as const,
        },
        {
            id: "B",
            captured: [
                ...["11-bright", "11-double-junk", "11-junk-1", "11-junk-2"],
                ...["04-animal", "04-ribbon", "04-junk-1", "04-junk-2"],
                ...["08-bright", "08-animal", "08-junk-1", "08-junk-2"],
                ...["06-ribbon", "09-ribbon"],
            ] as const,
        },
        {
            id: "C",
            captured: [
                ...["05-animal", "05-ribbon", "05-junk-1", "05-junk-2"],
                ...["07-animal", "07-ribbon", "07-junk-1", "07-junk-2"],
                ...["12-bright", "12-animal", "12-ribbon", "12-double-junk"],
                ...["06-animal", "06-junk-1", "06-junk-2", "09-animal", "09-junk-1", "09-junk-2"],
            ] as const,
        },
    ],
};
const w33Net: Net = { A: 200, B: -150, C: -50 };

/** One hand in each entry mode; every player's counts say which it used (a declared pile
 * has none). */
async function entryModes(): Promise<void> {
    const cases: { mode: string; body: Schemas["HandRequest"]; net: Net }[] = [
        { mode: "captured", body: w13, net: w13Net },
        {
            // docs/rules.md W27: matgo with counts, 3 go, a shake, 광박 and 피박 → 192.
            mode: "tally",
            body: {
                players: [
                    {
                        id: "winner",
                        tally: { brights: 3, ribbons: 5, hongdan: true, junk_value: 11 },
                        go_count: 3,
                        shakes: 1,
                    },
                    { id: "loser", tally: { animals: 2, junk_value: 5 } },
                ],
                outcome: { type: "stop", winner: "winner" },
                compare_with: ["wikipedia"],
            },
            net: { winner: 192, loser: -192 },
        },
        {
            // docs/rules.md W30: four players, one sells a bright; 고박 and 첫뻑.
            mode: "declared",
            body: {
                ruleset: {
                    preset: "standard",
                    options: { gwangpal_price: 2, first_ppuk_points: 1 },
                },
                stake: 100,
                players: [
                    { id: "seller", sits_out: true, sold_brights: 1 },
                    { id: "winner", declared: { points: 7, scored: ["ribbons"] } },
                    { id: "gobak", declared: {}, go_count: 1 },
                    { id: "loser", declared: {} },
                ],
                outcome: { type: "stop", winner: "winner" },
                events: [{ type: "first_ppuk", player: "winner" }],
            },
            net: { seller: 600, winner: 1400, gobak: -1700, loser: -300 },
        },
    ];
    for (const { mode, body, net } of cases) {
        const scenario = `hand (${mode})`;
        const { data, error, response } = await client.POST("/v1/gostop/hands", { body });
        const result = unwrap(scenario, data, error, response);
        expect(scenario, `net ${JSON.stringify(net)}`, sameNet(result.net, net), result.net);
        expect(scenario, "net sums to zero", sum(result.net) === 0, result.net);
        const counted = result.players
            .filter((player) => !player.sits_out)
            .map((player) => player.counts !== null);
        expect(
            scenario,
            `every active player's counts as ${mode} mode gives them`,
            counted.every((c) => c === (mode !== "declared")),
            counted,
        );
        expect(
            scenario,
            "the winner is paid",
            result.winner_score?.winner === body.outcome?.winner,
        );
        for (const payment of result.payments) {
            // Each payment explains itself: its steps run from the winner's amount to the
            // amount paid (no steps: the loser owes the winner's amount as it is).
            const steps = payment.steps ?? [];
            const last = steps[steps.length - 1];
            expect(
                scenario,
                `${payment.from}→${payment.to} explained`,
                (last?.total ?? result.winner_score?.amount) === payment.points,
                last,
            );
        }
        expect(
            scenario,
            "one comparison per compare_with",
            (result.comparisons?.length ?? 0) === (body.compare_with?.length ?? 0),
            result.comparisons,
        );
        summary.push(`${scenario}: net ${JSON.stringify(result.net)}`);
    }
}

/** A batch: one good hand, one with an unknown winner that gets its own problem. */
async function batch(): Promise<void> {
    const scenario = "batch";
    // BatchRequest.hands items are `HandRequest | unknown` (an anyOf with an open branch),
    // i.e. `unknown`: nothing checks a batch's hands, so both are typed here by name.
    const bad: Schemas["HandRequest"] = { ...w13, outcome: { type: "stop", winner: "Z" } };
    const { data, error, response } = await client.POST("/v1/gostop/hands/batch", {
        body: { hands: [w13, bad] },
    });
    const result = unwrap(scenario, data, error, response);
    expect(
        scenario,
        "1 succeeded, 1 failed",
        result.succeeded === 1 && result.failed === 1,
        result,
    );
    const [first, second] = result.results;
    expect(scenario, "hand 0 is 200", first?.status === 200 && first.index === 0, first?.status);
    expect(
        scenario,
        "hand 0 has W13's net",
        first?.result !== undefined && sameNet(first.result.net, w13Net),
    );
    const pointers = second?.problem?.errors?.map((entry) => entry.pointer) ?? [];
    expect(
        scenario,
        "hand 1 is 422",
        second?.status === 422 && second.problem?.status === 422,
        second,
    );
    expect(
        scenario,
        "hand 1 names its winner",
        pointers.includes("/hands/1/outcome/winner"),
        pointers,
    );
    summary.push(
        `${scenario}: ${result.succeeded} succeeded, ${result.failed} failed (${pointers.join(", ")})`,
    );
}

/** A 120/80/60 balance hand (W33). */
async function balance(): Promise<void> {
    const scenario = "balance hand";
    const { data, error, response } = await client.POST("/v1/balance/hands", { body: w33 });
    const result = unwrap(scenario, data, error, response);
    const balances = Object.fromEntries(
        result.players.map((player) => [player.id, player.balance]),
    );
    expect(scenario, "target 80", result.target === 80, result.target);
    expect(
        scenario,
        "not void",
        !result.void && result.missing_cards.length === 0,
        result.missing_cards,
    );
    expect(
        scenario,
        "balances +20, −15, −5",
        balances["A"] === 20 && balances["B"] === -15 && balances["C"] === -5,
        balances,
    );
    expect(scenario, `net ${JSON.stringify(w33Net)}`, sameNet(result.net, w33Net), result.net);
    expect(scenario, "net sums to zero", sum(result.net) === 0, result.net);
    summary.push(`${scenario}: net ${JSON.stringify(result.net)}`);
}

/** A session of a Go-Stop hand, a balance hand and a net map, rounded to 100. */
async function settlement(): Promise<void> {
    const scenario = "settlement";
    const extra: Net = { A: -50, B: 20, C: 30 };
    const { data, error, response } = await client.POST("/v1/settlements", {
        body: {
            players: ["A", "B", "C"],
            // SessionHand.net has no schema in the document, so its type is `unknown`
            // and any value would compile here; `extra` is typed by this script instead.
            hands: [{ gostop: w13 }, { balance: w33 }, { net: extra }],
            rounding: { unit: 100 },
        },
    });
    const result = unwrap(scenario, data, error, response);
    // Scored on the fly, each hand moves what its own endpoint moved above.
    const raw: Net = Object.fromEntries(
        ["A", "B", "C"].map((id) => [id, (w13Net[id] ?? 0) + (w33Net[id] ?? 0) + (extra[id] ?? 0)]),
    );
    expect(
        scenario,
        "hand nets as scored alone",
        sameNet(result.hands[0]?.net ?? {}, w13Net) && sameNet(result.hands[1]?.net ?? {}, w33Net),
        result.hands,
    );
    expect(
        scenario,
        `raw totals ${JSON.stringify(raw)}`,
        result.rounding !== null && sameNet(result.rounding.raw, raw),
        result.rounding,
    );
    // By largest remainders: down to 1000, −500, −700 (remainders 50, 70, 80), the two
    // units left over to C and B: B −430 → −400, C −620 → −600.
    expect(
        scenario,
        "rounded totals",
        sameNet(result.totals, { A: 1000, B: -400, C: -600 }),
        result.totals,
    );
    expect(
        scenario,
        "by largest remainders",
        result.rounding?.method === "largest_remainder" && result.rounding.absorbed_by === undefined,
        result.rounding,
    );
    expect(scenario, "totals sum to zero", sum(result.totals) === 0, result.totals);
    // The transfers settle the totals exactly, in at most players − 1 payments.
    const left: Net = { ...result.totals };
    for (const transfer of result.transfers) {
        left[transfer.from] = (left[transfer.from] ?? 0) + transfer.chips;
        left[transfer.to] = (left[transfer.to] ?? 0) - transfer.chips;
    }
    expect(
        scenario,
        "transfers settle every total",
        Object.values(left).every((chips) => chips === 0),
        left,
    );
    expect(scenario, "at most 2 transfers", result.transfers.length <= 2, result.transfers);
    summary.push(
        `${scenario}: totals ${JSON.stringify(result.totals)}, ${result.transfers.length} transfers`,
    );
}

/** A card held twice: a 422 problem read through the typed error branch. */
async function problem(): Promise<void> {
    const scenario = "422";
    const body: Schemas["HandRequest"] = {
        ...w13,
        players: [
            ...w13.players.slice(0, 2),
            { id: "C", captured: ["05-junk-1", "09-junk-1", "03-bright"] },
        ],
    };
    const { data, error, response } = await client.POST("/v1/gostop/hands", { body });
    expect(scenario, "no data", data === undefined);
    expect(scenario, "HTTP 422", response.status === 422, response.status);
    expect(
        scenario,
        "application/problem+json",
        response.headers.get("content-type")?.startsWith("application/problem+json") === true,
        response.headers.get("content-type"),
    );
    if (error === undefined) {
        failures.push(`${scenario}: no problem in the error branch`);
        return;
    }
    // `error` is typed by the operation's 4xx responses: the Problem schema.
    const entry = error.errors?.find((found) => found.code === "duplicate_card");
    expect(scenario, "problem status 422", error.status === 422, error.status);
    expect(
        scenario,
        "duplicate_card at /players/2/captured/2",
        entry?.pointer === "/players/2/captured/2",
        error.errors,
    );
    expect(
        scenario,
        "the detail names both holders",
        entry?.detail.includes("/players/0/captured/1") === true,
        entry?.detail,
    );
    summary.push(`${scenario}: ${entry?.code} at ${entry?.pointer}`);
}

/** The card catalogue under a rule set (a GET with a query parameter). */
async function cards(): Promise<void> {
    const scenario = "cards";
    const { data, error, response } = await client.GET("/v1/cards", {
        params: { query: { ruleset: "standard" } },
    });
    const result = unwrap(scenario, data, error, response);
    expect(scenario, "48 cards and 4 bonus cards", result.cards.length === 52, result.cards.length);
    expect(scenario, "under standard", result.ruleset?.preset === "standard", result.ruleset);
    summary.push(`${scenario}: ${result.cards.length} cards under ${result.ruleset?.preset}`);
}

for (const scenario of [entryModes, batch, balance, settlement, problem, cards]) {
    try {
        await scenario();
    } catch (exc) {
        failures.push(exc instanceof Error ? exc.message : String(exc));
    }
}
console.log(summary.join("\n"));
if (failures.length > 0) {
    console.error(`FAILED (${failures.length}):\n${failures.join("\n")}`);
    process.exit(1);
}
console.log(`ok: ${summary.length} scenarios passed against ${baseUrl}`);

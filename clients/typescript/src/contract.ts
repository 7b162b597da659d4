/**
 * Bodies the generated types must refuse: each line below fails to compile, and tsc fails
 * the build if one ever compiles (an unused `@ts-expect-error`). This proves the types have
 * teeth — a document whose schemas degraded to `unknown` or lost an enum would let them by.
 * Compiled with the smoke script, never run.
 */

import type { components } from "../generated/api.js";

type Schemas = components["schemas"];

export const refused: unknown[] = [
    // @ts-expect-error: "13-bright" is not a card ID (the catalogue's enum).
    { id: "A", captured: ["13-bright"] } satisfies Schemas["Player"],
    // @ts-expect-error: a stake is an integer, not a string.
    { players: [], stake: "100" } satisfies Schemas["HandRequest"],
    // @ts-expect-error: "win" is not an outcome type.
    { type: "win", winner: "A" } satisfies Schemas["Outcome"],
    // @ts-expect-error: `players` is required.
    { outcome: { type: "nagari" } } satisfies Schemas["HandRequest"],
    // @ts-expect-error: go_formula is one of the listed formulas.
    { preset: "standard", options: { go_formula: "linear" } } satisfies Schemas["RulesetObject"],
];

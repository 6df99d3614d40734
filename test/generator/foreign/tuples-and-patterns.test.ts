/**
 * Plain JSON Schema 2020-12 that ajv's strict mode refused, so `gen` of a
 * document written elsewhere exited 2 with error[unsupported-schema]: a
 * `prefixItems` tuple without `minItems`/`maxItems` (its tail optional, or
 * open through `items`) and a property that also matches a
 * `patternProperties` pattern. Each now generates, and its emitted
 * validator judges data as a non-strict live ajv 2020 does (the spec's
 * meaning: both keywords apply).
 */
import path from "node:path";
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, expect, test } from "vitest";
import { emittedValidator, genAll, writeTree } from "../support.js";

const SCHEMAS = {
  Pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false },
  Closed: {
    type: "array",
    prefixItems: [{ type: "string" }, { type: ["integer", "null"] }],
    items: false,
    minItems: 1,
  },
  Head: { type: "array", prefixItems: [{ type: "string" }], items: { type: "boolean" } },
  Extensible: {
    type: "object",
    properties: { "x-id": { type: "string", minLength: 2 } },
    patternProperties: { "^x-": { type: "string" } },
    additionalProperties: false,
  },
} as const;

const DATA: Record<keyof typeof SCHEMAS, unknown[]> = {
  Pair: [["a", 1], ["a"], [], [1, "a"], ["a", 1, "extra"], ["a", 1.5]],
  Closed: [["a"], ["a", null], ["a", 2], [], ["a", 2, 3], [1]],
  Head: [["a"], ["a", true, false], ["a", 1], [2], []],
  Extensible: [
    { "x-id": "ab" },
    { "x-id": "a" },
    { "x-id": 3 },
    { "x-other": "v" },
    { "x-other": 1 },
    { other: "v" },
    {},
  ],
};

let out = "";
let stderr = "";
let code: number | undefined;

beforeAll(async () => {
  const schema = `openapi: 3.1.0\ninfo: { title: Tuples, version: "1" }\npaths: {}\ncomponents:\n  schemas: ${JSON.stringify(SCHEMAS)}\n`;
  const run = await genAll(path.join(writeTree({ "tuples.yaml": schema }), "tuples.yaml"));
  ({ out, stderr, code } = run);
}, 60_000);

test("gen exits 0, with no error or warning", () => {
  expect(stderr).not.toMatch(/^(error|warning)/m);
  expect(code).toBe(0);
});

test.each(Object.keys(SCHEMAS) as (keyof typeof SCHEMAS)[])(
  "validate%s agrees with live ajv (non-strict) on every sample",
  async (name) => {
    const emitted = await emittedValidator(out, name);
    const live = new Ajv2020({ strict: false }).compile(SCHEMAS[name]);
    const verdicts = DATA[name].map((data) => [JSON.stringify(data), emitted(data)]);
    expect(verdicts).toEqual(DATA[name].map((data) => [JSON.stringify(data), live(data)]));
    // Both verdicts occur: the samples tell a validator that accepts everything from a right one.
    expect(new Set(verdicts.map(([, valid]) => valid))).toEqual(new Set([true, false]));
  },
);

test("a tuple's type makes its items past minItems optional (items: false), an open one is an array", () => {
  const types = readFileSync(path.join(out, "types.ts"), "utf8");
  expect(types).toContain("export type Pair = [string?, number?];");
  expect(types).toContain("export type Closed = [string, (number | null)?];");
  expect(types).toContain("export type Head = (string | boolean)[];");
});

/**
 * The mock's example-value generator (generator/mock/example-value.ts): for
 * random JSON Schemas built from the keywords it covers, and for every tool
 * `parameters` schema in the fixture suite, the value it makes validates
 * (ajv 2020, formats checked), and the same schema always gives the same value.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleValue } from "../../generator/mock/example-value.js";

const ajv = new Ajv2020({ strict: false, allErrors: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const accepts = (schema: unknown, value: unknown): boolean => ajv.validate(schema as object, value) as boolean;

const FORMATS = ["date-time", "date", "time", "email", "hostname", "ipv4", "ipv6", "uri", "uuid", "duration"];

/** Satisfiable schemas over the covered keywords (depth-bounded). */
const innerArb: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ schema: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 3, depthIdentifier: "schema" },
    fc.record({ type: fc.constant("string"), minLength: fc.nat(5), maxLength: fc.integer({ min: 6, max: 20 }) }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constant("string"), format: fc.constantFrom(...FORMATS) }),
    fc.record({ type: fc.constantFrom("number", "integer"), minimum: fc.integer({ min: -50, max: 50 }), multipleOf: fc.constantFrom(1, 2, 5, 10) }, { requiredKeys: ["type"] }).chain((s) =>
      fc.integer({ min: 0, max: 100 }).map((span) => ({ ...s, ...(typeof s.minimum === "number" ? { maximum: (s.minimum as number) + span + 10 } : {}) })),
    ),
    fc.record({ type: fc.constant("number"), exclusiveMinimum: fc.integer({ min: -5, max: 5 }), exclusiveMaximum: fc.integer({ min: 6, max: 9 }) }),
    fc.record({ type: fc.constant("integer"), exclusiveMinimum: fc.integer({ min: -5, max: 5 }), maximum: fc.integer({ min: 7, max: 9 }) }),
    fc.record({ type: fc.constant("boolean") }),
    fc.record({ type: fc.constant(["string", "null"]) }),
    fc.record({ enum: fc.uniqueArray(fc.oneof(fc.string(), fc.integer()), { minLength: 1, maxLength: 4 }) }),
    fc.record({ const: fc.jsonValue({ maxDepth: 2 }) }),
    fc.record({ type: fc.constant("array"), items: tie("schema"), minItems: fc.nat(3) }, { requiredKeys: ["type", "items"] }),
    fc.record({ type: fc.constant("array"), items: fc.constant({ type: "integer" }), minItems: fc.integer({ min: 1, max: 4 }), uniqueItems: fc.constant(true) }),
    fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie("schema"), { maxKeys: 4 }).chain((properties) =>
      fc.subarray(Object.keys(properties)).chain((required) =>
        fc.record({ additionalProperties: fc.boolean() }).map((r) => ({ type: "object", properties, required, ...r })),
      ),
    ),
    fc.tuple(tie("schema"), tie("schema")).map(([a, b]) => ({ anyOf: [a, b] })),
    fc.tuple(
      fc.dictionary(fc.stringMatching(/^[a-m]{1,4}$/), fc.constant({ type: "string" }), { maxKeys: 2 }),
      fc.dictionary(fc.stringMatching(/^[n-z]{1,4}$/), fc.constant({ type: "integer", minimum: 3 }), { maxKeys: 2 }),
    ).map(([a, b]) => ({ allOf: [{ type: "object", properties: a, required: Object.keys(a) }, { type: "object", properties: b, required: Object.keys(b) }] })),
  ),
})).schema;

/** The same, sometimes reached through a `$ref` into the root's `$defs`. */
const schemaArb = fc.oneof(innerArb, innerArb.map((inner) => ({ $defs: { inner }, type: "object", properties: { x: { $ref: "#/$defs/inner" } }, required: ["x"] })));

describe("exampleValue", () => {
  it("makes a value every generated schema accepts, the same each time", () => {
    fc.assert(
      fc.property(schemaArb, (schema) => {
        const value = exampleValue(schema, { accepts });
        expect(accepts(schema, value), `${JSON.stringify(schema)} -> ${JSON.stringify(value)}`).toBe(true);
        expect(exampleValue(schema, { accepts })).toEqual(value);
      }),
      { numRuns: 400, seed: 12 },
    );
  });

  it("also without a validator (enum/const/types/bounds are met by construction)", () => {
    fc.assert(
      fc.property(schemaArb, (schema) => {
        expect(accepts(schema, exampleValue(schema)), JSON.stringify(schema)).toBe(true);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it("fits every tool `parameters` schema in the fixture suite's valid ToolRef and request cases", () => {
    const corpus: unknown[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (typeof v !== "object" || v === null) return;
      const o = v as Record<string, unknown>;
      if ((o["kind"] === "local" || o["kind"] === "mcp_local") && typeof o["parameters"] === "object") corpus.push(o["parameters"]);
      if (Array.isArray(o["tools"])) for (const t of o["tools"] as Array<Record<string, unknown>>) if (typeof t?.["inputSchema"] === "object") corpus.push(t["inputSchema"]);
      Object.values(o).forEach(walk);
    };
    for (const file of ["ToolRef", "RunCreateRequest", "LocalToolRef"]) {
      const cases = JSON.parse(readFileSync(new URL(`../../generated/fixtures/messages/${file}.json`, import.meta.url), "utf8")) as Array<{ tests: Array<{ valid: boolean; data: unknown }> }>;
      for (const group of cases) for (const t of group.tests) if (t.valid) walk(t.data);
    }
    expect(corpus.length).toBeGreaterThan(3);
    for (const schema of corpus) {
      if (!ajv.validateSchema(schema as object)) continue; // a case may carry a deliberately odd schema; only real ones count
      expect(accepts(schema, exampleValue(schema, { accepts })), JSON.stringify(schema)).toBe(true);
    }
  });

  it("follows the keywords: required first, enums, formats, bounds", () => {
    const schema = {
      type: "object",
      properties: { amount: { type: "number", minimum: 10, maximum: 20 }, currency: { type: "string", enum: ["USD", "EUR"] }, at: { type: "string", format: "date-time" }, n: { type: "integer", exclusiveMinimum: 4 } },
      required: ["amount", "currency"],
      additionalProperties: false,
    };
    expect(exampleValue(schema)).toEqual({ amount: 10, currency: "USD", at: "2026-10-01T12:00:00Z", n: 5 });
  });
});

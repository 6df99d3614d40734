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
    fc.record(
      { type: fc.constant("string"), minLength: fc.nat(5), maxLength: fc.integer({ min: 6, max: 20 }) },
      { requiredKeys: ["type"] },
    ),
    fc.record({ type: fc.constant("string"), format: fc.constantFrom(...FORMATS) }),
    fc
      .record(
        {
          type: fc.constantFrom("number", "integer"),
          minimum: fc.integer({ min: -50, max: 50 }),
          multipleOf: fc.constantFrom(1, 2, 5, 10),
        },
        { requiredKeys: ["type"] },
      )
      .chain((s) =>
        fc.integer({ min: 0, max: 100 }).map((span) => ({
          ...s,
          ...(typeof s.minimum === "number" ? { maximum: (s.minimum as number) + span + 10 } : {}),
        })),
      ),
    fc.record({
      type: fc.constant("number"),
      exclusiveMinimum: fc.integer({ min: -5, max: 5 }),
      exclusiveMaximum: fc.integer({ min: 6, max: 9 }),
    }),
    fc.record({
      type: fc.constant("integer"),
      exclusiveMinimum: fc.integer({ min: -5, max: 5 }),
      maximum: fc.integer({ min: 7, max: 9 }),
    }),
    fc.record({ type: fc.constant("boolean") }),
    fc.record({ type: fc.constant(["string", "null"]) }),
    fc.record({ enum: fc.uniqueArray(fc.oneof(fc.string(), fc.integer()), { minLength: 1, maxLength: 4 }) }),
    fc.record({ const: fc.jsonValue({ maxDepth: 2 }) }),
    fc.record(
      { type: fc.constant("array"), items: tie("schema"), minItems: fc.nat(3) },
      { requiredKeys: ["type", "items"] },
    ),
    fc.record({
      type: fc.constant("array"),
      items: fc.constant({ type: "integer" }),
      minItems: fc.integer({ min: 1, max: 4 }),
      uniqueItems: fc.constant(true),
    }),
    fc
      .dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie("schema"), { maxKeys: 4 })
      .chain((properties) =>
        fc
          .subarray(Object.keys(properties))
          .chain((required) =>
            fc
              .record({ additionalProperties: fc.boolean() })
              .map((r) => ({ type: "object", properties, required, ...r })),
          ),
      ),
    fc.tuple(tie("schema"), tie("schema")).map(([a, b]) => ({ anyOf: [a, b] })),
    fc
      .tuple(
        fc.dictionary(fc.stringMatching(/^[a-m]{1,4}$/), fc.constant({ type: "string" }), { maxKeys: 2 }),
        fc.dictionary(fc.stringMatching(/^[n-z]{1,4}$/), fc.constant({ type: "integer", minimum: 3 }), { maxKeys: 2 }),
      )
      .map(([a, b]) => ({
        allOf: [
          { type: "object", properties: a, required: Object.keys(a) },
          { type: "object", properties: b, required: Object.keys(b) },
        ],
      })),
  ),
})).schema;

/** The same, sometimes reached through a `$ref` into the root's `$defs`. */
const schemaArb = fc.oneof(
  innerArb,
  innerArb.map((inner) => ({
    $defs: { inner },
    type: "object",
    properties: { x: { $ref: "#/$defs/inner" } },
    required: ["x"],
  })),
);

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
      if (Array.isArray(v)) {
        v.forEach(walk);
        return;
      }
      if (typeof v !== "object" || v === null) return;
      const o = v as Record<string, unknown>;
      if ((o["kind"] === "local" || o["kind"] === "mcp_local") && typeof o["parameters"] === "object")
        corpus.push(o["parameters"]);
      if (Array.isArray(o["tools"]))
        for (const t of o["tools"] as Array<Record<string, unknown>>)
          if (typeof t?.["inputSchema"] === "object") corpus.push(t["inputSchema"]);
      Object.values(o).forEach(walk);
    };
    for (const file of ["ToolRef", "RunCreateRequest", "LocalToolRef"]) {
      const cases = JSON.parse(
        readFileSync(new URL(`../../generated/fixtures/messages/${file}.json`, import.meta.url), "utf8"),
      ) as Array<{ tests: Array<{ valid: boolean; data: unknown }> }>;
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
      properties: {
        amount: { type: "number", minimum: 10, maximum: 20 },
        currency: { type: "string", enum: ["USD", "EUR"] },
        at: { type: "string", format: "date-time" },
        n: { type: "integer", exclusiveMinimum: 4 },
      },
      required: ["amount", "currency"],
      additionalProperties: false,
    };
    expect(exampleValue(schema)).toEqual({ amount: 10, currency: "USD", at: "2026-10-01T12:00:00Z", n: 5 });
  });
});

describe("a budget (the document mock's: a public API's large recursive schemas)", () => {
  /** A node with ten optional children, each a node: without a bound, 10^8 values at depth 8. */
  const tree = {
    $defs: {
      Node: {
        type: "object",
        required: ["id"],
        properties: {
          id: { type: "string" },
          ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`c${i}`, { $ref: "#/$defs/Node" }])),
        },
      },
    },
    $ref: "#/$defs/Node",
  };
  const size = (v: unknown): number =>
    typeof v === "object" && v !== null ? 1 + Object.values(v).reduce<number>((n, x) => n + size(x), 0) : 1;

  it("past the budget, optional properties are left out and arrays get minItems only; required ones stay", () => {
    const value = exampleValue(tree, { budget: 200 }) as Record<string, unknown>;
    expect(size(value)).toBeLessThan(1_000);
    expect(value["id"]).toBe("example");
    expect(exampleValue({ type: "array", items: { type: "string" } }, { budget: 0 })).toEqual([]);
    expect(exampleValue({ type: "array", minItems: 2, items: { type: "string" } }, { budget: 0 })).toEqual([
      "example",
      "example",
    ]);
  });

  it("`example` (OpenAPI 3.0) is used after `examples`, before `default`; `resolveRef` resolves a document's references", () => {
    expect(exampleValue({ type: "string", example: "three", default: "d" })).toBe("three");
    expect(exampleValue({ type: "string", examples: ["one"], example: "three" })).toBe("one");
    const components: Record<string, unknown> = {
      Pet: { type: "object", required: ["name"], properties: { name: { type: "string", example: "Rex" } } },
    };
    expect(
      exampleValue(
        { $ref: "#/components/schemas/Pet" },
        { resolveRef: (ref) => components[ref.split("/").pop()!] as never },
      ),
    ).toEqual({ name: "Rex" });
  });
});

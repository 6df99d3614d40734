/** The no-eval JSON Schema subset checker used for tool arguments: table-driven. */
import { describe, expect, it } from "vitest";
import { checkJsonSchema } from "../../index.js";

type Case = [description: string, schema: unknown, data: unknown, valid: boolean, path?: string, keyword?: string];

const cases: Case[] = [
  ["no schema accepts anything", undefined, { a: 1 }, true],
  ["type string", { type: "string" }, "x", true],
  ["type string rejects a number", { type: "string" }, 1, false, "", "type"],
  ["type integer rejects 1.5", { type: "integer" }, 1.5, false, "", "type"],
  ["type array of types", { type: ["string", "null"] }, null, true],
  ["required property missing", { type: "object", required: ["to"] }, {}, false, "", "required"],
  ["properties checked", { type: "object", properties: { n: { type: "number" } } }, { n: "1" }, false, "/n", "type"],
  [
    "additionalProperties false",
    { type: "object", properties: {}, additionalProperties: false },
    { x: 1 },
    false,
    "/x",
    "additionalProperties",
  ],
  [
    "additionalProperties schema",
    { type: "object", additionalProperties: { type: "string" } },
    { x: 1 },
    false,
    "/x",
    "type",
  ],
  ["enum", { enum: ["USD", "EUR"] }, "GBP", false, "", "enum"],
  ["enum of objects", { enum: [{ a: 1 }] }, { a: 1 }, true],
  ["const", { const: 3 }, 4, false, "", "const"],
  ["items", { type: "array", items: { type: "number" } }, [1, "2"], false, "/1", "type"],
  ["prefixItems", { type: "array", prefixItems: [{ type: "string" }], items: { type: "number" } }, ["a", 1, 2], true],
  ["minItems", { type: "array", minItems: 2 }, [1], false, "", "minItems"],
  ["maxItems", { type: "array", maxItems: 1 }, [1, 2], false, "", "maxItems"],
  ["uniqueItems", { type: "array", uniqueItems: true }, [{ a: 1 }, { a: 1 }], false, "", "uniqueItems"],
  ["minimum", { type: "number", minimum: 0 }, -1, false, "", "minimum"],
  ["maximum", { type: "number", maximum: 10 }, 11, false, "", "maximum"],
  ["exclusiveMinimum", { exclusiveMinimum: 0 }, 0, false, "", "exclusiveMinimum"],
  ["exclusiveMaximum", { exclusiveMaximum: 1 }, 1, false, "", "exclusiveMaximum"],
  ["multipleOf", { multipleOf: 5 }, 12, false, "", "multipleOf"],
  ["minLength counts code points", { minLength: 2 }, "😀", false, "", "minLength"],
  ["maxLength counts code points", { maxLength: 1 }, "😀", true],
  ["pattern", { pattern: "^[a-z]+$" }, "abc1", false, "", "pattern"],
  ["pattern is Unicode", { pattern: "^\\p{L}+$" }, "héllo", true],
  ["anyOf", { anyOf: [{ type: "string" }, { type: "number" }] }, true, false, "", "anyOf"],
  ["oneOf matching two", { oneOf: [{ type: "number" }, { type: "integer" }] }, 1, false, "", "oneOf"],
  ["oneOf matching one", { oneOf: [{ type: "string" }, { type: "integer" }] }, 1, true],
  ["allOf", { allOf: [{ type: "object", required: ["a"] }, { required: ["b"] }] }, { a: 1 }, false, "", "required"],
  ["not", { not: { type: "string" } }, "x", false, "", "not"],
  [
    "$ref into $defs",
    { $defs: { id: { type: "string" } }, type: "object", properties: { id: { $ref: "#/$defs/id" } } },
    { id: 1 },
    false,
    "/id",
    "type",
  ],
  [
    "patternProperties: a matching key is not additional",
    { type: "object", patternProperties: { "^x-": { type: "string" } }, additionalProperties: false },
    { "x-a": "1" },
    true,
  ],
  [
    "patternProperties: a matching key is checked",
    { type: "object", patternProperties: { "^x-": { type: "string" } } },
    { "x-a": 1 },
    false,
    "/x-a",
    "type",
  ],
  [
    "patternProperties: a key matching none is additional",
    { type: "object", patternProperties: { "^x-": {} }, additionalProperties: false },
    { y: 1 },
    false,
    "/y",
    "additionalProperties",
  ],
  [
    "a $ref that is not a JSON pointer (an $anchor) is not checked, not resolved to the root",
    { type: "object", properties: { child: { $ref: "#item" } }, $defs: { item: { $anchor: "item", type: "string" } } },
    { child: "x" },
    true,
  ],
  ["format is an annotation", { type: "string", format: "email" }, "not an email", true],
  [
    "unknown keywords are ignored",
    { type: "object", "x-anything": 1, dependentRequired: { a: ["b"] } },
    { a: 1 },
    true,
  ],
  ["false schema", false, 1, false, "", "false"],
  ["$ref cycle is bounded", { $ref: "#" }, 1, false, "", "$ref"],
];

describe("checkJsonSchema", () => {
  it.each(cases)("%s", (_d, schema, data, valid, path, keyword) => {
    const issues = checkJsonSchema(schema, data);
    expect(issues.length === 0).toBe(valid);
    if (!valid && path !== undefined) expect(issues[0]).toMatchObject({ instancePath: path, keyword });
  });

  it("reports every problem, not only the first", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" }, b: { minimum: 3 } },
      required: ["c"],
      additionalProperties: false,
    };
    const found = checkJsonSchema(schema, { a: 1, b: 1, d: 0 }).map((i) => `${i.instancePath}:${i.keyword}`);
    expect(found.sort()).toEqual(["/a:type", "/b:minimum", "/d:additionalProperties", ":required"]);
  });
});

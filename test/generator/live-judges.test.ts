/**
 * The fixture judges (generator/emit/fixtures/live-ajv.ts) tell a case
 * whose verdict depends on a vendor keyword, so the suite tags it and plain
 * JSON Schema runners (Go, Python) skip it knowingly: also when the vendor
 * keyword is reached through a `$ref` into a subschema of another component,
 * not only through a `$ref` to a whole component.
 */
import { describe, expect, test } from "vitest";
import { LiveAjv } from "../../generator/emit/fixtures/live-ajv.js";

const schemas = {
  Text: { type: "object", properties: { x: { type: "string", "x-max-utf8-bytes": 3 } } },
  ViaComponent: { type: "object", properties: { y: { $ref: "#/components/schemas/Text" } } },
  ViaSubschema: { type: "object", properties: { y: { $ref: "#/components/schemas/Text/properties/x" } } },
  Whole: { $ref: "#/components/schemas/Text/properties/x" },
};

describe("the plain verdict of a case failing only a vendor keyword", () => {
  test.each([
    ["Text", { x: "ééé" }],
    ["ViaComponent", { y: { x: "ééé" } }],
    ["ViaSubschema", { y: "ééé" }],
    ["Whole", "ééé"],
  ])("%s: rejected with the vendor keyword, accepted by a plain validator", (name, data) => {
    const judge = new LiveAjv(schemas as never);
    const { full, plain } = judge.check(`#/components/schemas/${name}`, data);
    expect(full.valid).toBe(false);
    expect(full.errors.map((e) => e.keyword)).toEqual(["x-max-utf8-bytes"]);
    expect(plain).toBe(true);
  });
});

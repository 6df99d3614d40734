/**
 * OpenAPI `discriminator.mapping` is checked against the branches' tag
 * consts, then dropped (ajv derives the mapping from the consts).
 */
import type { SchemaObject } from "openapi3-ts/oas31";
import { describe, expect, it } from "vitest";
import { emitValidators } from "../../generator/emit/validators.js";
import { isDiscriminatorMappingError, prepareComponents } from "../../generator/emit/validators/prepare.js";
import type { LoadedSchema } from "../../generator/model.js";

const branch = (tag: string): SchemaObject => ({
  type: "object",
  required: ["kind"],
  properties: { kind: { const: tag } },
});

function union(mapping: Record<string, string>): Record<string, SchemaObject> {
  return {
    A: branch("a"),
    B: branch("b"),
    U: {
      oneOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }],
      discriminator: { propertyName: "kind", mapping },
    },
  };
}

describe("discriminator mapping", () => {
  it("a mapping that agrees with the consts is dropped", () => {
    const prepared = prepareComponents(union({ a: "#/components/schemas/A", b: "#/components/schemas/B" }));
    expect(prepared["U"]?.discriminator).toEqual({ propertyName: "kind" });
  });

  it("the input is not modified", () => {
    const schemas = union({ a: "#/components/schemas/A" });
    prepareComponents(schemas);
    expect(schemas["U"]?.discriminator?.mapping).toEqual({ a: "#/components/schemas/A" });
  });

  it("a mapping to the wrong branch fails with the fix", () => {
    let error: unknown;
    try {
      prepareComponents(union({ a: "#/components/schemas/B" }));
    } catch (e) {
      error = e;
    }
    expect(isDiscriminatorMappingError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /#\/components\/schemas\/U\/discriminator: mapping "a" -> #\/components\/schemas\/B, but that schema's "kind" const is "b"/,
    );
  });

  it("a mapping to a schema outside the oneOf fails", () => {
    expect(() => prepareComponents(union({ a: "#/components/schemas/C" }))).toThrow(/not one of the oneOf branches/);
  });

  it("a property named discriminator is left alone", () => {
    const schemas = { P: { type: "object", properties: { discriminator: { type: "string" } } } as SchemaObject };
    expect(prepareComponents(schemas)).toEqual(schemas);
  });

  it("generation fails on an inconsistent mapping", () => {
    const model: LoadedSchema = {
      document: {
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        components: { schemas: union({ b: "#/components/schemas/A" }) },
      },
      schemas: union({ b: "#/components/schemas/A" }),
      sourcePath: "t.yaml",
      hash: "0",
      generatorVersion: "0.0.0",
    };
    expect(() => emitValidators(model)).toThrow(/discriminator: mapping "b"/);
  });
});

describe("names that look like keywords", () => {
  const schemas: Record<string, SchemaObject> = {
    Headers: {
      type: "object",
      additionalProperties: false,
      required: ["x-request-id"],
      properties: {
        "x-request-id": { type: "string" },
        // A property named like a data keyword: its schema is still a schema (its unknown x- keyword goes).
        default: { type: "integer", "x-tool-hint": 1 } as SchemaObject,
      },
    },
  };

  it("a property named x-… is a property, not a vendor keyword: kept for ajv and not reported", async () => {
    const prepared = prepareComponents(schemas);
    expect(Object.keys(prepared["Headers"]!.properties!)).toEqual(["x-request-id", "default"]);
    expect(prepared["Headers"]!.properties!["default"]).toEqual({ type: "integer" });
    const { unknownVendorKeywords } = await import("../../generator/emit/validators/prepare.js");
    expect([...unknownVendorKeywords(schemas)]).toEqual([
      ["x-tool-hint", "/components/schemas/Headers/properties/default/x-tool-hint"],
    ]);
  });
});

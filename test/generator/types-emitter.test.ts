/**
 * The TypeScript types emitter: the mini fixture against a committed golden
 * file, and one table row per construct (given schema, wanted declaration).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { emitTypes } from "../../generator/emit/types.js";
import { isEmitError } from "../../generator/errors.js";
import { loadSchema } from "../../generator/load/index.js";
import type { LoadedSchema } from "../../generator/model.js";
import { MINI, REPO } from "./support.js";

const GOLDEN = path.join(REPO, "test/generator/fixtures/mini.types.ts.golden");

test("mini fixture: the emitted types equal the committed golden file (UPDATE_GOLDEN=1 rewrites it)", async () => {
  const actual = emitTypes(await loadSchema(MINI, { cwd: REPO }));
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, actual);
  expect(actual).toBe(readFileSync(GOLDEN, "utf8"));
});

test("the real schema's types contain no `any`", async () => {
  const text = emitTypes(await loadSchema("schema/openapi.yaml", { cwd: REPO }));
  const code = text.replace(/\/\*\*[\s\S]*?\*\//g, "");
  expect(code).not.toMatch(/\bany\b/);
});

/** The declarations emitted for `schemas` (without the file comment). */
function declarations(given: Record<string, unknown>): string {
  const schemas = Object.fromEntries(Object.entries(given).sort(([a], [b]) => (a < b ? -1 : 1)));
  const model = {
    document: { openapi: "3.1.0", info: { title: "T", version: "1" }, components: { schemas } },
    schemas,
    sourcePath: "schema.yaml",
    hash: "0",
    generatorVersion: "0.0.0",
  } as unknown as LoadedSchema;
  const text = emitTypes(model);
  return text.slice(text.indexOf("*/\n\n") + 4).trimEnd();
}

const cases: [string, { given: Record<string, unknown>; want: string }][] = [
  [
    "a strict-only branch (x-strict-only) adds nothing to the type: it follows what a client reads",
    {
      given: {
        T: {
          type: "object",
          required: ["a"],
          allOf: [{ "x-strict-only": true, required: ["b"] }],
          properties: { a: { type: "string" }, b: { type: "integer" } },
        },
      },
      want: "export interface T {\n  a: string;\n  b?: number;\n  [key: string]: unknown;\n}",
    },
  ],
  [
    "object without additionalProperties is open: an unknown index signature",
    {
      given: { T: { type: "object", required: ["a"], properties: { a: { type: "string" }, b: { type: "integer" } } } },
      want: "export interface T {\n  a: string;\n  b?: number;\n  [key: string]: unknown;\n}",
    },
  ],
  [
    "additionalProperties: false closes the object",
    {
      given: { T: { type: "object", properties: { a: { type: "boolean" } }, additionalProperties: false } },
      want: "export interface T {\n  a?: boolean;\n}",
    },
  ],
  [
    "an empty closed object admits no keys",
    {
      given: { T: { type: "object", additionalProperties: false } },
      want: "export interface T {\n  [key: string]: never;\n}",
    },
  ],
  [
    "additionalProperties schema beside properties: the index signature admits the declared types too",
    {
      given: {
        T: { type: "object", properties: { n: { type: "integer" } }, additionalProperties: { type: "string" } },
      },
      want: "export interface T {\n  n?: number;\n  [key: string]: string | number | undefined;\n}",
    },
  ],
  [
    "propertyNames + additionalProperties is a map",
    {
      given: {
        T: { type: "object", propertyNames: { pattern: "^[a-z]+$" }, additionalProperties: { type: "string" } },
      },
      want: "export interface T {\n  [key: string]: string;\n}",
    },
  ],
  [
    "a type array is a union including null",
    { given: { T: { type: ["string", "null"] } }, want: "export type T = string | null;" },
  ],
  [
    "enum is a literal union",
    { given: { T: { enum: ["a", 1, true, null] } }, want: 'export type T = "a" | 1 | true | null;' },
  ],
  ["const is a literal", { given: { T: { const: 'x"y\n' } }, want: 'export type T = "x\\"y\\n";' }],
  [
    "a const object is an object literal type",
    { given: { T: { const: { a: [1, "b"] } } }, want: 'export interface T {\n  a: [1, "b"];\n}' },
  ],
  [
    "x-known-values: the known literals autocomplete, any string is accepted",
    {
      given: { T: { type: "string", "x-known-values": ["a", "b"] } },
      want: 'export type T = "a" | "b" | (string & {});',
    },
  ],
  ["{} is unknown", { given: { T: {} }, want: "export type T = unknown;" }],
  [
    "true is unknown, false is never",
    { given: { T: true, F: false }, want: "export type F = never;\n\nexport type T = unknown;" },
  ],
  [
    "oneOf and anyOf are unions, allOf an intersection",
    {
      given: {
        A: { type: "string" },
        B: { type: "number" },
        O: { oneOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }] },
        N: { anyOf: [{ $ref: "#/components/schemas/A" }, { type: "null" }] },
        L: { allOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }] },
      },
      want: [
        "export type A = string;",
        "export type B = number;",
        "export type L = A & B;",
        "export type N = A | null;",
        "export type O = A | B;",
      ].join("\n\n"),
    },
  ],
  [
    "if/then/else is Then | Else; if/then without else only constrains",
    {
      given: {
        E: { if: { type: "string" }, then: { const: "a" }, else: { type: "number" } },
        I: { type: "string", if: { const: "a" }, then: { minLength: 1 } },
      },
      want: 'export type E = "a" | number;\n\nexport type I = string;',
    },
  ],
  [
    "required-only union branches constrain the base object",
    {
      given: {
        T: {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "string" } },
          oneOf: [{ required: ["a"] }, { required: ["b"] }],
        },
      },
      want: "export type T = {\n  a?: string;\n  b?: string;\n  [key: string]: unknown;\n} & ({ a: unknown } | { b: unknown });",
    },
  ],
  [
    "arrays: items type, parenthesized unions, {} items",
    {
      given: {
        T: { type: "array", items: { type: ["string", "number"] } },
        U: { type: "array", items: {} },
        V: { type: "array" },
      },
      want: "export type T = (string | number)[];\n\nexport type U = unknown[];\n\nexport type V = unknown[];",
    },
  ],
  [
    "property names that are not identifiers are quoted",
    {
      given: {
        T: {
          type: "object",
          properties: { "content-type": { type: "string" }, "2fa": { type: "boolean" }, ok_1: { type: "boolean" } },
          additionalProperties: false,
        },
      },
      want: 'export interface T {\n  "content-type"?: string;\n  "2fa"?: boolean;\n  ok_1?: boolean;\n}',
    },
  ],
  [
    "JSDoc: title, description, @default, @deprecated, the first @example; */ cannot end the comment",
    {
      given: {
        T: {
          title: "Tee",
          description: "Ends here? */ no.\nSecond line.",
          type: "integer",
          default: 3,
          deprecated: true,
          examples: [1, 2],
        },
      },
      want: "/**\n * Tee\n *\n * Ends here? *\\/ no.\n * Second line.\n * @default 3\n * @deprecated\n * @example 1\n */\nexport type T = number;",
    },
  ],
  [
    "a $ref with a description sibling is the referenced type, documented on the property",
    {
      given: {
        A: { type: "string" },
        T: {
          type: "object",
          properties: { a: { $ref: "#/components/schemas/A", description: "The a." } },
          additionalProperties: false,
        },
      },
      want: "export type A = string;\n\nexport interface T {\n  /** The a. */\n  a?: A;\n}",
    },
  ],
  [
    "a string that excludes known values (`not: { enum }`) is a branded open tag",
    {
      given: {
        U: { type: "object", required: ["type"], properties: { type: { type: "string", not: { enum: ["a", "b"] } } } },
      },
      want: [
        "export interface U {\n  type: UType;\n  [key: string]: unknown;\n}",
        [
          "/**",
          ' * A tag value none of the known ones ("a", "b"): sent by a newer server.',
          " * Branded so that comparing with a known literal narrows away from this variant; read it with `String(value)`.",
          " */",
          "export type UType = String & { readonly __uType: unique symbol };",
        ].join("\n"),
      ].join("\n\n"),
    },
  ],
  [
    "a oneOf with a discriminator gets a tag array, tags from const or from the mapping",
    {
      given: {
        A: { type: "object", required: ["k"], properties: { k: { const: "a" } }, additionalProperties: false },
        B: { type: "object", additionalProperties: false },
        U: {
          oneOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }],
          discriminator: { propertyName: "k", mapping: { b: "#/components/schemas/B" } },
        },
      },
      want: [
        'export interface A {\n  k: "a";\n}',
        "export interface B {\n  [key: string]: never;\n}",
        "export type U = A | B;",
        '/** Every `k` tag of {@link U}, in schema order. */\nexport const U_KS = [\n  "a",\n  "b",\n] as const satisfies readonly U["k"][];',
      ].join("\n\n"),
    },
  ],
  [
    "long unions break one member per line",
    {
      given: { T: { type: "string", enum: ["one", "two", "three", "four", "five"] } },
      want: 'export type T =\n  | "one"\n  | "two"\n  | "three"\n  | "four"\n  | "five";',
    },
  ],
];

describe("types emitter", () => {
  test.each(cases)("%s", (_name, { given, want }) => {
    expect(declarations(given)).toBe(want);
  });

  test("two components that map to one TypeScript name get two (generator/emit/component-names.ts): the one named as its type keeps it, the other <Name>_2", () => {
    expect(declarations({ "foo-bar": { type: "string" }, FooBar: { type: "number" } })).toBe(
      "export type FooBar = number;\n\nexport type FooBar_2 = string;",
    );
    // Whatever the order of the document.
    expect(declarations({ FooBar: { type: "number" }, "foo-bar": { type: "string" } })).toBe(
      "export type FooBar = number;\n\nexport type FooBar_2 = string;",
    );
  });

  test("an open tag's brand named like a component gets <Name>_2, and the property refers to it", () => {
    const text = declarations({
      U: { type: "object", required: ["type"], properties: { type: { type: "string", not: { enum: ["a", "b"] } } } },
      UType: { type: "integer" },
    });
    expect(text).toContain("export interface U {\n  type: UType_2;\n");
    expect(text).toContain("export type UType_2 = String & { readonly __uType_2: unique symbol };");
    expect(text).toContain("export type UType = number;");
  });

  test("a discriminated branch without a tag value is an error naming the branch", () => {
    let error: unknown;
    try {
      declarations({ U: { oneOf: [{ type: "object" }], discriminator: { propertyName: "k" } } });
    } catch (e) {
      error = e;
    }
    expect(isEmitError(error) && [error.code, error.pointer]).toEqual([
      "unsupported-schema",
      "/components/schemas/U/oneOf/0",
    ]);
  });
});

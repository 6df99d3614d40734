/**
 * Boolean subschemas (JSON Schema 2020-12 §4.3.2: `true` accepts every
 * value, `false` none), in properties, items, additionalProperties,
 * propertyNames, union branches and as whole components
 * (test/generator/fixtures/bool-schemas.yaml): the types, the validators and
 * the fixture suite's message cases; then a full `gen` (every emitter) of a
 * copy of the real schema using them.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, test } from "vitest";
import { parse, stringify } from "yaml";
import { EMITTERS } from "../../generator/emit/index.js";
import { emitTypes } from "../../generator/emit/types.js";
import { LiveAjv } from "../../generator/emit/fixtures/live-ajv.js";
import { buildMessageSuite, type MessageSuite } from "../../generator/emit/fixtures/message-cases.js";
import { emitValidators } from "../../generator/emit/validators.js";
import { validatorFile, validatorName } from "../../generator/emit/validators/names.js";
import { formatError, isEmitError } from "../../generator/errors.js";
import { loadSchema } from "../../generator/load/index.js";
import type { LoadedSchema } from "../../generator/model.js";
import {
  emitToTempDir,
  RUNTIME_URL,
  type AnyValidator,
  type EmittedValidators,
} from "../validators/support/emitted.js";
import { cli, REPO, tempDir, writeTree } from "./support.js";

const FIXTURE = path.join(REPO, "test/generator/fixtures/bool-schemas.yaml");

let model: LoadedSchema;
beforeAll(async () => {
  model = await loadSchema(FIXTURE, { cwd: REPO });
});

describe("types", () => {
  let text: string;
  beforeAll(() => {
    text = emitTypes(model);
  });

  test.each([
    ["an optional property whose schema is false", "  gone?: never;"],
    ["a property whose schema is true", "  anything?: unknown;"],
    ["items: true", "  list?: unknown[];"],
    ["items: false (only the empty array)", "  none?: never[];"],
    ["prefixItems with a true item, then items: false", "  pair?: [string, unknown];"],
    ["additionalProperties: false without properties", "  closed?: { [key: string]: never };"],
    ["additionalProperties: true", "  open?: { [key: string]: unknown };"],
    ["a false oneOf branch drops out of the union", "  choice?: string | number;"],
    ["a false anyOf branch drops out of the union", "  either?: boolean;"],
    ["a component that is false", "export type Nothing = never;"],
    ["a component that is true", "export type Anything = unknown;"],
    ["a $ref to a false component", "  never?: Nothing;"],
    ["a $ref to a true component", "  any: Anything;"],
  ])("%s", (_what, line) => {
    expect(text.split("\n")).toContain(line);
  });

  test("propertyNames: false admits no key: a never index signature", () => {
    expect(text).toContain("export interface NoEntries {\n  [key: string]: never;\n}");
  });

  test("the emitted types type-check, and a value for a false schema does not", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "types.ts"), text);
    writeFileSync(
      path.join(dir, "check.ts"),
      [
        'import type { Anything, BoolProps, NoEntries, Nothing, RefsToBooleans } from "./types.js";',
        'export const ok: BoolProps = { id: "a", anything: { x: 1 }, list: [1, "two"], none: [], pair: ["p", null], closed: {}, choice: 1, either: false };',
        'export const any: Anything = Symbol("anything");',
        "export const empty: NoEntries = {};",
        "export const refs: RefsToBooleans = { any: 1 };",
        "// @ts-expect-error a property whose schema is false takes no value",
        'export const gone: BoolProps = { id: "a", gone: 1 };',
        "// @ts-expect-error items: false takes no item",
        'export const none: BoolProps = { id: "a", none: [1] };',
        "// @ts-expect-error a false component has no value",
        "export const nothing: Nothing = null;",
        "// @ts-expect-error propertyNames: false takes no key",
        "export const key: NoEntries = { k: 1 };",
        "// @ts-expect-error the false oneOf branch adds nothing",
        'export const choice: BoolProps = { id: "a", choice: true };',
        "",
      ].join("\n"),
    );
    const program = ts.createProgram([path.join(dir, "check.ts")], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      skipLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
  });
});

describe("validators", () => {
  let emitted: EmittedValidators;
  beforeAll(async () => {
    emitted = await emitToTempDir(model);
  });

  const base = { id: "a" };
  test.each([
    ["BoolProps", base, true],
    ["BoolProps", { ...base, anything: [null, { deep: true }] }, true],
    ["BoolProps", { ...base, gone: null }, false],
    ["BoolProps", { ...base, gone: {} }, false],
    ["BoolProps", { ...base, list: ["any", 1, null] }, true],
    ["BoolProps", { ...base, none: [] }, true],
    ["BoolProps", { ...base, none: [0] }, false],
    ["BoolProps", { ...base, pair: ["p", { any: 1 }] }, true],
    ["BoolProps", { ...base, pair: ["p", 1, 2] }, false],
    ["BoolProps", { ...base, closed: {} }, true],
    ["BoolProps", { ...base, closed: { k: 1 } }, false],
    ["BoolProps", { ...base, open: { k: [1] } }, true],
    ["BoolProps", { ...base, choice: "s" }, true],
    ["BoolProps", { ...base, choice: 3 }, true],
    ["BoolProps", { ...base, choice: true }, false],
    ["BoolProps", { ...base, either: false }, true],
    ["BoolProps", { ...base, either: "yes" }, false],
    ["BoolMap", { a: { anything: [] } }, true],
    ["BoolMap", { b: 1 }, false],
    ["NoEntries", {}, true],
    ["NoEntries", { k: 1 }, false],
    ["Anything", null, true],
    ["Anything", [1, "x"], true],
    ["Nothing", null, false],
    ["Nothing", {}, false],
    ["RefsToBooleans", { any: "x" }, true],
    ["RefsToBooleans", { any: 1, never: 1 }, false],
    ["RefsToBooleans", {}, false],
  ] as const)("%s: %j is valid: %s", async (name, data, valid) => {
    const validate = await emitted.get(name);
    expect(validate(data)).toBe(valid);
  });
});

describe("message cases (the fixtures emitter's)", () => {
  let suite: MessageSuite;
  let emitted: EmittedValidators;
  beforeAll(async () => {
    suite = buildMessageSuite(model.schemas, new LiveAjv(model.schemas), []);
    emitted = await emitToTempDir(model);
  });

  test("none is dropped: every constructed verdict and rule is ajv's", () => {
    expect(suite.dropped).toEqual([]);
    expect(suite.unconstructed).toBe(0);
  });

  test("a false property, items: false, a tuple's items: false and propertyNames: false each get an invalid case", () => {
    const invalid = [...suite.files.values()]
      .flat()
      .flatMap((g) => g.tests.filter((t) => !t.valid).map((t) => `${g.schema} ${t.rule} ${t.path}`));
    expect(invalid).toEqual(
      expect.arrayContaining([
        "#/components/schemas/BoolProps false schema /gone",
        "#/components/schemas/BoolProps false schema /none/0",
        "#/components/schemas/BoolProps items /pair",
        "#/components/schemas/NoEntries propertyNames ",
        "#/components/schemas/RefsToBooleans false schema /never",
      ]),
    );
  });

  test("the generated validators give every case its verdict", async () => {
    const disagreements: string[] = [];
    let cases = 0;
    for (const groups of suite.files.values()) {
      for (const group of groups) {
        const validate = await emitted.get(group.schema.slice("#/components/schemas/".length));
        for (const t of group.tests) {
          cases++;
          if (validate(t.data) !== t.valid) disagreements.push(`${group.schema}: ${t.description}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(cases).toBeGreaterThan(30);
  });
});

test("a construct ajv refuses (a discriminator tag that is no string) is an unsupported-schema error naming the component, not an internal error", () => {
  const schemas = {
    Pair: {
      type: "object",
      discriminator: { propertyName: "kind" },
      oneOf: [{ properties: { kind: { const: 1 } }, required: ["kind"] }],
    },
  };
  const broken = {
    ...model,
    document: { ...model.document, paths: {}, components: { schemas } },
    schemas,
  } as unknown as LoadedSchema;
  let error: unknown;
  try {
    emitValidators(broken);
  } catch (e) {
    error = e;
  }
  expect(isEmitError(error)).toBe(true);
  const text = formatError(error);
  expect(text).toMatch(
    /^error\[unsupported-schema\]: emitter "validators": ajv cannot compile a validator for #\/components\/schemas\/Pair/,
  );
  expect(text).toContain("  at #/components/schemas/Pair");
  expect(text).toContain('discriminator: "kind" values must be unique strings');
});

describe("full gen (every emitter) of a copy of schema/openapi.yaml", () => {
  const realSchema = readFileSync(path.join(REPO, "schema/openapi.yaml"), "utf8");
  const caseFiles = readdirSync(path.join(REPO, "schema/cases")).filter((f) => f.endsWith(".yaml"));

  /** A folder with `openapi.yaml` (the given text) and a copy of schema/cases/ beside it. */
  function schemaDir(text: string): string {
    const dir = writeTree({ "openapi.yaml": text });
    mkdirSync(path.join(dir, "cases"));
    for (const f of caseFiles) cpSync(path.join(REPO, "schema/cases", f), path.join(dir, "cases", f));
    // The generated validators are ES modules.
    writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
    return dir;
  }

  async function gen(dir: string): Promise<string> {
    const out = path.join(dir, "out");
    // The output imports the runtime contract by file URL: it is loaded below from a temporary folder.
    const run = await cli(
      ["gen", "--schema", path.join(dir, "openapi.yaml"), "--out", out, "--runtime", RUNTIME_URL],
      REPO,
      EMITTERS,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    return out;
  }

  /** The message cases of `file` (fixtures/messages/<Name>.json) run through the generated validator of <Name>. */
  async function runCases(
    out: string,
    name: string,
  ): Promise<Array<{ description: string; valid: boolean; rule?: string; path?: string }>> {
    const groups = JSON.parse(readFileSync(path.join(out, `fixtures/messages/${name}.json`), "utf8")) as Array<{
      tests: Array<{ description: string; data: unknown; valid: boolean; rule?: string; path?: string }>;
    }>;
    const mod = (await import(pathToFileURL(path.join(out, `validators/${validatorFile(name)}.js`)).href)) as Record<
      string,
      AnyValidator
    >;
    const validate = mod[validatorName(name)]!;
    const tests = groups.flatMap((g) => g.tests);
    expect(tests.filter((t) => validate(t.data) !== t.valid).map((t) => t.description)).toEqual([]);
    return tests;
  }

  test("the real schema, whose PromptInput forbids `messages` with `messages: false` (the construct that crashed the fixtures emitter)", async () => {
    const doc = parse(realSchema) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.components.schemas["PromptInput"]!.properties!["messages"]).toBe(false);
    const out = await gen(schemaDir(realSchema));

    expect(readFileSync(path.join(out, "types.ts"), "utf8")).toContain(
      "export interface PromptInput {\n  prompt: string;\n  messages?: never;\n  [key: string]: unknown;\n}",
    );
    const tests = await runCases(out, "PromptInput");
    expect(tests).toContainEqual(expect.objectContaining({ valid: false, rule: "false schema", path: "/messages" }));
    // The hand-written "both prompt and messages" cases of schema/cases still hold under `messages: false`.
    const manifest = JSON.parse(readFileSync(path.join(out, "fixtures/manifest.json"), "utf8")) as {
      dropped: { handWrittenDisagreements: number; cases: Array<{ file: string }> };
    };
    expect(manifest.dropped.handWrittenDisagreements).toBe(0);
    expect(manifest.dropped.cases.filter((c) => c.file === "messages/PromptInput.json")).toEqual([]);
  }, 60_000);

  test("with the boolean-subschema components of the fixture added", async () => {
    const doc = parse(realSchema) as { components: { schemas: Record<string, unknown> } };
    const extra = (parse(readFileSync(FIXTURE, "utf8")) as { components: { schemas: Record<string, unknown> } })
      .components.schemas;
    for (const name of Object.keys(extra)) expect(doc.components.schemas).not.toHaveProperty(name);
    Object.assign(doc.components.schemas, extra);
    const out = await gen(schemaDir(stringify(doc)));

    const types = readFileSync(path.join(out, "types.ts"), "utf8");
    expect(types).toContain("  gone?: never;");
    expect(types).toContain("export type Nothing = never;");
    const manifest = JSON.parse(readFileSync(path.join(out, "fixtures/manifest.json"), "utf8")) as {
      dropped: { cases: Array<{ file: string }> };
    };
    for (const name of ["BoolProps", "BoolMap", "NoEntries", "RefsToBooleans", "Entries"]) {
      expect(manifest.dropped.cases.filter((c) => c.file === `messages/${name}.json`)).toEqual([]);
      const tests = await runCases(out, name);
      expect(tests.some((t) => t.valid) && tests.some((t) => !t.valid)).toBe(true);
    }
  }, 60_000);
});

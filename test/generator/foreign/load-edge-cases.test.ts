/**
 * Valid documents the loader refused or mangled, from the OpenAPI
 * Initiative's own schema tests (OAI/OpenAPI-Specification, branches
 * v3.1-dev and v3.2-dev, tests/schema/pass/: json_schema_dialect.yaml,
 * path_item_servers_parameters.yaml), rewritten small here:
 * - `jsonSchemaDialect` naming OpenAPI's own dialect other than
 *   `…/3.1/dialect/base` (a dated one, 3.2's) was error[invalid-json-schema];
 *   a component whose `$schema` names it was an internal error ("no schema
 *   with key or ref"), and so was one naming any other draft, which was
 *   then a typed error at its `$schema` and is now read as 2020-12 with a
 *   warning there (issue 22: documents of earlier drafts generate, as with
 *   openapi-typescript; test/generator/foreign/earlier-drafts.test.ts);
 * - a Link Object's `server` was "unknown field" (the 2022-10-07 3.1
 *   meta-schema calls it `body`);
 * - a component named `__proto__` was dropped without a word (assigned into
 *   a plain object, it set the prototype).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { genAll, readTree, writeTree } from "../support.js";

const gen = (schema: string) => genAll(path.join(writeTree({ "doc.yaml": schema }), "doc.yaml"));

const withDialect = (openapi: string, dialect: string, schemaDialect = dialect): string => `openapi: ${openapi}
info: { title: Dialect, version: "1" }
jsonSchemaDialect: ${dialect}
paths: {}
components:
  schemas:
    Named:
      $schema: "${schemaDialect}"
      type: object
      properties: { name: { type: string } }
`;

test.each([
  ["3.1.0", "https://spec.openapis.org/oas/3.1/dialect/base"],
  ["3.1.1", "https://spec.openapis.org/oas/3.1/dialect/2024-11-10"],
  ["3.2.0", "https://spec.openapis.org/oas/3.2/dialect/2025-09-17"],
  ["3.1.0", "https://json-schema.org/draft/2020-12/schema"],
])("OpenAPI %s with jsonSchemaDialect and a component $schema %s generates", async (openapi, dialect) => {
  const run = await gen(withDialect(openapi, dialect));
  expect(run.stderr).not.toMatch(/^(error|warning|internal error)/m);
  expect(run.code).toBe(0);
  expect(readTree(run.out).get("types.ts")).toContain("export interface Named {");
});

test("a component $schema of another draft is read as 2020-12, with a warning at its $schema, not an internal error (issue 22: it was refused)", async () => {
  const run = await gen(
    withDialect("3.1.0", "https://spec.openapis.org/oas/3.1/dialect/base", "http://json-schema.org/draft-07/schema#"),
  );
  expect(run.code).toBe(0);
  expect(run.stderr).not.toMatch(/^error/m);
  expect(run.stderr).toMatch(
    /^warning\[validators\]: doc\.yaml:8:7: 1 component schema\(s\) \(Named\) name another dialect in `\$schema` \(first: "http:\/\/json-schema\.org\/draft-07\/schema#"\); the generator reads JSON Schema 2020-12/m,
  );
  expect(run.stderr).toContain("Rewrite them in 2020-12 and remove `$schema`.");
  expect(run.stderr).not.toContain("internal error");
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(readTree(run.out).get("types.ts")).toContain("export interface Named {");
});

test("another jsonSchemaDialect is read as 2020-12, with a warning and the fix (issue 22: it was refused)", async () => {
  const run = await gen(withDialect("3.1.0", "http://json-schema.org/draft-07/schema#"));
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(
    /^warning\[validators\]: doc\.yaml:3:1: jsonSchemaDialect is "http:\/\/json-schema\.org\/draft-07\/schema#"; the generator reads JSON Schema 2020-12/m,
  );
  expect(run.stderr).toContain("remove jsonSchemaDialect (or set it to https://json-schema.org/draft/2020-12/schema)");
});

test("a Link Object's server (OpenAPI 3.1) is accepted", async () => {
  const run = await gen(`openapi: 3.1.0
info: { title: Links, version: "1" }
paths:
  /things:
    post:
      operationId: makeThing
      responses:
        "201":
          description: made
          links:
            GetThing:
              operationId: getThing
              parameters: { thingId: "$response.body#/id" }
              server: { url: "https://other.example.com" }
  /things/{thingId}:
    get:
      operationId: getThing
      parameters:
        - { name: thingId, in: path, required: true, schema: { type: string } }
      responses: { "200": { description: the thing } }
`);
  expect(run.stderr).not.toMatch(/^(error|warning)/m);
  expect(run.code).toBe(0);
  expect(readTree(run.out).get("client.ts")).toContain("  makeThing(options?: ApiCallOptions)");
});

test("a component named __proto__ becomes a type and a validator like any other", async () => {
  const run = await gen(`openapi: 3.1.0
info: { title: Proto, version: "1" }
paths: {}
components:
  schemas:
    __proto__: { type: object, properties: { a: { type: string } }, required: [a] }
    Other: { type: object, properties: { p: { $ref: "#/components/schemas/__proto__" } } }
`);
  expect(run.stderr).not.toMatch(/^(error|warning)/m);
  expect(run.code).toBe(0);
  const types = readTree(run.out).get("types.ts")!;
  expect(types).toContain("export interface __proto__ {\n  a: string;");
  expect(types).toContain("  p?: __proto__;");
  const validators = (await import(pathToFileURL(path.join(run.out, "validators", "index.js")).href)) as Record<
    string,
    (data: unknown) => boolean
  >;
  expect([
    validators.validate__proto__!({ a: "x" }),
    validators.validate__proto__!({}),
    validators.validateOther!({ p: {} }),
    validators.validateOther!({ p: { a: "y" } }),
  ]).toEqual([true, false, false, true]);
});

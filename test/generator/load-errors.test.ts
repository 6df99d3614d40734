/**
 * Each kind of load failure: typed code, the file, line:column, the JSON
 * pointer, and a fix, as data.
 */
import { describe, expect, test } from "vitest";
import { formatError, isSchemaLoadError, type SchemaLoadError } from "../../generator/errors.js";
import { loadSchema } from "../../generator/load/index.js";
import { openApiYaml, writeTree } from "./support.js";

/** A list route whose `x-pagination` (line 8 of the file) is `annotation`. */
function paginated(annotation: string): string {
  const lines = [
    "openapi: 3.1.0",
    "info: { title: T, version: 1.0.0 }",
    "paths:",
    "  /runs:",
    "    get:",
    "      operationId: listRuns",
    "      parameters: [{ name: cursor, in: query, schema: { type: string } }]",
    `      x-pagination: ${annotation}`,
    "      responses:",
    '        "200":',
    "          description: ok",
    "          content:",
    "            application/json:",
    "              schema: { type: object, properties: { nextCursor: { type: [string, 'null'] }, runs: { type: array } } }",
  ];
  return `${lines.join("\n")}\n`;
}

async function loadError(files: Record<string, string>, entry = "schema.yaml"): Promise<SchemaLoadError> {
  const dir = writeTree(files);
  const error: unknown = await loadSchema(entry, { cwd: dir }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isSchemaLoadError(error)) throw new Error(`expected a SchemaLoadError, got ${String(error)}`);
  return error;
}

interface Case {
  readonly files: Record<string, string>;
  readonly entry?: string;
  readonly want: {
    readonly code: SchemaLoadError["code"];
    readonly file: string;
    readonly line?: number;
    readonly column?: number;
    readonly pointer?: string;
    readonly message: RegExp;
    readonly fix: RegExp;
  };
}

const cases: [string, Case][] = [
  [
    "missing schema file",
    {
      files: {},
      entry: "nope.yaml",
      want: { code: "io", file: "nope.yaml", message: /no such file/, fix: /--schema/ },
    },
  ],
  [
    "broken YAML: an unclosed flow sequence",
    {
      files: { "schema.yaml": openApiYaml("    A:\n      type: object\n      required: [a, b\n    B: {}") },
      want: {
        code: "yaml-syntax",
        file: "schema.yaml",
        line: 11,
        message: /invalid YAML/,
        fix: /indentation|bracket/i,
      },
    },
  ],
  [
    "broken YAML: a duplicate key",
    {
      files: { "schema.yaml": openApiYaml("    A:\n      type: object\n      type: string") },
      want: {
        code: "yaml-syntax",
        file: "schema.yaml",
        line: 10,
        column: 7,
        message: /DUPLICATE_KEY/,
        fix: /duplicate|two keys/i,
      },
    },
  ],
  [
    "broken JSON: a trailing comma",
    {
      files: { "schema.json": '{\n  "openapi": "3.1.0",\n}\n' },
      entry: "schema.json",
      want: { code: "yaml-syntax", file: "schema.json", line: 3, message: /invalid JSON/, fix: /JSON syntax/ },
    },
  ],
  [
    "dangling internal $ref, with a did-you-mean",
    {
      files: {
        "schema.yaml": openApiYaml(
          "    Tool:\n      type: object\n    Call:\n      properties:\n        tool:\n          $ref: '#/components/schemas/Tol'",
        ),
      },
      want: {
        code: "dangling-ref",
        file: "schema.yaml",
        line: 13,
        column: 17,
        pointer: "/components/schemas/Call/properties/tool/$ref",
        message: /"#\/components\/schemas\/Tol" does not resolve: "#\/components\/schemas" has no "Tol"/,
        fix: /Did you mean "#\/components\/schemas\/Tool"\?/,
      },
    },
  ],
  [
    "dangling $ref in a JSON file is located too",
    {
      files: {
        "schema.json": JSON.stringify(
          {
            openapi: "3.1.0",
            info: { title: "T", version: "1" },
            components: { schemas: { A: { $ref: "#/components/schemas/B" } } },
          },
          null,
          2,
        ),
      },
      entry: "schema.json",
      want: {
        code: "dangling-ref",
        file: "schema.json",
        line: 10,
        column: 17,
        pointer: "/components/schemas/A/$ref",
        message: /does not resolve/,
        fix: /add "B"/,
      },
    },
  ],
  [
    "dangling discriminator mapping",
    {
      files: {
        "schema.yaml": openApiYaml(
          "    Alpha:\n      properties: { k: { const: a } }\n    U:\n      oneOf: [{ $ref: '#/components/schemas/Alpha' }]\n      discriminator:\n        propertyName: k\n        mapping:\n          a: '#/components/schemas/Alpah'",
        ),
      },
      want: {
        code: "dangling-ref",
        file: "schema.yaml",
        line: 15,
        pointer: "/components/schemas/U/discriminator/mapping/a",
        message: /discriminator mapping "#\/components\/schemas\/Alpah" does not resolve/,
        fix: /Did you mean "#\/components\/schemas\/Alpha"\?/,
      },
    },
  ],
  [
    "$ref to a missing file",
    {
      files: { "schema.yaml": openApiYaml("    A:\n      $ref: './gone.yaml#/components/schemas/A'") },
      want: {
        code: "dangling-ref",
        file: "schema.yaml",
        line: 9,
        pointer: "/components/schemas/A/$ref",
        message: /cannot be read/,
        fix: /relative to the file/,
      },
    },
  ],
  [
    "swagger 2.0 document",
    {
      files: { "schema.yaml": 'swagger: "2.0"\ninfo: { title: T, version: "1" }\npaths: {}\n' },
      want: {
        code: "not-openapi-31",
        file: "schema.yaml",
        line: 1,
        column: 1,
        pointer: "/swagger",
        message: /Swagger "2.0" \(OpenAPI 2\.0\) document; the generator reads OpenAPI 3\.0, 3\.1 and 3\.2\./,
        fix: /npx swagger2openapi/,
      },
    },
  ],
  [
    "OpenAPI 3.0.3 document that breaks the meta-schema (a typo in an operation): read as 3.1, refused at its line",
    {
      files: {
        "schema.yaml":
          "openapi: 3.0.3\ninfo: { title: T, version: '1' }\npaths:\n  /a:\n    get:\n      respnses:\n        '200': { description: ok }\n",
      },
      want: {
        code: "not-openapi-31",
        file: "schema.yaml",
        line: 6,
        column: 7,
        pointer: "/paths/~1a/get/respnses",
        message: /unknown field "respnses" in an Operation Object/,
        fix: /Did you mean "responses"\?/,
      },
    },
  ],
  [
    "OpenAPI 3.0 document: a dangling $ref in the allOf the nullable reading moves, at its line as written",
    {
      files: {
        "schema.yaml": [
          "openapi: 3.0.3",
          "info: { title: T, version: '1' }",
          "paths: {}",
          "components:",
          "  schemas:",
          "    Pet:",
          "      nullable: true",
          "      allOf:",
          "        - $ref: '#/components/schemas/Ownr'",
          "    Owner: { type: object }",
          "",
        ].join("\n"),
      },
      want: {
        code: "dangling-ref",
        file: "schema.yaml",
        line: 9,
        column: 17,
        pointer: "/components/schemas/Pet/allOf/0/$ref",
        message: /"#\/components\/schemas\/Ownr" does not resolve/,
        fix: /Did you mean "#\/components\/schemas\/Owner"\?/,
      },
    },
  ],
  [
    "OpenAPI 3.0 document: a bad keyword value beside an `example` and a boolean exclusiveMinimum, at its line as written",
    {
      files: {
        "schema.yaml": [
          "openapi: 3.0.0",
          "info: { title: T, version: '1' }",
          "paths: {}",
          "components:",
          "  schemas:",
          "    Age:",
          "      type: integer",
          "      example: 3",
          "      minimum: 0",
          "      exclusiveMinimum: true",
          "      maximum: many",
          "",
        ].join("\n"),
      },
      want: {
        code: "invalid-json-schema",
        file: "schema.yaml",
        line: 11,
        column: 16,
        pointer: "/components/schemas/Age/maximum",
        message: /"maximum" must be number/,
        fix: /JSON Schema 2020-12/,
      },
    },
  ],
  [
    "OpenAPI 3.1 document that breaks the meta-schema (a typo in an operation)",
    {
      files: {
        "schema.yaml":
          "openapi: 3.1.0\ninfo: { title: T, version: '1' }\npaths:\n  /a:\n    get:\n      respnses:\n        '200': { description: ok }\n",
      },
      want: {
        code: "not-openapi-31",
        file: "schema.yaml",
        line: 6,
        column: 7,
        pointer: "/paths/~1a/get/respnses",
        message: /unknown field "respnses" in an Operation Object/,
        fix: /Did you mean "responses"\?/,
      },
    },
  ],
  [
    "schema with `type: strnig`",
    {
      files: {
        "schema.yaml": openApiYaml(
          "    Name:\n      type: object\n      properties:\n        first:\n          type: strnig",
        ),
      },
      want: {
        code: "invalid-json-schema",
        file: "schema.yaml",
        line: 12,
        column: 17,
        pointer: "/components/schemas/Name/properties/first/type",
        message: /"type" is "strnig"; it must be one of/,
        fix: /Did you mean "string"\?/,
      },
    },
  ],
  [
    "component name the OpenAPI pattern refuses: the place is its key, not the first component's",
    {
      files: { "schema.yaml": openApiYaml('    Good:\n      type: string\n    "Bad name":\n      type: string') },
      want: {
        code: "not-openapi-31",
        file: "schema.yaml",
        line: 10,
        column: 5,
        pointer: "/components/schemas/Bad name",
        message: /the name "Bad name" in "schemas" must match pattern/,
        fix: /OpenAPI 3\.1 specification/,
      },
    },
  ],
  [
    "schema with an unknown keyword",
    {
      files: { "schema.yaml": openApiYaml("    Name:\n      type: object\n      requird: [first]") },
      want: {
        code: "invalid-json-schema",
        file: "schema.yaml",
        line: 10,
        column: 7,
        pointer: "/components/schemas/Name/requird",
        message: /unknown keyword "requird"/,
        fix: /Did you mean "required"\?/,
      },
    },
  ],
  [
    "schema with an OpenAPI 3.0 `nullable` that is no boolean",
    {
      files: { "schema.yaml": openApiYaml('    Name:\n      type: string\n      nullable: "yes"') },
      want: {
        code: "invalid-json-schema",
        file: "schema.yaml",
        line: 10,
        pointer: "/components/schemas/Name/nullable",
        message: /keyword "nullable": value "yes" is no boolean/,
        fix: /type: \[T, "null"\]/,
      },
    },
  ],
  [
    "vendor keyword with a value of the wrong shape",
    {
      files: { "schema.yaml": openApiYaml('    Name:\n      type: string\n      x-max-utf8-bytes: "8k"') },
      want: {
        code: "invalid-json-schema",
        file: "schema.yaml",
        line: 10,
        pointer: "/components/schemas/Name/x-max-utf8-bytes",
        message: /x-max-utf8-bytes.*must be integer/,
        fix: /mantyx-wire keywords/,
      },
    },
  ],
  [
    "pattern that is not a regular expression",
    {
      files: { "schema.yaml": openApiYaml('    Name:\n      type: string\n      pattern: "([a-z]"') },
      want: {
        code: "invalid-json-schema",
        file: "schema.yaml",
        line: 10,
        pointer: "/components/schemas/Name/pattern",
        message: /not a valid regular expression/,
        fix: /regex/,
      },
    },
  ],
  [
    "x-pagination naming a query parameter the list operation does not declare",
    {
      files: { "schema.yaml": paginated("{ cursorParam: page, nextCursor: nextCursor, items: runs }") },
      want: {
        code: "invalid-json-schema",
        file: "schema.yaml",
        line: 8,
        pointer: "/paths/~1runs/get/x-pagination/cursorParam",
        message: /cursorParam "page" is not a query parameter of GET \/runs/,
        fix: /x-pagination/,
      },
    },
  ],
  [
    "x-pagination naming an items property the 200 answer lacks",
    {
      files: { "schema.yaml": paginated("{ cursorParam: cursor, nextCursor: nextCursor, items: sessions }") },
      want: {
        code: "invalid-json-schema",
        file: "schema.yaml",
        line: 8,
        pointer: "/paths/~1runs/get/x-pagination/items",
        message: /items "sessions" is not a property of the 200 application\/json answer of GET \/runs/,
        fix: /x-pagination/,
      },
    },
  ],
  [
    "x-pagination that is not the three names",
    {
      files: { "schema.yaml": paginated("{ cursorParam: cursor }") },
      want: {
        code: "invalid-json-schema",
        file: "schema.yaml",
        line: 8,
        pointer: "/paths/~1runs/get/x-pagination",
        message: /three non-empty strings/,
        fix: /x-pagination/,
      },
    },
  ],
];

describe("schema load errors", () => {
  test.each(cases)("%s", async (_name, { files, entry, want }) => {
    const error = await loadError(files, entry);
    const problem = error.problems[0];
    expect(error.code).toBe(want.code);
    expect(problem.file).toBe(want.file);
    if (want.line !== undefined) expect(problem.line).toBe(want.line);
    if (want.column !== undefined) expect(problem.column).toBe(want.column);
    if (want.pointer !== undefined) expect(problem.pointer).toBe(want.pointer);
    expect(problem.message).toMatch(want.message);
    expect(problem.fix ?? error.fix).toMatch(want.fix);
  });

  test("every dangling ref is reported, not only the first", async () => {
    const error = await loadError({
      "schema.yaml": openApiYaml(
        "    A:\n      properties:\n        b: { $ref: '#/components/schemas/B' }\n        c: { $ref: '#/components/schemas/C' }",
      ),
    });
    expect(error.problems.map((p) => p.pointer)).toEqual([
      "/components/schemas/A/properties/b/$ref",
      "/components/schemas/A/properties/c/$ref",
    ]);
  });

  test("the printed error is one screen: place, excerpt with caret, message, fix, no stack trace", async () => {
    const error = await loadError({ "schema.yaml": openApiYaml("    A:\n      $ref: '#/components/schemas/B'") });
    const text = formatError(error);
    expect(text).toBe(
      [
        "error[dangling-ref]: 1 problem in the schema",
        "",
        "  --> schema.yaml:9:13  at #/components/schemas/A/$ref",
        "  8 |     A:",
        "  9 |       $ref: '#/components/schemas/B'",
        "    |             ^",
        '  $ref "#/components/schemas/B" does not resolve: "#/components/schemas" has no "B".',
        '  fix: Point it at an existing entry or add "B" under "#/components/schemas".',
      ].join("\n"),
    );
    expect(formatError(error, { debug: true })).toContain("at loadSchema");
  });

  test("a problem on a very long line (minified JSON) shows a window of it around the column, cut with …, the caret under its character", async () => {
    // One line: 2,000 filler components, a dangling $ref, 50 more.
    const filler = (from: number, count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`S${from + i}`, { type: "string" }]));
    const document = {
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: {},
      components: {
        schemas: { ...filler(0, 2000), Last: { $ref: "#/components/schemas/Nowhere" }, ...filler(2000, 50) },
      },
    };
    const text = JSON.stringify(document);
    const error = await loadError({ "schema.json": text }, "schema.json");
    const problem = error.problems[0];
    expect(problem.line).toBe(1);
    const lines = problem.excerpt!.split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(200);
    const shown = lines[0]!.slice("1 | ".length);
    expect(shown.startsWith("\u2026") && shown.endsWith("\u2026")).toBe(true);
    const caret = lines[1]!.indexOf("^") - "  | ".length;
    // The caret's character in the window is the column's character in the file.
    expect(shown[caret]).toBe(text[problem.column! - 1]);
    expect(shown).toContain("#/components/schemas/Nowhere");
    expect(formatError(error).length).toBeLessThan(1000);
  });

  test("$ref-shaped data inside examples, const and enum is not a reference", async () => {
    const dir = writeTree({
      "schema.yaml": openApiYaml(
        "    A:\n      type: object\n      properties:\n        $ref: { type: string }\n      const: { $ref: '#/nowhere' }\n      examples: [{ $ref: '#/nowhere' }]",
      ),
    });
    await expect(loadSchema("schema.yaml", { cwd: dir })).resolves.toMatchObject({
      schemas: { A: { type: "object" } },
    });
  });
});

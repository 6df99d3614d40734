/**
 * What documents written for OpenAPI 3.0 carry into 3.1, read as their
 * authors meant and never a failed run: `nullable: true` beside a `type` adds
 * `null` to it (types and validators agree; as openapi-typescript reads
 * it), and means nothing without one, as in 3.0; a keyword of no dialect
 * (`faker`) is, as JSON Schema says of unknown keywords, an annotation. Each
 * gets a warning at its line. A misspelt keyword (`maxLenght`) stays an
 * error (test/generator/broken.test.ts).
 */
import path from "node:path";
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { emittedValidator, genAll, writeTree } from "../support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: T, version: "1" }
paths: {}
components:
  schemas:
    Order:
      type: object
      properties:
        note: { type: string, nullable: true }
        state: { type: string, enum: [open, closed], nullable: true }
        sizes: { type: [integer, string], nullable: true }
        plain: { type: string, nullable: false }
        ref: { $ref: "#/components/schemas/Code", nullable: true }
        count: { type: integer, faker: number.int }
    Code: { type: string }
`;

test("nullable: true adds null to a type (with a warning); without a type it means nothing (a warning); an unknown keyword is an annotation (a warning)", async () => {
  const run = await genAll(path.join(writeTree({ "schema.yaml": SCHEMA }), "schema.yaml"));
  const { out } = run;
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toMatch(/internal error|error\[/);
  const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning"));
  expect(warnings).toEqual([
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:14:33: `faker` is no keyword of JSON Schema 2020-12 or OpenAPI 3\.1; .* name it `x-faker`\. \(at #\/components\/schemas\/Order\/properties\/count\/faker\)$/,
    ),
    expect.stringMatching(
      /^warning\[types\]: schema\.yaml:9:31: OpenAPI 3\.0's `nullable: true` \(3 schema\(s\), first shown\) is no 3\.1 keyword; .*Write `type: \[T, "null"\]` instead\. \(at #\/components\/schemas\/Order\/properties\/note\/nullable\)$/,
    ),
    expect.stringMatching(
      /^warning\[types\]: schema\.yaml:13:51: `nullable: true` without a `type` \(1 schema\(s\), first shown\) means nothing/,
    ),
  ]);

  const types = readFileSync(path.join(out, "types.ts"), "utf8");
  expect(types).toContain("note?: string | null;");
  expect(types).toContain('state?: "open" | "closed" | null;');
  expect(types).toMatch(/sizes\?: (number \| string|string \| number) \| null;/);
  expect(types).toContain("plain?: string;");
  expect(types).toContain("ref?: Code;");
  expect(types).toContain("count?: number;");

  const validateOrder = await emittedValidator(out, "Order");
  expect(validateOrder({ note: null, state: null, sizes: null })).toBe(true);
  expect(validateOrder({ note: "n", state: "open", sizes: 3 })).toBe(true);
  expect(validateOrder({ state: "other" })).toBe(false);
  expect(validateOrder({ plain: null })).toBe(false);
  expect(validateOrder({ ref: null })).toBe(false); // no type: nullable adds nothing
  expect(validateOrder({ count: 2 })).toBe(true); // `faker` asserts nothing
  expect(validateOrder({ count: "2" })).toBe(false);
});

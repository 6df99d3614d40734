/**
 * What the generator cannot represent becomes `unknown` for that one
 * schema, with a warning naming file:line:col, and the run succeeds; an
 * `x-` keyword it does not know is an annotation, with a warning.
 */
import path from "node:path";
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { genAll, writeTree } from "../support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: T, version: "1" }
paths: {}
components:
  schemas:
    Tree:
      type: object
      properties:
        child:
          type: object
          properties:
            child:
              $ref: "#/components/schemas/Tree/properties/child"
    Generic:
      type: object
      properties:
        items:
          type: array
          items:
            $dynamicRef: "#nowhere"
    Tagged:
      type: string
      x-vendor-hint: 3
`;

test("a $ref cycle through the middle of a schema and a $dynamicRef without anchor are unknown there, with warnings at their lines; an unknown x- keyword is an annotation", async () => {
  const run = await genAll(path.join(writeTree({ "schema.yaml": SCHEMA }), "schema.yaml"));
  const { out } = run;
  expect(run.code).toBe(0);
  const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning"));
  // Components in name order; each place is the key of the schema that became unknown (the repeated one for the cycle).
  expect(warnings).toEqual([
    expect.stringMatching(
      /^warning\[types\]: schema\.yaml:19:11: `\$dynamicRef: #nowhere` names no `\$dynamicAnchor` of its component; .*\(at #\/components\/schemas\/Generic\/properties\/items\/items\)$/,
    ),
    expect.stringMatching(
      /^warning\[types\]: schema\.yaml:12:13: `\$ref: #\/components\/schemas\/Tree\/properties\/child` refers back into itself through the middle of a schema/,
    ),
    expect.stringMatching(
      /^warning\[validators\]: schema\.yaml:23:7: `x-vendor-hint` is no vendor keyword the generator knows/,
    ),
  ]);
  const types = readFileSync(path.join(out, "types.ts"), "utf8");
  expect(types).toMatch(/export interface Generic \{\n {2}items\?: unknown\[\];/);
  expect(types).toContain("child?: { child?: unknown; [key: string]: unknown };");
  expect(types).toContain("export type Tagged = string;");
});

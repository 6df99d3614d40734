/**
 * `prefixItems` without `minItems`, valid JSON Schema 2020-12 that
 * documents written elsewhere use (ajv's strict mode refused it as a lint):
 * generates, and its validators and types say what the schema says: a
 * tuple's items past `minItems` may be missing; without `items: false`,
 * more may follow.
 */
import path from "node:path";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { EMITTERS } from "../../../generator/emit/index.js";
import { cli, runtimeFor, tempDir, writeTree } from "../support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: T, version: "1" }
paths: {}
components:
  schemas:
    Open:
      type: array
      prefixItems: [{ type: string }, { type: integer }]
    Closed:
      type: array
      prefixItems: [{ type: string }, { type: [integer, "null"] }]
      items: false
      minItems: 1
`;

test("prefixItems without minItems: gen succeeds, trailing items may be missing, types say so", async () => {
  const dir = writeTree({ "schema.yaml": SCHEMA });
  const out = tempDir();
  const run = await cli(["gen", "--schema", "schema.yaml", "--out", out, "--runtime", runtimeFor(out)], dir, EMITTERS);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toMatch(/warning|error/);
  const types = readFileSync(path.join(out, "types.ts"), "utf8");
  expect(types).toContain("export type Closed = [string, (number | null)?];");
  expect(types).toContain("export type Open = unknown[];");
  const load = async (file: string, name: string): Promise<(data: unknown) => boolean> =>
    ((await import(pathToFileURL(path.join(out, "validators", file)).href)) as Record<string, (data: unknown) => boolean>)[name]!;
  const open = await load("open.js", "validateOpen");
  const closed = await load("closed.js", "validateClosed");
  expect([[], ["a"], ["a", 1], ["a", 1, true]].map(open)).toEqual([true, true, true, true]);
  expect([[1], ["a", "b"]].map(open)).toEqual([false, false]);
  expect([["a"], ["a", null], ["a", 2]].map(closed)).toEqual([true, true, true]);
  expect([[], ["a", 2, 3], [1]].map(closed)).toEqual([false, false, false]);
});

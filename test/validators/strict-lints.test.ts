/**
 * The validators compile with ajv's lints for schema authors off (a valid
 * document written elsewhere may break them: ./ajv.ts in
 * generator/emit/validators). This repository's own schema passes every
 * one: each component at each level compiles under `strictSchema` (no
 * keyword ignored where it stands, no unknown keyword), `strictTuples` and
 * without properties a pattern also matches. And a document that breaks
 * them generates, with validators that read those keywords as JSON Schema
 * does.
 */
import path from "node:path";
import { expect, test } from "vitest";
import { addComponents, compileComponent, createValidatorAjv } from "../../generator/emit/validators/ajv.js";
import { createLevels, levelComponents } from "../../generator/emit/validators/levels.js";
import { loadSchema } from "../../generator/load/index.js";
import { emittedValidator, genAll, REPO, writeTree } from "../generator/support.js";

test("schema/openapi.yaml passes ajv's author lints at every level", async () => {
  const model = await loadSchema(path.join(REPO, "schema/openapi.yaml"));
  for (const level of ["strict", "receive"] as const) {
    const ajv = createValidatorAjv({
      validateSchema: false,
      strictSchema: true,
      strictTuples: true,
      allowMatchingProperties: false,
    });
    addComponents(ajv, createLevels(model).prepared(level), { prepare: false });
    const names = level === "receive" ? levelComponents(model, "receive") : levelComponents(model, "strict");
    for (const name of names) expect(() => compileComponent(ajv, name), `${level} ${name}`).not.toThrow();
    expect(names.length).toBeGreaterThan(level === "receive" ? 5 : 100);
  }
}, 60_000);

const LINTED = `openapi: 3.1.0
info: { title: T, version: "1" }
paths: {}
components:
  schemas:
    Then:
      type: object
      then: { required: [a] }
    Contains:
      type: array
      maxContains: 1
`;

// (Tuples without minItems and properties a pattern also matches: test/generator/foreign/tuples-and-patterns.test.ts.)
test("a document with keywords ignored where they stand generates, and they are ignored", async () => {
  const run = await genAll(path.join(writeTree({ "schema.yaml": LINTED }), "schema.yaml"));
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toMatch(/warning|error/);
  expect((await emittedValidator(run.out, "Then"))({})).toBe(true);
  const contains = await emittedValidator(run.out, "Contains");
  expect(contains([1, 2])).toBe(true);
  expect(contains({})).toBe(false);
});

/**
 * The real schema (schema/openapi.yaml): every component's `examples` and
 * every hand-written case (schema/cases/*.yaml) through live ajv and the
 * emitted validators, with identical results on both sides.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadHandCases } from "../../generator/cases/load-cases.js";
import { emitToTempDir, liveValidators, run, type EmittedValidators } from "./support/emitted.js";
import { loadSchemaFile, REPO_ROOT, SCHEMA_PATH } from "./support/load-schema.js";

const model = await loadSchemaFile(SCHEMA_PATH);
const live = liveValidators(model);
const handCases = loadHandCases(new URL("schema/cases/", REPO_ROOT).pathname);
const examples = Object.entries(model.schemas).flatMap(([name, schema]) =>
  ((schema.examples as unknown[] | undefined) ?? []).map((data, i) => [`${name} example ${i}`, name, data] as const),
);
let emitted: EmittedValidators;

beforeAll(async () => {
  emitted = await emitToTempDir(model);
});

describe("component examples", () => {
  it("there are examples to check", () => {
    expect(examples.length).toBeGreaterThan(100);
  });

  it.each(examples)("%s is valid", async (_label, name, data) => {
    const fromEmitted = run(await emitted.get(name), data);
    expect(fromEmitted).toEqual({ valid: true, errors: null });
    expect(run(live(name), data)).toEqual(fromEmitted);
  });
});

describe("hand-written cases (schema/cases)", () => {
  it.each(handCases.map((c) => [c.description, c] as const))("%s", async (_description, c) => {
    const fromEmitted = run(await emitted.get(c.schema), c.data);
    expect(run(live(c.schema), c.data)).toEqual(fromEmitted);
    expect(fromEmitted.valid).toBe(c.valid);
    if (!c.valid && c.rule !== undefined) {
      // `rule` is the keyword that rejects; in a oneOf/anyOf without
      // discriminator it may be a branch's issue or the union's own one.
      const issues = (fromEmitted.errors ?? []).map((e) => ({ keyword: e.keyword, instancePath: e.instancePath }));
      expect(issues).toContainEqual({ keyword: c.rule, instancePath: c.path ?? expect.any(String) });
    }
  });
});

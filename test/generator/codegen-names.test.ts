/**
 * generator/emit/validators/codegen-names.ts replaces how ajv's optimizer
 * counts variable uses with a faster walk. The code ajv leaves must be the
 * same to the byte: every component of the MANTYX schema, at every level,
 * compiled with ajv's own counting and with this one.
 */
import { describe, expect, test } from "vitest";
import { addComponents, compileComponent, createValidatorAjv } from "../../generator/emit/validators/ajv.js";
import { useAjvCodegenNames, useFastCodegenNames } from "../../generator/emit/validators/codegen-names.js";
import { loadSchema } from "../../generator/load/index.js";
import { REPO } from "./support.js";

type Source = { source?: { validateCode: string } };

async function compiledCode(fast: boolean, level: "strict" | "receive", allErrors: boolean): Promise<string[]> {
  const model = await loadSchema("schema/openapi.yaml", { cwd: REPO });
  const ajv = createValidatorAjv({ validateSchema: false, allErrors });
  if (fast) expect(useFastCodegenNames()).toBe(true);
  else useAjvCodegenNames();
  addComponents(ajv, model.schemas, { level });
  return Object.keys(model.schemas)
    .sort()
    .map((name) => (compileComponent(ajv, name) as unknown as Source).source!.validateCode);
}

describe("ajv's variable counts, the faster way", () => {
  test.each([
    ["strict", false],
    ["all-errors", true],
  ] as const)("the %s level compiles to the same code", async (_level, allErrors) => {
    const ajvs = await compiledCode(false, "strict", allErrors);
    const fast = await compiledCode(true, "strict", allErrors);
    expect(fast.length).toBeGreaterThan(100);
    expect(fast).toEqual(ajvs);
  });

  test("the receive level compiles to the same code", async () => {
    expect(await compiledCode(true, "receive", false)).toEqual(await compiledCode(false, "receive", false));
  });
});

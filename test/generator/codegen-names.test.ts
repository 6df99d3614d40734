/**
 * generator/emit/validators/codegen-names.ts replaces how ajv's optimizer
 * counts variable uses with a faster walk. The code ajv leaves must be the
 * same to the byte: every component of the MANTYX schema, at every level,
 * compiled with ajv's own counting and with this one. And it must turn on
 * where it runs: in the published bin, bundled by esbuild, which renames
 * ajv's classes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
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

describe("in a bundle", () => {
  test("it turns on when esbuild has bundled ajv as the published bin does (its class names changed: `If` is `_If`)", async () => {
    const dir = mkdtempSync(path.join(REPO, "generator", ".test-bin-names-"));
    try {
      const outfile = path.join(dir, "names.mjs");
      // The options of generator/scripts/build.mjs that shape ajv's code.
      await build({
        entryPoints: [path.join(REPO, "generator/emit/validators/codegen-names.ts")],
        outfile,
        bundle: true,
        format: "esm",
        platform: "node",
        target: "node20",
        logLevel: "warning",
      });
      const bundled = (await import(
        pathToFileURL(outfile).href
      )) as typeof import("../../generator/emit/validators/codegen-names.js");
      expect(bundled.useFastCodegenNames()).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The checks every real document written by others gets (documents.test.ts
 * for OpenAPI 3.1/3.2, documents-30.test.ts for 3.0): `gen` exits 0 with the
 * default emitters, the output passes `tsc --strict` (NodeNext and
 * bundler), every component schema openapi-typescript names becomes a named
 * type and every operation it lists a client method, and the schemas that
 * degrade to `unknown` are listed one by one (at most 5% of the components).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { clientReport } from "../../../generator/emit/client.js";
import { EMITTERS } from "../../../generator/emit/index.js";
import { methodNameOf } from "../../../generator/emit/operation-names.js";
import { operationsOf } from "../../../generator/emit/operations.js";
import { typeDegradations } from "../../../generator/emit/types.js";
import { typeName } from "../../../generator/emit/types/names.js";
import { loadSchema } from "../../../generator/load/index.js";
import { cli, REPO, runtimeFor, tempDir, type CliRun } from "../support.js";
import type { ForeignDocument } from "./documents.js";
import { generatedCoverage, referenceCoverage } from "./reference.js";
import { RESOLUTIONS, tsc, writeStrictProject } from "./support.js";

/** `DEGRADED`: every schema each document's output has as `unknown` (or partly), by pointer, the full list; `LEFT_OUT`: the warnings each gets about what the client leaves out, in full. */
export function foreignDocumentSuite(
  FOREIGN_DOCUMENTS: readonly ForeignDocument[],
  DEGRADED: Record<string, string[]>,
  LEFT_OUT: Record<string, RegExp[]>,
): void {
  const root = tempDir();
  const runs = new Map<string, CliRun>();
  const outOf = (name: string): string => path.join(root, name);

  beforeAll(async () => {
    for (const doc of FOREIGN_DOCUMENTS) {
      const out = outOf(doc.name);
      // The generated code imports the runtime contract from this repository's source.
      const runtime = runtimeFor(out);
      runs.set(doc.name, await cli(["gen", "--schema", doc.file, "--out", out, "--runtime", runtime], REPO, EMITTERS));
    }
  }, 240_000);

  describe.each(FOREIGN_DOCUMENTS.map((doc) => [doc.name, doc] as const))("%s", (name, doc) => {
    test("gen exits 0; what it leaves out is a warning naming file:line:col, never an error", () => {
      const run = runs.get(name)!;
      expect(run.stderr).not.toMatch(/^error|internal error/m);
      expect(run.code).toBe(0);
      const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning[client]"));
      expect(warnings).toHaveLength(LEFT_OUT[name]!.length);
      LEFT_OUT[name]!.forEach((want, i) => {
        expect(warnings[i]).toMatch(want);
        expect(warnings[i]).toMatch(/\.(yaml|json):\d+:\d+: /);
      });
      // The MANTYX-only emitters are skipped with an info line each.
      expect(run.stderr).toContain("info[fixtures]: skipped:");
      expect(run.stderr).toContain("info[transcript]: skipped:");
    });

    test("every component openapi-typescript names is a named type; every operation it lists is a client method", async () => {
      if (doc.referenceRefuses !== undefined) {
        // Nothing to compare with: openapi-typescript refuses the document that gen reads.
        await expect(referenceCoverage(doc.file)).rejects.toThrow(doc.referenceRefuses);
        return;
      }
      const reference = await referenceCoverage(doc.file);
      const out = outOf(name);
      const { types, methods } = generatedCoverage(
        readFileSync(path.join(out, "types.ts"), "utf8"),
        readFileSync(path.join(out, "client.ts"), "utf8"),
        "ApiClient",
      );
      expect(reference.schemas.filter((schema) => !types.has(typeName(schema)))).toEqual([]);
      const model = await loadSchema(doc.file);
      const byOperation = new Map(
        operationsOf(model.document).map((entry) => [
          `${entry.method.toUpperCase()} ${entry.path}`,
          methodNameOf(entry),
        ]),
      );
      expect([...byOperation.keys()].sort()).toEqual(reference.operations);
      expect([...byOperation.values()].filter((method) => !methods.has(method))).toEqual([]);
      expect(methods.size).toBe(reference.operations.length);
    }, 120_000);

    test("the schemas degraded to unknown are exactly the listed ones, at most 5% of the components", async () => {
      const model = await loadSchema(doc.file);
      const degraded = [...typeDegradations(model), ...clientReport(model).degraded].map((d) => d.pointer);
      expect(degraded).toEqual(DEGRADED[name]);
      const components = new Set(
        degraded.filter((p) => p.startsWith("/components/schemas/")).map((p) => p.split("/")[3]),
      );
      expect(components.size).toBeLessThanOrEqual(Math.floor(Object.keys(model.schemas).length * 0.05));
    }, 120_000);
  });

  // Bundler resolution too: a file with no import or export is a script there (NodeNext treats every file of a "type": "module" folder as a module).
  test.each(RESOLUTIONS)(
    "the output of every document passes tsc --strict (%s)",
    (resolution) => {
      const tsconfig = writeStrictProject(root, {
        include: FOREIGN_DOCUMENTS.map((doc) => `${doc.name}/**/*.ts`),
        resolution,
        file: `tsconfig.${resolution}.json`,
      });
      expect(tsc(tsconfig)).toBe("");
      const output = tsc(tsconfig, ["--listFilesOnly"]);
      // It did check every document's client and types.
      for (const doc of FOREIGN_DOCUMENTS) {
        expect(output).toContain(path.join(root, doc.name, "client.ts"));
        expect(output).toContain(path.join(root, doc.name, "types.ts"));
      }
    },
    120_000,
  );
}

/**
 * Runs the type-level tests (test/types/*.ts against generated/types.ts)
 * through strict tsc, so `vitest run` covers them: a narrowing that stops
 * working, or a wrong shape that starts compiling (an unused
 * `@ts-expect-error`), fails this test with tsc's message.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const TSC = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));

test("generated types narrow and reject wrong shapes (tsc --noEmit -p test/types/tsconfig.json)", () => {
  const run = spawnSync(process.execPath, [TSC, "--noEmit", "-p", "test/types/tsconfig.json"], {
    cwd: REPO,
    encoding: "utf8",
  });
  expect(`${run.stdout}${run.stderr}`).toBe("");
  expect(run.status).toBe(0);
}, 120_000);

/**
 * The bin's `gen` raises V8's interrupt budget for its own process
 * (generator/jit.ts), so TurboFan optimizes only the hottest functions of
 * the one short run instead of ~240 of them on background threads; a budget
 * given to node stays as given. Counted with `--trace-opt` (V8 prints one
 * `[marking ...]` line per function it queues for optimization): the count
 * depends on how much bytecode runs, not on the clock.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtBin, REPO, tempDir } from "./support.js";

function functionsOptimized(nodeFlags: readonly string[]): number {
  const out = path.join(tempDir(), "generated");
  const run = spawnSync(
    process.execPath,
    ["--trace-opt", ...nodeFlags, builtBin(), "gen", "--schema", "schema/openapi.yaml", "--out", out],
    {
      cwd: REPO,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      // One thread: the level thread's functions would be counted too, and whether it starts depends on the machine's load.
      env: { ...process.env, MANTYX_WIRE_LEVEL_THREAD: "off" },
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split("\n").filter((line) => line.startsWith("[marking ")).length;
}

describe("gen's interrupt budget", () => {
  it("the bin's gen queues far fewer functions for TurboFan than node's default budget, which a flag given to node keeps", () => {
    const tuned = functionsOptimized([]);
    const asGiven = functionsOptimized(["--interrupt-budget=67584"]);
    expect(asGiven).toBeGreaterThan(100);
    expect(tuned * 3).toBeLessThan(asGiven);
  }, 120_000);
});

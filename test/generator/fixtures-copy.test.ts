/**
 * `gen --fixtures-copy <dir>`: the suite written again, byte for byte, where a
 * Go module embeds it and a wheel ships it; `--check` reports a copy that
 * drifted; a copy folder that overlaps `--out` (whose writer deletes what it
 * did not generate) or a document without a suite is a typed error.
 */
import { appendFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { fixturesEmitter } from "../../generator/emit/fixtures.js";
import { cli, MINI, readTree, REPO, tempDir } from "./support.js";

const SCHEMA = "schema/openapi.yaml";
const ONLY_FIXTURES = [fixturesEmitter];

describe("gen --fixtures-copy", () => {
  test("each copy is the output's fixtures/ byte for byte, and --check names a copy that drifted", async () => {
    const dir = tempDir();
    const out = path.join(dir, "out");
    const copies = [path.join(dir, "go", "fixtures"), path.join(dir, "py", "pkg", "fixtures")];
    const args = ["gen", "--schema", SCHEMA, "--out", out, ...copies.flatMap((c) => ["--fixtures-copy", c])];
    const run = await cli(args, REPO, ONLY_FIXTURES);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const suite = readTree(path.join(out, "fixtures"));
    expect(suite.has("manifest.json")).toBe(true);
    for (const copy of copies) expect(readTree(copy)).toEqual(suite);

    const fresh = await cli([...args, "--check"], REPO, ONLY_FIXTURES);
    expect(fresh.code).toBe(0);
    appendFileSync(path.join(copies[1]!, "sse", "framing.json"), " ");
    const drifted = await cli([...args, "--check"], REPO, ONLY_FIXTURES);
    expect(drifted.code).toBe(1);
    expect(drifted.stderr).toContain(`stale    ${path.relative(REPO, copies[1]!)}/sse/framing.json`);
    expect(drifted.stderr).not.toContain(`stale    ${path.relative(REPO, copies[0]!)}`);
    expect(drifted.stderr).toContain(
      `--fixtures-copy ${path.relative(REPO, copies[0]!)} --fixtures-copy ${path.relative(REPO, copies[1]!)}`,
    );
  }, 90_000);

  test("a copy inside --out, or around it, is refused before anything is written", async () => {
    const dir = tempDir();
    const out = path.join(dir, "out");
    for (const copy of [path.join(out, "fixtures"), dir]) {
      const run = await cli(["gen", "--schema", SCHEMA, "--out", out, "--fixtures-copy", copy], REPO, ONLY_FIXTURES);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("error[fixtures-copy]");
      expect(run.stderr).toContain("may not be the output folder");
    }
    expect(existsSync(out)).toBe(false);
  });

  test("a document without a fixture suite cannot be copied", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "copy"));
    const run = await cli([
      "gen",
      "--schema",
      path.relative(REPO, MINI),
      "--out",
      path.join(dir, "out"),
      "--fixtures-copy",
      path.join(dir, "copy"),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error[fixtures-copy]");
    expect(run.stderr).toContain("x-fixture-suite");
  });
});

/** Helpers for the generator tests: temp folders, schema files, running the CLI in-process. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { runCli } from "../../generator/cli.js";
import { EMITTERS, openApiJsonEmitter } from "../../generator/emit/index.js";
import { typesEmitter } from "../../generator/emit/types.js";
import type { Emitter } from "../../generator/model.js";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const MINI = path.join(REPO, "test/generator/fixtures/mini.yaml");

export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), "mantyx-wire-test-"));
}

/** Write `files` (relative path -> text) under a fresh temp folder; returns the folder. */
export function writeTree(files: Record<string, string>, dir = tempDir()): string {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** A valid OpenAPI 3.1 document (YAML) with the given `components.schemas` block, indented under `schemas:`. */
export function openApiYaml(schemas: string): string {
  return ["openapi: 3.1.0", "info:", "  title: T", "  version: 1.0.0", "paths: {}", "components:", "  schemas:", schemas].join("\n") + "\n";
}

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The emitters the CLI tests run: this module's own. The other emitters have
 * their own tests, and rules about the real schema (operation shapes, the
 * transcript) that the mini fixture does not follow.
 */
export const OWN_EMITTERS: readonly Emitter[] = [openApiJsonEmitter, typesEmitter];

export async function cli(args: string[], cwd = REPO, emitters: readonly Emitter[] = OWN_EMITTERS): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, { cwd, emitters, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

/** The `--runtime` of code generated into `out` that imports this repository's runtime contract (its source) relatively. */
export function runtimeFor(out: string): string {
  return path.relative(out, path.join(REPO, "runtime/codegen/v1.js")).split(path.sep).join("/");
}

/**
 * `gen` of every artefact of `schema` into `out` (a fresh folder by
 * default), importing this repository's runtime; fails the test unless it
 * exits 0 with no error and no warning. Returns `out`.
 */
export async function genQuietly(schema: string, out = tempDir()): Promise<string> {
  const run = await cli(["gen", "--schema", schema, "--out", out, "--runtime", runtimeFor(out)], REPO, EMITTERS);
  expect(run.stderr).not.toMatch(/^(error|warning)/m);
  expect(run.code).toBe(0);
  return out;
}

/** Every file below `dir`, by its `/`-separated path relative to `dir`, sorted, with its text. */
export function readTree(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
  return new Map(files.map((file) => [file, readFileSync(path.join(dir, file), "utf8")]));
}

/**
 * The published `mantyx-wire` command, built from the sources as `npm pack`
 * builds it (generator/scripts/build.mjs), into a folder of its own under
 * generator/ (so its dependency imports resolve as in an install). Built once
 * per test file; returns the path of its `mantyx-wire.js`.
 */
let built: string | undefined;
export function builtBin(): string {
  if (built === undefined) {
    const out = mkdtempSync(path.join(REPO, "generator", ".test-bin-"));
    execFileSync(process.execPath, [path.join(REPO, "generator/scripts/build.mjs"), out], { stdio: "pipe" });
    built = path.join(out, "mantyx-wire.js");
  }
  return built;
}

/** Helpers for the generator tests: temp folders, schema files, running the CLI in-process. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect } from "vitest";
import { runCli } from "../../generator/cli.js";
import { EMITTERS, openApiJsonEmitter } from "../../generator/emit/index.js";
import { typesEmitter } from "../../generator/emit/types.js";
import { validatorFile, validatorName } from "../../generator/emit/validators/names.js";
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
  return `${["openapi: 3.1.0", "info:", "  title: T", "  version: 1.0.0", "paths: {}", "components:", "  schemas:", schemas].join("\n")}\n`;
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
  const code = await runCli(args, {
    cwd,
    emitters,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
  });
  return { code, stdout, stderr };
}

/** The `--runtime` of code generated into `out` that imports this repository's runtime contract (its source) relatively. */
export function runtimeFor(out: string): string {
  return path.relative(out, path.join(REPO, "runtime/codegen/v1.js")).split(path.sep).join("/");
}

/**
 * `gen` of every artefact of `schema` into `out` (a fresh folder by
 * default), importing this repository's runtime, run from the schema's
 * folder (so diagnostics name it by its file name): the run and `out`.
 */
export async function genAll(schema: string, out = tempDir()): Promise<CliRun & { out: string }> {
  const run = await cli(
    ["gen", "--schema", path.basename(schema), "--out", out, "--runtime", runtimeFor(out)],
    path.dirname(schema),
    EMITTERS,
  );
  return { ...run, out };
}

/** `genAll`, failing the test unless it exits 0 with no error and no warning. Returns `out`. */
export async function genQuietly(schema: string, out = tempDir()): Promise<string> {
  const run = await genAll(schema, out);
  expect(run.stderr).not.toMatch(/^(error|warning)/m);
  expect(run.code).toBe(0);
  return out;
}

/** Component `name`'s emitted validator in `out` (validators/<file>.js), imported. */
export async function emittedValidator(out: string, name: string): Promise<(data: unknown) => boolean> {
  const module = (await import(
    pathToFileURL(path.join(out, "validators", `${validatorFile(name)}.js`)).href
  )) as Record<string, (data: unknown) => boolean>;
  return module[validatorName(name)]!;
}

export interface LocalServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 (a free port) answering with `handler`. */
export async function localServer(handler: RequestListener): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A localServer answering 204 to everything, recording each request as `"<url> <Authorization or ->"` in `seen`: what the security tests read. */
export const authRecorder = (seen: string[]): Promise<LocalServer> =>
  localServer((request, response) => {
    seen.push(`${request.url} ${request.headers.authorization ?? "-"}`);
    response.writeHead(204).end();
  });

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

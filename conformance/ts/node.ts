/// <reference types="node" />
/**
 * `@mantyx/wire-types/conformance/node`, the runner's Node-only entry
 * (node:fs): a `SuiteSource` over a folder, the suite this package ships
 * (`generated/fixtures/`), and reading a known-failures file. Everything
 * else is in the portable `@mantyx/wire-types/conformance`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseKnownFailures } from "./known-failures.js";
import { loadSuite, SuiteError, type LoadedSuite, type SuiteSource } from "./suite.js";

export function folderSuiteSource(dir: string): SuiteSource {
  const root = resolve(dir);
  return {
    origin: root,
    read: (path) => readFileSync(join(root, ...path.split("/"))),
    list: () =>
      readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join("/")),
  };
}

/** The package's own copy of the suite: generated/fixtures/ of the package this module is in. */
export function packagedFixturesDir(): string {
  // From dist/conformance/ts/ (installed) or conformance/ts/ (the repository): the package root is the first folder up that has it.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, "generated", "fixtures");
    if (existsSync(join(candidate, "manifest.json"))) return candidate;
    dir = dirname(dir);
  }
  throw new SuiteError(`cannot find generated/fixtures/ of @mantyx/wire-types above ${fileURLToPath(import.meta.url)}`);
}

/** The suite in `dir`, else `$MANTYX_FIXTURES_DIR`, else the one this package ships; sha256-verified. */
export function loadSuiteFromDisk(dir?: string): Promise<LoadedSuite> {
  const chosen = dir ?? (process.env["MANTYX_FIXTURES_DIR"] || undefined) ?? packagedFixturesDir();
  return loadSuite(folderSuiteSource(chosen));
}

/** A known-failures file (one id per line, `#` reasons). A named file must exist. */
export function readKnownFailures(file: string): string[] {
  return parseKnownFailures(readFileSync(file, "utf8"));
}

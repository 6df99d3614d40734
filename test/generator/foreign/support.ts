/**
 * "The output passes tsc --strict": the project the generated code of a
 * foreign document is type-checked in, as a user's would be (an ES module
 * package, strict, the DOM's fetch), and the run of tsc over it. Shared by
 * the foreign-document tests, the stream idioms and the corpus run
 * (bench/corpus/run.ts), so that all of them check the same thing. It
 * imports no test runner: the corpus run loads it outside vitest.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** This repository's tsc (its bin script, run with `node`). */
export const TSC = fileURLToPath(new URL("../../../node_modules/typescript/bin/tsc", import.meta.url));

/** How imports are resolved: Node's own ESM, or a bundler's (where a file with no import or export is a script). */
export type Resolution = "NodeNext" | "bundler";

/** Both resolutions, for `test.each` / `describe.each`. */
export const RESOLUTIONS: ReadonlyArray<readonly [Resolution]> = [["NodeNext"], ["bundler"]];

const MODULE_OPTIONS: Record<Resolution, { module: string; moduleResolution: string }> = {
  NodeNext: { module: "NodeNext", moduleResolution: "NodeNext" },
  bundler: { module: "ESNext", moduleResolution: "bundler" },
};

export interface StrictProject {
  /** Globs of the files to check, relative to the folder. */
  readonly include: readonly string[];
  /** NodeNext unless said. */
  readonly resolution?: Resolution;
  /** The tsconfig's file name in the folder: `tsconfig.json` unless said (one per resolution, to check both). */
  readonly file?: string;
  /** Further compiler options (e.g. `paths`). */
  readonly compilerOptions?: Record<string, unknown>;
}

/**
 * Writes `dir`/package.json (`"type": "module"`: the generated code is ESM)
 * and a strict tsconfig checking `include`; returns the tsconfig's path.
 */
export function writeStrictProject(dir: string, project: StrictProject): string {
  const tsconfig = path.join(dir, project.file ?? "tsconfig.json");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        ...MODULE_OPTIONS[project.resolution ?? "NodeNext"],
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        noEmit: true,
        skipLibCheck: true,
        types: [],
        ...project.compilerOptions,
      },
      include: project.include,
    }),
  );
  return tsconfig;
}

/**
 * `tsc -p tsconfig` (and `args`): what it prints. "" when the project
 * type-checks; when it does not, its errors (never "", even when tsc dies
 * without a word).
 */
export function tsc(tsconfig: string, args: readonly string[] = []): string {
  try {
    return execFileSync(process.execPath, [TSC, "-p", tsconfig, ...args], { encoding: "utf8" });
  } catch (error) {
    return (error as { stdout?: string }).stdout || String(error);
  }
}

/**
 * Where generated code imports the runtime from: the one versioned contract
 * entry of `@mantyx/wire-types` (runtime/codegen/v1.ts). Every generated
 * module that needs the runtime imports this specifier and nothing else of
 * it, so a program's generated code and the installed runtime agree on one
 * stated surface; a contract with another version is another entry
 * (`codegen/v2`), and code generated against it fails to resolve, at compile
 * time and at import time, against a runtime that lacks it.
 *
 * `gen --runtime <specifier>`: a package specifier (or a `file:` URL) is
 * used as is; one that starts with `./` or `../` is a path relative to the
 * output folder (this
 * repository's own `generated/` imports `../runtime/codegen/v1.js`), made
 * relative to each file that imports it.
 */
import path from "node:path";
import type { LoadedSchema } from "../model.js";

export const DEFAULT_RUNTIME = "@mantyx/wire-types/codegen/v1";

/** The version of the contract this generator emits code for. */
export const CODEGEN_CONTRACT = 1;

/**
 * Whether generated code checks the runtime's contract revision when it is
 * imported (`requireCodegenRevision`): for a runtime imported as a package,
 * which may be installed at another version than the code was generated
 * for. A relative `--runtime` is a source path compiled along with the code
 * (this repository's `generated/` and its `runtime/` ship in one package,
 * at one version): `tsc` checks the code against it, and the check would
 * only add bytes to every bundle.
 */
export function checksRevision(model: LoadedSchema): boolean {
  const runtime = model.runtime ?? DEFAULT_RUNTIME;
  return !runtime.startsWith("./") && !runtime.startsWith("../");
}

/** The specifier `file` (a path relative to the output folder) imports the runtime contract by. */
export function runtimeImport(model: Pick<LoadedSchema, "runtime">, file: string): string {
  const runtime = model.runtime ?? DEFAULT_RUNTIME;
  if (!runtime.startsWith("./") && !runtime.startsWith("../")) return runtime;
  // Climb from the file's folder to the output folder, then follow the given path: no resolving
  // against the current directory, so a path that leaves the output folder stays what was given.
  const dir = path.posix.dirname(file);
  const up = dir === "." ? "" : "../".repeat(dir.split("/").length);
  const joined = path.posix.normalize(`${up}${runtime}`);
  return joined.startsWith(".") ? joined : `./${joined}`;
}

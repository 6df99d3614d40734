/**
 * Code the published bundle gets at build time instead of compiling it at
 * every run (generator/scripts/prebuilt-assets.ts writes it, beside the
 * bundle's entry, one folder above its chunks): the meta-schema validators
 * as ajv standalone code, the client templates precompiled by Handlebars.
 * Each is a CommonJS file, loaded with `require` (synchronously, like the
 * compile it replaces). From the sources (tsx, tests) there is none, and the
 * callers compile as before.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** The folder (beside the bundle's entry) that holds the prebuilt files. */
export const PREBUILT_DIR = "prebuilt";

const require = createRequire(import.meta.url);

/** The exports of prebuilt file `name`, or undefined when running from the sources. */
export function prebuilt<T>(name: string, here: string = import.meta.url): T | undefined {
  for (const dir of [".", ".."]) {
    const file = fileURLToPath(new URL(`${dir}/${PREBUILT_DIR}/${name}`, here));
    if (existsSync(file)) return require(file) as T;
  }
  return undefined;
}

/**
 * `LoadedSchema.sourcePath`, also before loading: a module of its own, so
 * the fixtures emitter's `prepare` can use it without loading the loader.
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** `LoadedSchema.sourcePath` of the schema `schemaPath` (relative to `cwd`), known before loading it. */
export function schemaSourcePath(schemaPath: string, cwd: string = process.cwd()): string {
  return sourcePathOf(path.resolve(cwd, schemaPath), cwd);
}

/**
 * The schema's path as written into generated headers: relative to the
 * package that holds it (nearest package.json), so the bytes do not depend on
 * the directory the generator runs from. Falls back to `cwd`.
 */
export function sourcePathOf(absolutePath: string, cwd: string): string {
  let dir = path.dirname(absolutePath);
  for (;;) {
    if (existsSync(path.join(dir, "package.json"))) return toPosix(path.relative(dir, absolutePath));
    const parent = path.dirname(dir);
    if (parent === dir) return toPosix(path.relative(cwd, absolutePath));
    dir = parent;
  }
}

export function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}

/**
 * Files the generator reads at run time. In the source tree they sit where
 * they are maintained; in the published bundle (generator/dist/, see
 * generator/scripts/build.mjs) they are copied beside the bundle's entry,
 * one folder above its chunks.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** `bundled` (a file name beside the bundle) when it exists there, else `source`. `here` is the caller's `import.meta.url`. */
export function assetUrl(source: URL, bundled: string, here: string): URL {
  for (const dir of [".", ".."]) {
    const candidate = new URL(`${dir}/${bundled}`, here);
    if (existsSync(fileURLToPath(candidate))) return candidate;
  }
  return source;
}

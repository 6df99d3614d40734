/** The generator's own name and version, from its package.json (for headers and `--version`). */
import { existsSync, readFileSync } from "node:fs";

interface PackageInfo {
  readonly name: string;
  readonly version: string;
}

let cached: PackageInfo | undefined;

/** The nearest package.json above this module: generator/package.json, from the sources and from the bundle in generator/dist/. */
export function packageInfo(): PackageInfo {
  if (!cached) {
    let url = new URL("./package.json", import.meta.url);
    for (let up = 0; up < 4 && !existsSync(url); up++) url = new URL("../package.json", url);
    const json = JSON.parse(readFileSync(url, "utf8")) as Partial<PackageInfo>;
    cached = { name: String(json.name), version: String(json.version) };
  }
  return cached;
}

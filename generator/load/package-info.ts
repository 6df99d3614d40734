/** The generator's own name and version, from package.json (for headers and `--version`). */
import { readFileSync } from "node:fs";

interface PackageInfo {
  readonly name: string;
  readonly version: string;
}

let cached: PackageInfo | undefined;

export function packageInfo(): PackageInfo {
  if (!cached) {
    const json = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as Partial<PackageInfo>;
    cached = { name: String(json.name), version: String(json.version) };
  }
  return cached;
}

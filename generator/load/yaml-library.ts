/**
 * The `yaml` package, loaded on first use. Most runs never need it: the
 * fast reading (./fast-yaml.ts) gives the data, and `yaml`'s node tree is
 * built only for a position (an error or a warning) or a file the fast
 * reading leaves to it; loading the package cost about 30 ms of every start.
 */
import { createRequire } from "node:module";

type YamlLibrary = typeof import("yaml");

const require = createRequire(import.meta.url);
let library: YamlLibrary | undefined;

export function yamlLibrary(): YamlLibrary {
  library ??= require("yaml") as YamlLibrary;
  return library;
}

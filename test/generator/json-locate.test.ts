/**
 * Positions in a `.json` schema come from a scan of its text
 * (generator/load/json-locate.ts) instead of a second parse by the `yaml`
 * package (5 s of GitHub's 13 MB REST description for one warning): the
 * scan must give what the `yaml` tree gives, for values, keys, array
 * items, and pointers that go past what exists.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { SourceFile } from "../../generator/load/source-file.js";
import { REPO } from "./support.js";

/** Every pointer down to `depth`, plus, under each object, a key that is not there. */
function pointers(value: unknown, depth: number, at: string[] = []): string[][] {
  if (depth === 0 || value === null || typeof value !== "object") return [at];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return [at, [...at, "no such key"], ...entries.flatMap(([key, v]) => pointers(v, depth - 1, [...at, key]))];
}

test.each([
  ["the bundled MANTYX schema (pretty-printed)", readFileSync(path.join(REPO, "generated/openapi.json"), "utf8")],
  [
    "a one-line JSON text with escapes, nesting and blanks",
    '{"a\\"b":{"x":[1, {"y" : "s\\\\]}"}, [2,3]],"z":null},"c":  [ ],"d":{}}\n',
  ],
])("%s: the scan agrees with the yaml tree", (_, text) => {
  const all = pointers(JSON.parse(text), 4);
  expect(all.length).toBeGreaterThan(10);
  // One yaml-backed file (a .yaml name: the same text, read as YAML); a fresh JSON one every 2 pointers (the scan answers a file's first 4 lookups).
  const yaml = SourceFile.parse(text, "/schemas/doc.yaml", "doc.yaml");
  let json = SourceFile.parse(text, "/schemas/doc.json", "doc.json");
  all.forEach((pointer, i) => {
    if (i % 2 === 0) json = SourceFile.parse(text, "/schemas/doc.json", "doc.json");
    for (const key of [false, true])
      expect([pointer, key, json.locate(pointer, { key })]).toEqual([pointer, key, yaml.locate(pointer, { key })]);
  });
});

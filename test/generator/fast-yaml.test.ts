/**
 * The fast YAML reading (generator/load/fast-yaml.ts) gives the data the
 * `yaml` package gives, or nothing: on every YAML file the tests and the
 * repository hold, and on the constructs where js-yaml would read otherwise.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { fastYamlData } from "../../generator/load/fast-yaml.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const yamlFiles = ["schema", "test"].flatMap((dir) =>
  (readdirSync(join(root, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith(".yaml") || f.endsWith(".yml"))
    .map((f) => join(dir, f)),
);

describe("fast YAML reading", () => {
  it("reads schema/openapi.yaml and the case files (it is not always declining)", () => {
    expect(fastYamlData(readFileSync(join(root, "schema/openapi.yaml"), "utf8"))).toEqual(
      parse(readFileSync(join(root, "schema/openapi.yaml"), "utf8")),
    );
    expect(yamlFiles.length).toBeGreaterThan(30);
  });

  it.each(yamlFiles)("%s: the same data as the yaml package, or declines", (file) => {
    const text = readFileSync(join(root, file), "utf8");
    const fast = fastYamlData(text);
    if (fast === undefined) return;
    expect(JSON.stringify(fast)).toBe(JSON.stringify(parse(text, { uniqueKeys: true })));
  });

  it.each([
    ["a scalar js-yaml reads as a binary number", "k: 0b11\n"],
    ["a signed hex number", "k: -0x1\n"],
    ["a float starting with a dot", "k: -.5e-3\n"],
    ["an alias of a collection (alias bombs are counted on the yaml path)", "a: &x [1, 2]\nb: *x\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
    ["an unknown tag", "a: !thing 1\n"],
    ["two documents", "a: 1\n---\nb: 2\n"],
    ["an empty file", ""],
    ["a syntax error", "a: [1, 2\n"],
  ])("declines %s", (_what, text) => {
    expect(fastYamlData(text)).toBeUndefined();
  });

  it("keeps a __proto__ key as an own key, as the yaml package does", () => {
    const fast = fastYamlData("__proto__: {a: 1}\n") as Record<string, unknown>;
    expect(Object.hasOwn(fast, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(fast)).toBe(Object.prototype);
  });
});

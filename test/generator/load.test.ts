/** The loader's model: sorted schemas, stable identity, bundling of file refs. */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { isSchemaLoadError } from "../../generator/errors.js";
import { canonicalJson } from "../../generator/load/canonical-json.js";
import { loadSchema } from "../../generator/load/index.js";
import { packageInfo } from "../../generator/load/package-info.js";
import { MINI, openApiYaml, REPO, writeTree } from "./support.js";

describe("loadSchema", () => {
  test("the mini fixture: schemas sorted by name, source path from the package root, generator version", async () => {
    const model = await loadSchema(MINI, { cwd: REPO });
    const names = Object.keys(model.schemas);
    expect(names).toEqual([...names].sort());
    expect(names).toContain("Event");
    expect(model.sourcePath).toBe("test/generator/fixtures/mini.yaml");
    expect(model.generatorVersion).toBe(packageInfo().version);
    expect(model.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("the source path and hash do not depend on the working directory", async () => {
    const fromRoot = await loadSchema(MINI, { cwd: REPO });
    const fromElsewhere = await loadSchema(MINI, { cwd: path.join(REPO, "test") });
    expect([fromElsewhere.sourcePath, fromElsewhere.hash]).toEqual([fromRoot.sourcePath, fromRoot.hash]);
  });

  test("outside any package the source path is the file name, from any working directory; sourceFile is the absolute path", async () => {
    const dir = writeTree({ "specs/api.yaml": openApiYaml("    A:\n      type: string") });
    const hasPackageAbove = (from: string): boolean => {
      for (let d = from; ; d = path.dirname(d)) {
        if (existsSync(path.join(d, "package.json"))) return true;
        if (path.dirname(d) === d) return false;
      }
    };
    const fromRoot = await loadSchema("specs/api.yaml", { cwd: dir });
    const fromInside = await loadSchema("api.yaml", { cwd: path.join(dir, "specs") });
    expect(fromRoot.sourceFile).toBe(path.join(dir, "specs/api.yaml"));
    expect(fromInside.sourceFile).toBe(fromRoot.sourceFile);
    expect(fromInside.sourcePath).toBe(fromRoot.sourcePath);
    if (!hasPackageAbove(dir)) expect(fromRoot.sourcePath).toBe("api.yaml");
    writeFileSync(path.join(dir, "package.json"), "{}\n");
    expect((await loadSchema("api.yaml", { cwd: path.join(dir, "specs") })).sourcePath).toBe("specs/api.yaml");
  });

  test("the hash is of canonical JSON: key order and YAML vs JSON do not change it", async () => {
    const dir = writeTree({
      "a.yaml": openApiYaml(
        "    A:\n      type: object\n      properties: { b: { type: string }, a: { type: integer } }",
      ),
      "b.json": JSON.stringify({
        components: {
          schemas: { A: { properties: { a: { type: "integer" }, b: { type: "string" } }, type: "object" } },
        },
        paths: {},
        info: { version: "1.0.0", title: "T" },
        openapi: "3.1.0",
      }),
    });
    const [yaml, json] = [await loadSchema("a.yaml", { cwd: dir }), await loadSchema("b.json", { cwd: dir })];
    expect(json.hash).toBe(yaml.hash);
    expect(json.document).toEqual(yaml.document);
  });

  test("canonical JSON sorts every key, integer-like ones included", () => {
    expect(canonicalJson({ b: 1, 200: [{ z: null, a: "x" }], 10: true, a: undefined })).toBe(
      '{"10":true,"200":[{"a":"x","z":null}],"b":1}',
    );
  });

  test("file refs are bundled: named schemas are hoisted under their name, other targets inlined, recursion stays a ref", async () => {
    const dir = writeTree({
      "root.yaml": openApiYaml(
        "    Run:\n      type: object\n      properties:\n        tool: { $ref: './parts/tools.yaml#/components/schemas/Tool' }\n        meta: { $ref: './parts/meta.yaml', description: Run metadata. }",
      ),
      "parts/tools.yaml":
        "components:\n  schemas:\n    Tool:\n      type: object\n      properties:\n        children:\n          type: array\n          items: { $ref: '#/components/schemas/Tool' }\n        name: { $ref: '../common.yaml#/$defs/Name' }\n",
      "parts/meta.yaml": "type: object\nadditionalProperties: { type: string }\n",
      "common.yaml": "$defs:\n  Name: { type: string, minLength: 1 }\n",
    });
    const model = await loadSchema("root.yaml", { cwd: dir });
    expect(Object.keys(model.schemas)).toEqual(["Name", "Run", "Tool"]);
    expect(model.schemas.Run!.properties).toEqual({
      tool: { $ref: "#/components/schemas/Tool" },
      meta: { type: "object", additionalProperties: { type: "string" }, description: "Run metadata." },
    });
    expect(model.schemas.Tool!.properties).toEqual({
      children: { type: "array", items: { $ref: "#/components/schemas/Tool" } },
      name: { $ref: "#/components/schemas/Name" },
    });
    expect(model.schemas.Name).toEqual({ type: "string", minLength: 1 });
  });

  test("an error inside a referenced file names that file and its line", async () => {
    const dir = writeTree({
      "root.yaml": openApiYaml("    Run:\n      $ref: './parts/tools.yaml#/components/schemas/Tool'"),
      "parts/tools.yaml":
        "components:\n  schemas:\n    Tool:\n      type: object\n      properties:\n        name: { type: strnig }\n",
    });
    const error: unknown = await loadSchema("root.yaml", { cwd: dir }).catch((e: unknown) => e);
    expect(isSchemaLoadError(error) && error.problems[0]).toMatchObject({
      file: "parts/tools.yaml",
      line: 6,
      pointer: "/components/schemas/Tool/properties/name/type",
    });
  });

  test("a cycle of inlined file refs and a URL ref are errors", async () => {
    const dir = writeTree({
      "cycle.yaml": openApiYaml("    A:\n      $ref: './a.yaml'"),
      "a.yaml": "type: object\nproperties:\n  b: { $ref: './b.yaml' }\n",
      "b.yaml": "type: object\nproperties:\n  a: { $ref: './a.yaml' }\n",
      "remote.yaml": openApiYaml("    A:\n      $ref: 'https://example.com/schema.json'"),
    });
    const cycle: unknown = await loadSchema("cycle.yaml", { cwd: dir }).catch((e: unknown) => e);
    expect(isSchemaLoadError(cycle) && [cycle.code, cycle.problems[0].file, cycle.problems[0].message]).toEqual([
      "ref-cycle",
      "b.yaml",
      expect.stringContaining("includes itself"),
    ]);
    const remote: unknown = await loadSchema("remote.yaml", { cwd: dir }).catch((e: unknown) => e);
    expect(isSchemaLoadError(remote) && [remote.code, remote.problems[0].message]).toEqual([
      "dangling-ref",
      expect.stringContaining("points at a URL"),
    ]);
  });
});

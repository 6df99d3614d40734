/**
 * The vendor keywords' values are checked once, by the loader
 * (generator/load/validate-schemas.ts, with the keywords' own meta-schemas).
 * The validators' level instances, which skip meta-schema checks, do not
 * compile those meta-schemas again (three instances a run paid for them);
 * an instance that checks schemas still checks the values itself.
 */
import { describe, expect, test } from "vitest";
import { assertingKeywords } from "../../generator/keywords/index.js";
import { createValidatorAjv } from "../../generator/emit/validators/ajv.js";
import { cli, openApiYaml, writeTree } from "./support.js";

describe("vendor keyword values, checked once", () => {
  test("a level instance (no meta-schema checks) compiles no keyword value meta-schema; a checking one does", () => {
    const withMeta = assertingKeywords.filter((k) => k.metaSchema !== undefined).map((k) => String(k.keyword));
    expect(withMeta.length).toBeGreaterThan(3);
    const level = createValidatorAjv({ validateSchema: false });
    const checking = createValidatorAjv();
    for (const keyword of withMeta) {
      expect((level.getKeyword(keyword) as { validateSchema?: unknown }).validateSchema, keyword).toBeUndefined();
      expect((checking.getKeyword(keyword) as { validateSchema?: unknown }).validateSchema, keyword).toBeTypeOf(
        "function",
      );
    }
  });

  test("gen still refuses a bad value, at its place", async () => {
    const dir = writeTree({
      "openapi.yaml": openApiYaml(["    Text:", "      type: string", "      x-max-utf8-bytes: -3"].join("\n")),
    });
    const run = await cli(["gen", "--schema", "openapi.yaml", "--out", "out"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/openapi\.yaml:\d+:\d+/);
    expect(run.stderr).toContain("x-max-utf8-bytes");
    expect(run.stderr).not.toContain("internal error");
  });

  test("gen refuses x-tolerated written by hand (derived by the receive level) and a bad x-strict-only or x-receive-default value, at its place", async () => {
    for (const [lines, keyword] of [
      [["    Thing:", "      type: object", "      x-tolerated: { section: s }"], "x-tolerated"],
      [
        [
          "    Thing:",
          "      type: object",
          "      allOf:",
          "        - x-strict-only: { sectoin: s }",
          "          required: [a]",
        ],
        "x-strict-only",
      ],
      [
        [
          "    Thing:",
          "      type: object",
          "      properties: { n: { type: integer } }",
          "      x-receive-default: { section: s, members: { n: { default: [0] } } }",
        ],
        "x-receive-default",
      ],
    ] as const) {
      const dir = writeTree({ "openapi.yaml": openApiYaml(lines.join("\n")) });
      const run = await cli(["gen", "--schema", "openapi.yaml", "--out", "out"], dir);
      expect(run.code, keyword).toBe(2);
      expect(run.stderr, keyword).toMatch(/openapi\.yaml:\d+:\d+/);
      expect(run.stderr, keyword).toContain(keyword);
      expect(run.stderr, keyword).not.toContain("internal error");
    }
  });
});

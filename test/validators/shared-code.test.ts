/**
 * Validators pay for what they use: the functions of a level are shared
 * (one copy of each component however many validators reach it), a public
 * validator keeps `errors` of its own although its function runs inside
 * others, the compiled schemas carry no annotations, and the code ajv writes
 * for nothing is removed. Sizes are esbuild's (browser, minify, gzip) on the
 * emitted files, as a program bundles them.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import type { SchemaObject } from "openapi3-ts/oas31";
import { beforeAll, describe, expect, it } from "vitest";
import { dropAnnotations } from "../../generator/emit/validators/annotations.js";
import {
  dropStaticEvaluated,
  dropUnreadContext,
  shortenErrorPushes,
  type FunctionCode,
} from "../../generator/emit/validators/compact.js";
import type { LoadedSchema } from "../../generator/model.js";
import { emitToTempDir, liveValidators, run, type EmittedValidators } from "./support/emitted.js";
import { loadSchemaFile, SCHEMA_PATH } from "./support/load-schema.js";

const model = await loadSchemaFile(SCHEMA_PATH);
let emitted: EmittedValidators;

beforeAll(async () => {
  emitted = await emitToTempDir(model);
});

/** Bytes of `contents` bundled from validators/ (esbuild, browser, minify), and gzipped. */
async function bundle(contents: string): Promise<{ text: string; gz: number }> {
  const out = await build({
    stdin: { contents, resolveDir: join(emitted.dir, "validators"), loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
    // The emitted files import the runtime contract by file URL (support/emitted.ts).
    plugins: [
      { name: "file-url", setup: (b) => b.onResolve({ filter: /^file:/ }, (a) => ({ path: fileURLToPath(a.path) })) },
    ],
  });
  const text = out.outputFiles.map((f) => f.text).join("");
  return { text, gz: gzipSync(text).length };
}

const importing = (...names: string[]): string =>
  `import { ${names.join(", ")} } from "./index.js"; globalThis.v = [${names.join(", ")}];`;

describe("shared functions", () => {
  it("two validators that reference the same components bundle to much less than the two alone", async () => {
    const request = await bundle(importing("validateRunCreateRequest"));
    const session = await bundle(importing("validateSessionCreateRequest"));
    const both = await bundle(importing("validateRunCreateRequest", "validateSessionCreateRequest"));
    // SessionCreateRequest references the AgentSpec, ToolRef, ... functions RunCreateRequest does.
    expect(both.gz).toBeLessThan(0.75 * (request.gz + session.gz));
  });

  it("every validator together is at most 50 kB min+gzip", async () => {
    const all = await bundle('import * as all from "./index.js"; globalThis.v = all;');
    expect(all.gz).toBeLessThanOrEqual(50_000);
  });

  it("no function is emitted twice in a level's module (a component both exported and referenced is one function; two schemas with the same code are one)", () => {
    for (const file of emitted.files.filter((f) => f.path.startsWith("validators/internal/"))) {
      const bodies = file.contents
        .split(/\n(?=const validate\d+ = )/)
        .slice(1)
        .filter((unit) => !/^const validate\d+ = validate\d+;$/.test(unit.trim()))
        .map((unit) => unit.replace(/\bvalidate\d+\b/g, "validateN"));
      const repeated = bodies.filter((body, i) => bodies.indexOf(body) !== i);
      expect(repeated.length, file.path).toBe(0);
    }
  });

  it("a program importing one small validator bundles none of the others", async () => {
    const one = await bundle(importing("validateToolBudget"));
    expect(one.text).not.toContain("assistant_delta");
    expect(one.gz).toBeLessThan(1_000);
  });
});

describe("each public validator keeps errors of its own", () => {
  it("validateToolRef's issues survive a validateRunCreateRequest call, which runs the ToolRef function inside", async () => {
    const toolRef = await emitted.get("ToolRef");
    const request = await emitted.get("RunCreateRequest");
    expect(toolRef({ kind: "mcp", name: "github" })).toBe(false);
    const issues = structuredClone(toolRef.errors);
    expect(issues).toEqual([expect.objectContaining({ keyword: "required", params: { missingProperty: "url" } })]);
    expect(
      request({
        systemPrompt: "Be brief.",
        prompt: "hi",
        tools: [{ kind: "mcp", name: "github", url: "https://mcp.example/github" }],
      }),
    ).toBe(true);
    expect(request.errors).toBeNull();
    expect(toolRef.errors).toEqual(issues);
    expect(toolRef({ kind: "local", name: "a" })).toBe(true);
    expect(toolRef.errors).toBeNull();
  });

  it("the issues a referencing validator reports are those live ajv reports", async () => {
    const live = liveValidators(model);
    const spec = { prompt: "hi", tools: [{ kind: "local", name: "has space" }] };
    const fromEmitted = run(await emitted.get("RunCreateRequest"), spec);
    expect(fromEmitted.valid).toBe(false);
    expect(run(live("RunCreateRequest"), spec)).toEqual(fromEmitted);
  });
});

describe("annotations are not compiled", () => {
  it("no emitted file carries the schema's descriptions or examples", () => {
    const reasoning = model.schemas["ReasoningLevel"] as SchemaObject;
    expect(reasoning.description).toContain("Extended-thinking effort");
    for (const file of emitted.files.filter((f) => f.path.endsWith(".js"))) {
      expect(file.contents, file.path).not.toContain("Extended-thinking effort");
      expect(file.contents, file.path).not.toMatch(/"(description|examples|title)":/);
    }
  });

  it("drops annotation keywords only, at schema positions only: a property named description stays a property", () => {
    const schemas: Record<string, SchemaObject> = {
      A: {
        description: "an annotation",
        type: "object",
        properties: {
          description: { type: "string", description: "the property's annotation", examples: ["x"] },
          default: { type: "integer" },
        },
        oneOf: [
          { title: "t", required: ["description"] },
          { required: ["default"], default: {} },
        ],
        "x-known-values": ["a"],
      } as SchemaObject,
    };
    expect(dropAnnotations(schemas)).toEqual({
      A: {
        type: "object",
        properties: { description: { type: "string" }, default: { type: "integer" } },
        oneOf: [{ required: ["description"] }, { required: ["default"] }],
      },
    });
  });

  it("a tool's own description property is still checked", async () => {
    const toolRef = await emitted.get("ToolRef");
    expect(toolRef({ kind: "local", name: "a", description: 5 })).toBe(false);
    expect(toolRef.errors?.[0]).toMatchObject({ keyword: "type", instancePath: "/description" });
  });
});

describe("code ajv writes for nothing", () => {
  const callee = (): FunctionCode => ({
    name: "validate2",
    code: 'function validate2(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){const evaluated0 = validate2.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}validate2.errors = null;return true;}',
    evaluated: '{"props":true,"dynamicProps":false,"dynamicItems":false}',
  });
  const caller = (read = ""): FunctionCode => ({
    name: "validate1",
    code: `function validate1(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){${read}if(!validate2(data.a, {instancePath:instancePath+"/a",parentData:data,parentDataProperty:"a,b",rootData,dynamicAnchors})){return false;}return validate2(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors});}`,
    evaluated: undefined,
  });

  it("the unread call context goes from every signature and call", () => {
    const functions = [caller(), callee()];
    dropUnreadContext(functions);
    expect(functions[0]!.code).toBe(
      'function validate1(data, {instancePath=""}={}){if(!validate2(data.a, {instancePath:instancePath+"/a"})){return false;}return validate2(data, {instancePath});}',
    );
    expect(functions[1]!.code).toMatch(/^function validate2\(data, \{instancePath=""\}=\{\}\)/);
  });

  it("is kept everywhere when one function reads it", () => {
    const functions = [caller("if(rootData === data){}"), callee()];
    const before = functions.map((f) => f.code);
    dropUnreadContext(functions);
    expect(functions.map((f) => f.code)).toEqual(before);
  });

  it("a static evaluated record goes with its prologue, unless another function reads it at run time or ajv calls it through a wrapper", () => {
    const plain = [caller(), callee()];
    dropStaticEvaluated(plain, new Set());
    expect(plain[1]!.evaluated).toBeUndefined();
    expect(plain[1]!.code).not.toContain("evaluated");

    const read = [caller("var props0 = validate2.evaluated.props;"), callee()];
    dropStaticEvaluated(read, new Set());
    expect(read[1]).toEqual(callee());

    const wrapped = [caller(), callee()];
    dropStaticEvaluated(wrapped, new Set(["validate2"]));
    expect(wrapped[1]).toEqual(callee());
  });

  it("an all-errors issue is collected in the short form, the same array either way", () => {
    const f: FunctionCode = {
      name: "validate3",
      code: 'function validate3(data){let vErrors = null;let errors = 0;const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be; string"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}',
      evaluated: undefined,
    };
    const other: FunctionCode = { ...f, code: f.code.replace('"must be; string"', '"must be string"') };
    shortenErrorPushes([f, other]);
    expect(other.code).toContain(
      '(vErrors || (vErrors = [])).push({instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"});errors++;',
    );
    expect(f.code).toContain("if(vErrors === null){vErrors = [err0];}"); // a `;` in a string: left as ajv wrote it
  });

  it("the emitted modules pass no unread context", () => {
    for (const file of emitted.files.filter((f) => f.path.startsWith("validators/internal/"))) {
      expect(file.contents, file.path).not.toMatch(/\b(parentDataProperty|dynamicAnchors)\b/);
    }
  });
});

describe("evaluated-property records, only where unevaluatedProperties or unevaluatedItems reads them", () => {
  it("the MANTYX schema uses neither, so no emitted function keeps a record", () => {
    for (const file of emitted.files.filter((f) => f.path.startsWith("validators/internal/"))) {
      expect(file.contents, file.path).not.toMatch(/\.evaluated\b|\bprops\d+\b/);
    }
  });

  it("a schema that uses unevaluatedProperties keeps them, and rejects what it must", async () => {
    const schemas: Record<string, SchemaObject> = {
      Base: { type: "object", properties: { a: { type: "string" } } },
      Closed: {
        allOf: [{ $ref: "#/components/schemas/Base" }],
        properties: { b: { type: "integer" } },
        unevaluatedProperties: false,
      } as SchemaObject,
    };
    const small: LoadedSchema = {
      document: { openapi: "3.1.0", info: { title: "t", version: "1" }, components: { schemas } },
      schemas,
      sourcePath: "t.yaml",
      hash: "0",
      generatorVersion: "0.0.0",
    };
    const out = await emitToTempDir(small);
    const closed = await out.get("Closed");
    const live = liveValidators(small)("Closed");
    for (const data of [{ a: "x", b: 1 }, { a: "x", c: true }, { b: "no" }, {}])
      expect(run(closed, data)).toEqual(run(live, data));
    expect(closed({ a: "x", b: 1 })).toBe(true);
    expect(closed({ a: "x", c: true })).toBe(false);
    expect(closed.errors?.[0]).toMatchObject({
      keyword: "unevaluatedProperties",
      params: { unevaluatedProperty: "c" },
    });
  });
});

describe("the modules' printer (generator/emit/validators/format.ts)", () => {
  it("adds only whitespace outside strings: ajv's code and the printed code minify to the same program", async () => {
    const { transformSync } = await import("esbuild");
    const { formatModuleSync } = await import("../../generator/emit/validators/format.js");
    const standalone = (await import("ajv/dist/standalone/index.js")).default;
    const { createLevels } = await import("../../generator/emit/validators/levels.js");
    const { componentRef } = await import("../../generator/emit/validators/ajv.js");
    const ajv = createLevels(model).ajv("all-errors");
    const code = standalone
      .default(ajv, { validateRunCreateRequest: componentRef("RunCreateRequest") })
      .replace(/^"use strict";/, "");
    const printed = formatModuleSync(code);
    expect(printed.split("\n").length).toBeGreaterThan(1000);
    const minify = (c: string): string => transformSync(c, { minify: true, format: "esm", charset: "ascii" }).code;
    expect(minify(printed)).toBe(minify(code));
  });

  it("prints a schema constant nested 10,000 objects deep on one line, as large documents' validators have (GitHub's: 20-27 kB lines of `const schemaN = {...}`)", async () => {
    // Each `{` used to rescan the whole line before it (a trim and a
    // `$`-anchored regular expression): quadratic, half a minute for this line
    // (29 s measured), so the test's own timeout is what catches it.
    const { formatModuleSync } = await import("../../generator/emit/validators/format.js");
    const depth = 10_000;
    const literal = `${'{"type":"object","properties":'.repeat(depth)}{}${"}".repeat(depth)}`;
    const printed = formatModuleSync(
      `const schema1 = ${literal};function v(data){if(data){return schema1;}else {return null;}}`,
    );
    expect(printed).toBe(
      `const schema1 = ${literal};\nfunction v(data) {\n  if(data) {\n    return schema1;\n  } else {\n    return null;\n  }\n}\n`,
    );
  }, 10_000);

  it("tells a block's `{` from an object literal's by what ends the line before it: `)`, `=>`, `else`, `try`, `finally`, `do`", async () => {
    const { formatModuleSync } = await import("../../generator/emit/validators/format.js");
    expect(
      formatModuleSync(
        "const f = (d) =>{return {a:1};};do{a();}while(b);try{a();}catch(e){b();}finally {c();}x = y = > {1}",
      ),
    ).toBe(
      "const f = (d) => {\n  return {a:1};\n};\ndo {\n  a();\n} while(b);\ntry {\n  a();\n} catch(e) {\n  b();\n} finally {\n  c();\n}\nx = y = > {1}\n",
    );
  });

  it("indents blocks deeper than 32 no further (ajv nests a block per property: GitHub's webhook validators go 170 deep)", async () => {
    const { formatModuleSync } = await import("../../generator/emit/validators/format.js");
    const depth = 40;
    const printed = formatModuleSync(`function f(d){${"if(d){".repeat(depth)}a();${"}".repeat(depth)}}`);
    const indents = printed
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => line.length - line.trimStart().length);
    expect(Math.max(...indents)).toBe(64);
    expect(printed.split("\n").filter((line) => line === `${" ".repeat(64)}a();`)).toHaveLength(1);
    expect(printed.split("\n").filter((line) => line === `${" ".repeat(62)}if(d) {`)).toHaveLength(1);
    // Code as deep as the MANTYX schema's (21 blocks) keeps every level.
    const shallow = formatModuleSync(`function f(d){${"if(d){".repeat(20)}a();${"}".repeat(20)}}`);
    expect(shallow).toContain(`\n${" ".repeat(42)}a();\n`);
  });

  it("writes non-ASCII characters as escapes, and leaves braces and semicolons in strings alone", async () => {
    const { formatModuleSync } = await import("../../generator/emit/validators/format.js");
    expect(formatModuleSync('const a = "caf\u00e9 {x;}";function f(d){if(d){return "}";}else {return \'{\';}}')).toBe(
      'const a = "caf\\u00e9 {x;}";\nfunction f(d) {\n  if(d) {\n    return "}";\n  } else {\n    return \'{\';\n  }\n}\n',
    );
  });
});

describe("a level module printed in parts (the level thread: generator/emit/validators/level-module-text.ts `chunks`)", () => {
  it("joins to the module printed whole, however its statements are cut", async () => {
    const { createLevels } = await import("../../generator/emit/validators/levels.js");
    const { chunks, levelModuleStatementsOf, printLevelModule } = await import(
      "../../generator/emit/validators/level-module-text.js"
    );
    const levels = createLevels(model);
    for (const level of ["strict", "all-errors", "receive"] as const) {
      const statements = levelModuleStatementsOf(levels, level, "../runtime.js");
      const source = `${statements.join("\n")}\n`;
      const whole = printLevelModule(level, source, "../runtime.js");
      for (const count of [1, 2, 8, statements.length + 5]) {
        const parts = chunks(statements, count);
        expect(parts.length).toBeGreaterThanOrEqual(Math.min(count, 2));
        expect(parts.length).toBeLessThanOrEqual(count);
        expect(parts.every((part) => part.length > 1)).toBe(true);
        expect(parts.join("")).toBe(source);
        expect(parts.map((part) => printLevelModule(level, part, "../runtime.js")).join("")).toBe(whole);
      }
      // Every cut, not only the ones `chunks` makes: no statement leaves a block, a bracket or a string open.
      for (let cut = 1; cut < statements.length; cut += Math.max(1, Math.floor(statements.length / 40))) {
        const text = (part: readonly string[]): string => `${part.join("\n")}\n`;
        expect(
          printLevelModule(level, text(statements.slice(0, cut)), "../runtime.js") +
            printLevelModule(level, text(statements.slice(cut)), "../runtime.js"),
        ).toBe(whole);
      }
    }
  });
});

/**
 * The four layers and which may import which (README, "Layout"):
 *   1 runtime/    protocol-neutral: imports only runtime/
 *   2 generated/  imports runtime/ only through runtime/codegen/v1.ts, and itself
 *   3 mantyx/     imports generated/, runtime/ and itself
 *   4 generator/  a build tool, its own package (@mantyx/wire-gen): a relative
 *                 import never leaves generator/; the runtime's code (one
 *                 implementation of what it shares with generated code) it
 *                 reaches only as the package @mantyx/wire-types, which
 *                 generator/package.json declares, through an exported subpath;
 *                 every package it imports at run time is declared there. Its
 *                 mock server (generator/mock/, shipped in the bin) is held to
 *                 the same rule: it is published code, and MANTYX facts reach it
 *                 as data from the schema, not as imports
 * Beside them, the TypeScript conformance kit (conformance/ts/, the
 * `@mantyx/wire-types/conformance` entries) builds on runtime/ only.
 * Read from the source text of every module, so a stray import fails here.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const SPECIFIER =
  /\b(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s*["']([^"']+)["']/g;

function files(dir: string): string[] {
  return readdirSync(path.join(REPO, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (name === "node_modules" || name === "dist" || name.startsWith(".test-bin-")) return [];
    if (statSync(path.join(REPO, rel)).isDirectory()) return files(rel);
    return /\.(ts|js|mjs)$/.test(name) ? [rel] : [];
  });
}

/** The repository folder each relative import of `file` lands in. */
function importedFolders(file: string): Array<{ specifier: string; folder: string }> {
  const text = readFileSync(path.join(REPO, file), "utf8");
  const out: Array<{ specifier: string; folder: string }> = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const specifier = m[1] ?? m[2] ?? m[3]!;
    if (!specifier.startsWith(".")) continue;
    const target = path.relative(REPO, path.resolve(REPO, path.dirname(file), specifier));
    out.push({ specifier, folder: target.split(path.sep)[0]! });
  }
  return out;
}

/** The packages `file` imports at run time (`import type` erases), by specifier: bare ones, not `node:` built-ins. */
function importedPackages(file: string): Array<{ specifier: string; name: string }> {
  const text = readFileSync(path.join(REPO, file), "utf8");
  const out: Array<{ specifier: string; name: string }> = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const specifier = m[1] ?? m[2] ?? m[3]!;
    // Not a package name: the keyword in a string of code (`["import", ", "]`), which the pattern also sees.
    if (!/^(?:@[\w.-]+\/)?[\w.-]+(?:\/[\w./-]*)?$/.test(specifier)) continue;
    if (specifier.startsWith(".") || specifier.startsWith("node:") || /^(?:import|export)\s+type\b/.test(m[0]))
      continue;
    out.push({
      specifier,
      name: specifier
        .split("/")
        .slice(0, specifier.startsWith("@") ? 2 : 1)
        .join("/"),
    });
  }
  return out;
}

/** The fields of a package.json these checks read. */
interface PackageJson {
  version?: string;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const json = (file: string): PackageJson => JSON.parse(readFileSync(path.join(REPO, file), "utf8"));

describe("layers", () => {
  it("runtime/ imports nothing outside runtime/ (it never reaches up into generated/ or the helpers)", () => {
    const bad = files("runtime").flatMap((f) =>
      importedFolders(f)
        .filter((i) => i.folder !== "runtime")
        .map((i) => `${f}: ${i.specifier}`),
    );
    expect(bad).toEqual([]);
  });

  it("generated/ reaches the runtime only through its codegen contract", () => {
    const bad = files("generated").flatMap((f) =>
      importedFolders(f)
        .filter((i) => i.folder !== "generated" && !/runtime\/codegen\/v1\.js$/.test(i.specifier))
        .map((i) => `${f}: ${i.specifier}`),
    );
    expect(bad).toEqual([]);
    // And it does use it (the check above is not vacuous).
    expect(files("generated").some((f) => importedFolders(f).some((i) => i.folder === "runtime"))).toBe(true);
  });

  it("mantyx/ (the hand-written helpers) builds on generated/ and runtime/ only", () => {
    const bad = files("mantyx").flatMap((f) =>
      importedFolders(f)
        .filter((i) => !["mantyx", "generated", "runtime"].includes(i.folder))
        .map((i) => `${f}: ${i.specifier}`),
    );
    expect(bad).toEqual([]);
  });

  it("generator/ (the mock included) imports by relative path only from generator/: never runtime/, generated/, mantyx/, conformance/, test/ or examples/", () => {
    const bad = files("generator").flatMap((f) =>
      importedFolders(f)
        .filter((i) => i.folder !== "generator")
        .map((i) => `${f}: ${i.specifier}`),
    );
    expect(bad).toEqual([]);
    // The mock is inside the walk (the check covers the shipped server).
    expect(files("generator").some((f) => f.startsWith(path.join("generator", "mock")))).toBe(true);
  });

  it("generator/ reaches the runtime as the package @mantyx/wire-types, declared in generator/package.json, through subpaths the package exports", () => {
    const declared = json("generator/package.json");
    const exported = Object.keys(json("package.json").exports as Record<string, unknown>);
    const uses = files("generator").flatMap((f) =>
      importedPackages(f)
        .filter((i) => i.name === "@mantyx/wire-types")
        .map((i) => ({ f, ...i })),
    );
    // Not vacuous: the mock engine's body issues, the JSON media rule, the validators' deepEqual, the receive level's `tolerated` and JSON pointers come from it.
    expect(uses.map((u) => u.f).sort()).toEqual(
      [
        "generator/emit/operations.ts",
        "generator/emit/validators/json-equal.ts",
        "generator/keywords/x-tolerated.ts",
        "generator/load/json-pointer.ts",
        "generator/mock/engine/http.ts",
      ].map((f) => f.split("/").join(path.sep)),
    );
    expect({ ...declared.dependencies, ...declared.devDependencies }["@mantyx/wire-types"]).toBe(
      json("package.json").version,
    );
    expect(
      uses
        .filter((u) => !exported.includes(`.${u.specifier.slice("@mantyx/wire-types".length)}`))
        .map((u) => `${u.f}: ${u.specifier}`),
    ).toEqual([]);
  });

  it("every package generator/ imports at run time is declared in generator/package.json", () => {
    const pkg = json("generator/package.json");
    const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
    const imports = files("generator").flatMap((f) => importedPackages(f).map((i) => ({ f, ...i })));
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter((i) => !declared.has(i.name)).map((i) => `${i.f}: ${i.specifier}`)).toEqual([]);
  });

  it("conformance/ts/ (the TypeScript conformance kit, @mantyx/wire-types/conformance) builds on runtime/ only", () => {
    const kit = files(path.join("conformance", "ts"));
    expect(kit.length).toBeGreaterThan(0);
    const bad = kit.flatMap((f) =>
      importedFolders(f)
        .filter(
          (i) =>
            i.folder !== "runtime" &&
            !path
              .relative(REPO, path.resolve(REPO, path.dirname(f), i.specifier))
              .startsWith(path.join("conformance", "ts") + path.sep),
        )
        .map((i) => `${f}: ${i.specifier}`),
    );
    expect(bad).toEqual([]);
    expect(kit.flatMap((f) => importedPackages(f).map((i) => `${f}: ${i.specifier}`))).toEqual([]);
  });

  it("generator/mock/ reads MANTYX artefacts (the bundled schema, the flow cases) as data through artefacts.ts alone", () => {
    const mock = files(path.join("generator", "mock"));
    const naming = mock.filter((f) =>
      /generated\//.test(readFileSync(path.join(REPO, f), "utf8").replace(/^\s*(\*|\/\/).*$/gm, "")),
    );
    expect(naming).toEqual([path.join("generator", "mock", "artefacts.ts")]);
  });
});

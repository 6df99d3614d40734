/**
 * The four layers and which may import which (README, "Layout"):
 *   1 runtime/    protocol-neutral: imports only runtime/
 *   2 generated/  imports runtime/ only through runtime/codegen/v1.ts, and itself
 *   3 mantyx/     imports generated/, runtime/ and itself
 *   4 generator/  a build tool: may use the runtime's code (one implementation
 *                 of what it shares with generated code), never generated/ or mantyx/;
 *                 its mock server (generator/mock/, shipped in the bin) is held to the
 *                 same rule and never imports test/ or examples/ code: it is published
 *                 code, and MANTYX facts reach it as data from the schema, not as imports
 * Read from the source text of every module, so a stray import fails here.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const SPECIFIER = /\b(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s*["']([^"']+)["']/g;

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

describe("layers", () => {
  it("runtime/ imports nothing outside runtime/ (it never reaches up into generated/ or the helpers)", () => {
    const bad = files("runtime").flatMap((f) => importedFolders(f).filter((i) => i.folder !== "runtime").map((i) => `${f}: ${i.specifier}`));
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
    const bad = files("mantyx").flatMap((f) => importedFolders(f).filter((i) => !["mantyx", "generated", "runtime"].includes(i.folder)).map((i) => `${f}: ${i.specifier}`));
    expect(bad).toEqual([]);
  });

  it("generator/ (the mock included) imports no generated, helper, test or example module (it writes generated/; the runtime it may use)", () => {
    const bad = files("generator").flatMap((f) =>
      importedFolders(f)
        .filter((i) => ["generated", "mantyx", "test", "examples"].includes(i.folder))
        .map((i) => `${f}: ${i.specifier}`),
    );
    expect(bad).toEqual([]);
    // The mock is inside the walk (the check covers the shipped server).
    expect(files("generator").some((f) => f.startsWith(path.join("generator", "mock")))).toBe(true);
  });

  it("generator/mock/ reads MANTYX artefacts (the bundled schema, the flow cases) as data through artefacts.ts alone", () => {
    const mock = files(path.join("generator", "mock"));
    const naming = mock.filter((f) => /generated\//.test(readFileSync(path.join(REPO, f), "utf8").replace(/^\s*(\*|\/\/).*$/gm, "")));
    expect(naming).toEqual([path.join("generator", "mock", "artefacts.ts")]);
  });
});

/**
 * No import cycle among the modules of runtime/, type-only imports
 * included: a module's types and code are read before the modules that
 * build on them (runtime/client/operation.ts holds the types the HTTP core
 * and its operation kinds share, so core.ts imports none of the kinds).
 * Read from the source text, as ./imports.test.ts reads it: a depth-first
 * walk of the relative imports.
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
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(REPO, rel)).isDirectory()) return files(rel);
    return name.endsWith(".ts") ? [rel] : [];
  });
}

/** Each module of `dir` and the modules of `dir` it imports (relative imports, `.js` read as the `.ts` beside it). */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files(dir)) {
    const text = readFileSync(path.join(REPO, file), "utf8");
    const targets = new Set<string>();
    for (const m of text.matchAll(SPECIFIER)) {
      const specifier = m[1] ?? m[2] ?? m[3]!;
      if (!specifier.startsWith(".")) continue;
      targets.add(path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, ".ts"));
    }
    graph.set(file, [...targets].filter((t) => t.startsWith(`${dir}/`)).sort());
  }
  return graph;
}

/** Every cycle a depth-first walk meets (each as the modules on it, the first one repeated at the end). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (state.get(node) === undefined) visit(node);
  return found;
}

describe("import cycles", () => {
  it("the walk finds a cycle, a type-level one too (so the check below can fail)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cyclesOf(graph)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
    expect(
      cyclesOf(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("no module of runtime/ is on an import cycle, type-only imports included", () => {
    const graph = importGraph("runtime");
    expect(cyclesOf(graph).map((cycle) => cycle.join(" -> "))).toEqual([]);
    // The walk sees the HTTP core's imports (it is not vacuous).
    expect(graph.get("runtime/client/core.ts")).toContain("runtime/client/errors.ts");
  });

  it("the HTTP core imports none of its operation kinds: each kind builds on it", () => {
    const kinds = ["stream-run", "pages", "item-stream", "request-check", "once"].map((k) => `runtime/client/${k}.ts`);
    expect(
      importGraph("runtime")
        .get("runtime/client/core.ts")!
        .filter((t) => kinds.includes(t)),
    ).toEqual([]);
  });
});

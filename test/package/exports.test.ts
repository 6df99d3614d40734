/**
 * The import surface of `@mantyx/wire-types` and `@mantyx/wire-types/events`,
 * name by name (an API report in the style of api-extractor): every name
 * there is a semver promise, so the names each entry exports (values and
 * types, read by the TypeScript checker from index.ts and events.ts) must
 * be exactly those of the checked-in report, test/package/entries.api.txt.
 * An addition or a removal fails here until the report says so:
 *   UPDATE_API_REPORT=1 npx vitest run test/package/exports.test.ts --project node
 * rewrites it, and the diff of the report is the change to review. The
 * protocol types (generated/types.ts, the schema's components) are counted,
 * not listed: the schema names them and `npm run diff:baseline` reviews them.
 * Beside the report: the codegen machinery stays in `codegen/v1`, and what
 * the layers' own indexes make public reaches the main entry.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const REPORT = fileURLToPath(new URL("./entries.api.txt", import.meta.url));

/** The machinery generated code calls, exported by `@mantyx/wire-types/codegen/v1` and not by the main entry. */
const CODEGEN_ONLY = [
  "ClientBase",
  "ClientCore",
  "HttpClient",
  "checkedBody",
  "defineOperations",
  "eitherKind",
  "eventStream",
  "eventStreamKind",
  "itemStreamKind",
  "onceKind",
  "operation",
  "operationExtras",
  "operationFunction",
  "pagesKind",
  "schemeCredentials",
  // The operation table's types.
  "CredentialSender",
  "CredentialSupport",
  "OnceOutcome",
  "OnceSpec",
  "Operation",
  "OperationExtras",
  "StatusProbe",
  "StreamSpec",
];
/** Internals of runtime/client exported by no entry at all (the kinds' own plumbing). */
const NO_ENTRY = ["callOperation", "BodyCheck", "CallContext", "OperationKind", "StreamOpener"];

/** The layers' own indexes, whose exports the main entry carries on. */
const LAYER_INDEXES = [
  "generated/client.ts",
  "generated/events.ts",
  "runtime/client/index.ts",
  "runtime/sse/index.ts",
  "runtime/events/index.ts",
  "mantyx/index.ts",
];
const MODULES = ["index.ts", "events.ts", "runtime/codegen/v1.ts", "generated/types.ts", ...LAYER_INDEXES];
const program = ts.createProgram(
  MODULES.map((m) => REPO + m),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  },
);
const checker = program.getTypeChecker();

/** Each name module `file` exports, as `value NAME` or `type NAME` (a value's name may also name a type), sorted. */
function exportsOf(file: string): string[] {
  const module = checker.getSymbolAtLocation(program.getSourceFile(REPO + file)!)!;
  return checker
    .getExportsOfModule(module)
    .map(
      (s) =>
        `${((s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags & ts.SymbolFlags.Value) !== 0 ? "value" : "type"} ${s.name}`,
    )
    .sort((a, b) => (a.slice(a.indexOf(" ")) < b.slice(b.indexOf(" ")) ? -1 : 1));
}
const names = (file: string): string[] => exportsOf(file).map((e) => e.slice(e.indexOf(" ") + 1));

function report(): string {
  const protocol = new Set(names("generated/types.ts"));
  const entry = (title: string, file: string): string => {
    const own = exportsOf(file).filter((e) => !protocol.has(e.slice(e.indexOf(" ") + 1)));
    const count = names(file).filter((n) => protocol.has(n)).length;
    return `## ${title} (${file})\n${own.join("\n")}\n${count > 0 ? `+ the ${count} protocol types of generated/types.ts\n` : ""}`;
  };
  return `# The names each entry of @mantyx/wire-types exports, values and types (test/package/exports.test.ts).\n\n${entry("@mantyx/wire-types", "index.ts")}\n${entry("@mantyx/wire-types/events", "events.ts")}`;
}

describe("the import surface", () => {
  it("is the checked-in report's, name by name (UPDATE_API_REPORT=1 rewrites it)", () => {
    const now = report();
    if (process.env["UPDATE_API_REPORT"] === "1") writeFileSync(REPORT, now);
    expect(now).toBe(readFileSync(REPORT, "utf8"));
  });

  it("the main entry exports every protocol type, and none of the codegen machinery, which codegen/v1 exports", () => {
    const main = new Set(names("index.ts"));
    const protocol = names("generated/types.ts");
    expect(protocol.length).toBeGreaterThan(100);
    expect(protocol.filter((n) => !main.has(n))).toEqual([]);
    expect([...CODEGEN_ONLY, ...NO_ENTRY].filter((n) => main.has(n))).toEqual([]);
    const codegen = new Set(names("runtime/codegen/v1.ts"));
    expect(CODEGEN_ONLY.filter((n) => !codegen.has(n))).toEqual([]);
    expect(NO_ENTRY.filter((n) => codegen.has(n))).toEqual([]);
  });

  it("what the layers' own indexes export reaches the main entry (runtime/client's less its codegen machinery)", () => {
    const main = new Set(names("index.ts"));
    const internal = new Set([...CODEGEN_ONLY, ...NO_ENTRY]);
    const missing = LAYER_INDEXES.flatMap((m) =>
      names(m)
        .filter((n) => !main.has(n) && !internal.has(n))
        .map((n) => `${m}: ${n}`),
    );
    expect(missing).toEqual([]);
    // runtime/client's index lists each internal (this test's lists are not stale).
    const client = new Set(names("runtime/client/index.ts"));
    expect([...internal].filter((n) => !client.has(n))).toEqual([]);
  });

  it("/events is the typed event layer: runtime/events and the MANTYX stream, nothing else", () => {
    expect(names("events.ts")).toEqual(
      [...new Set([...names("runtime/events/index.ts"), ...names("generated/events.ts")])].sort(),
    );
  });
});

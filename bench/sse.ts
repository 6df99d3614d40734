/**
 * SSE decoder throughput: runtime/sse against eventsource-parser and a bare
 * line splitter, on byte streams shaped like real MANTYX traffic.
 *
 *   realistic     ~20 MB of assistant_delta frames
 *                 (`id: <seq>\nevent: assistant_delta\ndata: {...}\n\n`,
 *                 10-60 chars of text each) in 16 KiB chunks, with ASCII
 *                 text and with 5% of frames carrying a non-ASCII character;
 *                 and in 7-byte chunks (a 1.5 MB prefix in --quick).
 *   big event     one event of 1, 4 and 16 MiB (a single data line) in
 *                 1 KiB chunks; growth exponent = log(t16/t1) / log(16),
 *                 1.0 is linear. Each run times 16 MiB of input (16
 *                 streams of the 1 MiB event, 4 of the 4 MiB one), so
 *                 the small sizes are not timed over a few milliseconds.
 *   chunking      parseSseBatches on the realistic stream at several chunk
 *                 sizes: throughput must not collapse for any of them.
 *
 * Contenders read the same in-memory ReadableStream<Uint8Array>, rebuilt
 * for every run the same way (one pre-cut chunk per pull; enqueueing them
 * all up front is quadratic in Node, whose stream queue uses Array#shift):
 *   eventsource-parser  TextDecoderStream -> EventSourceParserStream, read
 *   bare TextDecoder    streaming decode + indexOf("\n") line slicing: a
 *                       floor, not a parser (no fields, no CR)
 *   parseSse / parseSseBatches / createSseParser  from runtime/sse
 * Contenders run round-robin (so noise hits all alike), the order rotating
 * every round (so none always pays for the garbage of the same
 * predecessor: a forced gc() between runs was tried and slowed every
 * contender down 2-3x), after a warm-up round. Figures are medians of the runs, computed from this process's CPU
 * time (the machine is shared: time stolen by other processes is not the
 * parser's); the note gives the wall-clock ratio too. ratio = MB/s over
 * eventsource-parser's MB/s in the same run. MB = 10^6 bytes.
 *
 *   npx tsx bench/sse.ts [--quick]
 */
import { fileURLToPath } from "node:url";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { createSseParser, parseSse, parseSseBatches } from "../runtime/sse/index.js";
import { printTable, type BenchRow } from "./table.js";

type Contender = (stream: ReadableStream<Uint8Array>) => Promise<number>;

const contenders = {
  "eventsource-parser": async (stream) => {
    const reader = stream
      .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
      .pipeThrough(new EventSourceParserStream())
      .getReader();
    let n = 0;
    for (;;) {
      const r = await reader.read();
      if (r.done) return n;
      n++;
    }
  },
  "bare TextDecoder+indexOf": async (stream) => {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let rest = "";
    let lines = 0;
    let chars = 0;
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      const text = rest + decoder.decode(r.value, { stream: true });
      let start = 0;
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
        chars += text.slice(start, i).length;
        lines++;
        start = i + 1;
      }
      rest = text.slice(start);
    }
    return chars >= 0 ? lines : -1;
  },
  parseSse: async (stream) => {
    let n = 0;
    for await (const _ of parseSse(stream)) n++;
    return n;
  },
  parseSseBatches: async (stream) => {
    let n = 0;
    for await (const batch of parseSseBatches(stream)) n += batch.length;
    return n;
  },
  createSseParser: async (stream) => {
    let n = 0;
    const parser = createSseParser({ onMessage: () => void n++ });
    const reader = stream.getReader();
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      parser.feed(r.value);
    }
    parser.end();
    return n;
  },
} satisfies Record<string, Contender>;

type Name = keyof typeof contenders;

/**
 * The realistic MANTYX stream: assistant_delta frames with 10-60 chars of
 * text, deterministic. `nonAsciiShare` of the frames carry one non-ASCII
 * character (accents, dashes, curly quotes, emoji, CJK), as model output does.
 */
export function realisticStream(targetBytes: number, nonAsciiShare = 0): { bytes: Uint8Array; messages: number } {
  const words = [
    "the",
    "agent",
    "tool",
    "call",
    "resume",
    "token",
    "stream",
    "delta",
    "reply",
    "server",
    "MANTYX",
    "ok,",
  ];
  const extras = ["é", "—", "’", "😀", "日本", "ü"];
  let seed = 42;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const frames: string[] = [];
  let size = 0;
  let seq = 0;
  while (size < targetBytes) {
    const len = 10 + rnd(51);
    let text = "";
    while (text.length < len) text += (text ? " " : "") + words[rnd(words.length)];
    text = text.slice(0, len);
    if (nonAsciiShare > 0 && rnd(10_000) < nonAsciiShare * 10_000) text = extras[rnd(extras.length)] + text.slice(2);
    const frame = `id: ${seq}\nevent: assistant_delta\ndata: {"seq":${seq},"type":"assistant_delta","data":{"text":"${text}"}}\n\n`;
    frames.push(frame);
    size += Buffer.byteLength(frame);
    seq++;
  }
  return { bytes: new TextEncoder().encode(frames.join("")), messages: seq };
}

/** One event of exactly `total` bytes: a single data line. */
function bigEvent(total: number): Uint8Array {
  const bytes = new Uint8Array(total).fill(0x61);
  bytes.set(new TextEncoder().encode("data: "), 0);
  bytes[total - 2] = 0x0a;
  bytes[total - 1] = 0x0a;
  return bytes;
}

function cut(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

export function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const c = chunks[i++];
      if (c === undefined) controller.close();
      else controller.enqueue(c);
    },
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** CPU time of this process in seconds: on a shared machine, time stolen by other processes is not ours. */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

interface Timing {
  cpu: number;
  wall: number;
}

/**
 * Median CPU and wall seconds per pass of each contender over one workload,
 * round-robin after one warm-up round. A run times `repeat` passes back to
 * back (each on a fresh stream), so that small workloads are timed over as
 * much work as large ones: timer granularity and a stray pause then weigh
 * the same at every size.
 */
async function measure(
  names: readonly Name[],
  chunks: readonly Uint8Array[],
  expected: Partial<Record<Name, number>>,
  runs: number,
  repeat = 1,
): Promise<Record<string, Timing>> {
  const cpu: Record<string, number[]> = {};
  const wall: Record<string, number[]> = {};
  for (const name of names) {
    cpu[name] = [];
    wall[name] = [];
  }
  for (let round = -1; round < runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round + 1) % names.length]!;
      let cpuTime = 0;
      let wallTime = 0;
      for (let pass = 0; pass < repeat; pass++) {
        const stream = streamOf(chunks);
        const w0 = performance.now();
        const c0 = cpuSeconds();
        const count = await contenders[name](stream);
        cpuTime += cpuSeconds() - c0;
        wallTime += (performance.now() - w0) / 1000;
        const want = expected[name];
        if (want !== undefined && count !== want) throw new Error(`${name}: ${count} results, expected ${want}`);
      }
      if (round >= 0) {
        cpu[name]!.push(cpuTime / repeat);
        wall[name]!.push(wallTime / repeat);
      }
    }
  }
  const out: Record<string, Timing> = {};
  for (const name of names) out[name] = { cpu: median(cpu[name]!), wall: median(wall[name]!) };
  return out;
}

function throughputRows(
  group: string,
  names: readonly Name[],
  timings: Record<string, Timing>,
  bytes: number,
  note?: (name: Name) => string | undefined,
): BenchRow[] {
  const base = timings["eventsource-parser"];
  return names.map((name) => {
    const t = timings[name]!;
    const row: BenchRow = { group, name, value: bytes / t.cpu / 1e6, unit: "MB/s" };
    const notes: string[] = [];
    if (base !== undefined) {
      row.ratio = base.cpu / t.cpu;
      if (name !== "eventsource-parser") notes.push(`wall ${(base.wall / t.wall).toFixed(2)}x`);
    }
    const extra = note?.(name);
    if (extra !== undefined) notes.push(extra);
    if (notes.length > 0) row.note = notes.join("; ");
    return row;
  });
}

export async function runSseBench(opts: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const quick = opts.quick ?? false;
  const runs = quick ? 5 : 7;
  const rows: BenchRow[] = [];
  const all: Name[] = [
    "eventsource-parser",
    "bare TextDecoder+indexOf",
    "parseSse",
    "parseSseBatches",
    "createSseParser",
  ];
  const counts = (messages: number): Partial<Record<Name, number>> => ({
    "eventsource-parser": messages,
    "bare TextDecoder+indexOf": messages * 4,
    parseSse: messages,
    parseSseBatches: messages,
    createSseParser: messages,
  });
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

  // Realistic stream, 16 KiB chunks: ASCII text, then 5% of frames with a non-ASCII character.
  for (const [label, share] of [
    ["ASCII text", 0],
    ["5% non-ASCII frames", 0.05],
  ] as const) {
    const real = realisticStream(20_000_000, share);
    const t = await measure(all, cut(real.bytes, 16 * 1024), counts(real.messages), runs);
    rows.push(
      ...throughputRows(`realistic ${label}, 16 KiB chunks`, all, t, real.bytes.length, (n) =>
        n === "eventsource-parser" ? `${mb(real.bytes.length)}, ${real.messages} events` : undefined,
      ),
    );
  }

  // Realistic stream, 7-byte chunks. Per-chunk stream overhead dominates, so
  // a prefix of the same stream gives the same MB/s (the full 20 MB in a full run).
  {
    const small = realisticStream(quick ? 1_500_000 : 20_000_000);
    const chunks = cut(small.bytes, 7);
    const t = await measure(all, chunks, counts(small.messages), 5);
    rows.push(
      ...throughputRows("realistic ASCII text, 7-byte chunks", all, t, small.bytes.length, (n) =>
        n === "eventsource-parser" ? `${mb(small.bytes.length)}, ${chunks.length} chunks` : undefined,
      ),
    );
  }

  // One big event in 1 KiB chunks: 1, 4, 16 MiB.
  {
    const names: Name[] = ["eventsource-parser", "parseSse", "parseSseBatches"];
    const sizes = [1, 4, 16];
    const timings: Record<string, Timing>[] = [];
    for (const mib of sizes) {
      const bytes = bigEvent(mib * 1024 * 1024);
      // Every run reads 16 MiB: 16 passes over the 1 MiB event, 4 over the 4 MiB one.
      const t = await measure(
        names,
        cut(bytes, 1024),
        { "eventsource-parser": 1, parseSse: 1, parseSseBatches: 1 },
        runs,
        16 / mib,
      );
      timings.push(t);
      rows.push(...throughputRows(`one ${mib} MiB event, 1 KiB chunks`, names, t, bytes.length));
    }
    for (const name of names) {
      const growth = (k: "cpu" | "wall") => Math.log(timings[2]![name]![k] / timings[0]![name]![k]) / Math.log(16);
      rows.push({
        group: "big event growth exponent",
        name,
        value: growth("cpu"),
        unit: "log(t16/t1)/log16",
        note: `wall ${growth("wall").toFixed(2)}; 1.0 = linear`,
      });
    }
  }

  // Chunk-size sweep: throughput must not collapse for any chunking.
  {
    const sweep = quick ? [64, 1024, 16 * 1024, 1024 * 1024] : [7, 64, 1024, 16 * 1024, 256 * 1024, 1024 * 1024];
    const real = realisticStream(quick ? 4_000_000 : 20_000_000);
    for (const size of sweep) {
      const t = await measure(
        ["parseSseBatches"],
        cut(real.bytes, size),
        { parseSseBatches: real.messages },
        quick ? 3 : 5,
      );
      rows.push({
        group: "chunking sweep, parseSseBatches",
        name: `${size}-byte chunks`,
        value: real.bytes.length / t["parseSseBatches"]!.cpu / 1e6,
        unit: "MB/s",
      });
    }
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quick = process.argv.includes("--quick");
  const t0 = performance.now();
  const rows = await runSseBench({ quick });
  printTable(rows);
  console.log(
    `\n${quick ? "quick" : "full"} run: ${((performance.now() - t0) / 1000).toFixed(0)} s, node ${process.version}`,
  );
}

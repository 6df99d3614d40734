/**
 * Shared helpers for the SSE decoder tests: building byte chunks, running one
 * input through each public API, and chunking strategies.
 */
import { createSseParser, parseSse, parseSseBatches, type SseMessage } from "../../runtime/sse/index.js";

/** A chunk as written in test tables: text (UTF-8 encoded) or raw bytes. */
export type ChunkSpec = string | readonly number[];

const encoder = new TextEncoder();

export function toBytes(spec: ChunkSpec): Uint8Array {
  return typeof spec === "string" ? encoder.encode(spec) : Uint8Array.from(spec);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/**
 * A ReadableStream of copies of the chunks, one per pull. (Enqueueing all of
 * them up front would be quadratic in Node, whose stream queue uses
 * Array#shift.)
 */
export function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const c = chunks[i++];
      if (c === undefined) controller.close();
      else controller.enqueue(c.slice());
    },
  });
}

export async function* iterableOf(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c.slice();
}

/** Everything one run observed, in order. */
export interface Observed {
  messages: SseMessage[];
  retries: number[];
  comments: string[];
}

export function runPush(chunks: readonly Uint8Array[], maxEventBytes?: number): Observed {
  const out: Observed = { messages: [], retries: [], comments: [] };
  const parser = createSseParser(
    {
      onMessage: (m) => out.messages.push(m),
      onRetry: (ms) => out.retries.push(ms),
      onComment: (c) => out.comments.push(c),
    },
    maxEventBytes === undefined ? undefined : { maxEventBytes },
  );
  // The parser may keep no reference to a fed chunk: prove it by scribbling on each after feed().
  for (const c of chunks) {
    const copy = c.slice();
    parser.feed(copy);
    copy.fill(0x41);
  }
  parser.end();
  return out;
}

/** The messages' data and the size `onError` reports, fed `chunks` with `maxEventBytes: limit`: what referenceWithLimit (./reference.ts) says. */
export function runWithLimit(
  chunks: readonly Uint8Array[],
  limit: number,
): { messages: string[]; errorSize: number | undefined } {
  const messages: string[] = [];
  let errorSize: number | undefined;
  const parser = createSseParser(
    { onMessage: (m) => messages.push(m.data), onError: (e) => (errorSize = e.size) },
    { maxEventBytes: limit },
  );
  for (const c of chunks) parser.feed(c);
  return { messages, errorSize };
}

export async function runIter(
  chunks: readonly Uint8Array[],
  source: "stream" | "iterable" = "stream",
): Promise<Observed> {
  const out: Observed = { messages: [], retries: [], comments: [] };
  const src = source === "stream" ? streamOf(chunks) : iterableOf(chunks);
  for await (const m of parseSse(src, {
    onRetry: (ms) => out.retries.push(ms),
    onComment: (c) => out.comments.push(c),
  })) {
    out.messages.push(m);
  }
  return out;
}

export async function runBatches(
  chunks: readonly Uint8Array[],
  source: "stream" | "iterable" = "stream",
): Promise<Observed & { batches: number }> {
  const out = { messages: [] as SseMessage[], retries: [] as number[], comments: [] as string[], batches: 0 };
  const src = source === "stream" ? streamOf(chunks) : iterableOf(chunks);
  for await (const batch of parseSseBatches(src, {
    onRetry: (ms) => out.retries.push(ms),
    onComment: (c) => out.comments.push(c),
  })) {
    if (batch.length === 0) throw new Error("parseSseBatches yielded an empty array");
    out.batches++;
    out.messages.push(...batch);
  }
  return out;
}

export function byteByByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (b) => Uint8Array.of(b));
}

export function splitAt(bytes: Uint8Array, ...points: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  out.push(bytes.subarray(prev));
  return out;
}

/** Deterministic pseudo-random chunking (sizes 1..maxSize, including empty chunks now and then). */
export function randomChunks(bytes: Uint8Array, seed: number, maxSize: number): Uint8Array[] {
  let s = seed >>> 0 || 1;
  const rnd = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
  const out: Uint8Array[] = [];
  let i = 0;
  while (i < bytes.length) {
    const n = rnd() < 0.05 ? 0 : 1 + Math.floor(rnd() * maxSize);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

/** Where to cut `bytes` after every `every`-th line terminator (LF, CRLF or a lone CR): no line is pending across the chunks. */
export function terminatorCuts(bytes: Uint8Array, every: number): number[] {
  const cuts: number[] = [];
  let count = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a)) && ++count % every === 0) cuts.push(i + 1);
  }
  return cuts;
}

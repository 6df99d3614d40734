/**
 * The client and its event decoder against the usual alternative.
 *
 *   decode   bytes -> validated typed events: a realistic ~20 MB stream of
 *            `assistant_delta` frames (id/event/data lines, as the server
 *            writes them) in 16 KiB chunks. Ours: decodeEventBatches (the
 *            project's SSE decoder + JSON.parse + the generated AgentRunEvent
 *            validator). Baseline: eventsource-parser (its createParser fed
 *            by a streaming TextDecoder, the core of its EventSourceParserStream)
 *            + JSON.parse + ajv compiling the same AgentRunEvent component at
 *            run time with the same options and vendor keywords (and, as a
 *            second baseline, plainly: no discriminator, every oneOf branch
 *            tried). Each reads a ReadableStream built the same way (one
 *            pre-cut chunk per pull) and counts events; the issue's peer is
 *            eventsource-parser behind the stream (TextDecoderStream ->
 *            EventSourceParserStream), and its bare createParser fed by hand
 *            is a second, stronger row. Two streams: text with non-ASCII characters (é, emoji)
 *            and ASCII-only text. MB/s, median of 7 alternating runs after 3
 *            warm-up passes (5 runs on 4 MB with --quick).
 *   size     the real bundles a user gets (bench/programs.ts: the programs
 *            the README shows, importing the package by name): esbuild,
 *            browser platform, ESM, minified, code splitting with every
 *            emitted chunk counted, gzip -9, validators included. Create a
 *            run and stream it with default validation (the operation
 *            functions), the same without validators (operations/
 *            unvalidated), the same on the all-in-one MantyxClient, runAgent
 *            + ToolRegistry, and every validator; beside openapi-fetch +
 *            eventsource-parser/stream bundled the same way.
 *
 * `npx tsx bench/client.ts [--quick]`.
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { createParser } from "eventsource-parser";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { addComponents, componentRef, createValidatorAjv } from "../generator/emit/validators/ajv.js";
import { withoutDiscriminators } from "../generator/emit/validators/prepare.js";
import { loadSchema } from "../generator/load/index.js";
import { decodeEventBatches } from "../index.js";
import { alternate, medianRates } from "./alternate.js";
import { bundle, PROGRAMS, type Bundle, type ProgramName } from "./programs.js";
import { streamOf } from "./sse.js";
import type { BenchRow } from "./table.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const CHUNK = 16 * 1024;

const MIXED = [
  "the",
  "model",
  "streams",
  "tokens",
  "as",
  "small",
  "deltas,",
  "often",
  "one",
  "word",
  "or",
  "two:",
  "résumé",
  "naïve",
  "😀",
  '"quoted"',
  "and\nnewlines",
];
/** The same words with the non-ASCII ones spelled in ASCII. */
const ASCII_SPELLING: Record<string, string> = { résumé: "resume", naïve: "naive", "😀": ":)" };
const ASCII = MIXED.map((word) => ASCII_SPELLING[word] ?? word);

/** A stream of assistant_delta frames of token-sized, varied text, `targetBytes` long. */
export function deltaStream(targetBytes: number, words: readonly string[] = MIXED): Uint8Array {
  const parts: string[] = [];
  let size = 0;
  for (let seq = 1; size < targetBytes; seq++) {
    const n = 1 + (seq % 4);
    let text = "";
    for (let i = 0; i < n; i++) text += `${words[(seq * 7 + i * 3) % words.length]} `;
    const frame = `id: ${seq}\nevent: assistant_delta\ndata: ${JSON.stringify({ seq, type: "assistant_delta", data: { text } })}\n\n`;
    parts.push(frame);
    size += frame.length;
  }
  return new TextEncoder().encode(parts.join(""));
}

function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

async function ours(chunks: readonly Uint8Array[]): Promise<number> {
  let n = 0;
  for await (const batch of decodeEventBatches(streamOf(chunks))) n += batch.length;
  return n;
}

/** eventsource-parser behind the stream, as an application would plug it in. */
async function peerStream(chunks: readonly Uint8Array[], validate: (v: unknown) => boolean): Promise<number> {
  let n = 0;
  // DOM's TextDecoderStream types its writable side as BufferSource.
  const text = streamOf(chunks).pipeThrough(
    new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>,
  );
  const events = text.pipeThrough(new EventSourceParserStream());
  for await (const event of events as unknown as AsyncIterable<{ data: string }>) {
    const value: unknown = JSON.parse(event.data);
    if (!validate(value)) throw new Error("invalid event");
    n++;
  }
  return n;
}

/** eventsource-parser's bare createParser fed by hand: less machinery than its stream. */
async function peerCore(chunks: readonly Uint8Array[], validate: (v: unknown) => boolean): Promise<number> {
  let n = 0;
  const parser = createParser({
    onEvent(event) {
      const value: unknown = JSON.parse(event.data);
      if (!validate(value)) throw new Error("invalid event");
      n++;
    },
  });
  const decoder = new TextDecoder();
  const reader = streamOf(chunks).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  parser.feed(decoder.decode());
  return n;
}

type Check = (v: unknown) => boolean;

/** ajv compiling AgentRunEvent at run time: with the generated validators' options, or plainly (no discriminator: each oneOf branch tried). */
async function liveValidators(): Promise<{ same: Check; plain: Check }> {
  const model = await loadSchema("schema/openapi.yaml", { cwd: root });
  const same = createValidatorAjv();
  addComponents(same, model.schemas);
  const plain = createValidatorAjv({ discriminator: false });
  addComponents(plain, withoutDiscriminators(model.schemas));
  return {
    same: same.getSchema(componentRef("AgentRunEvent"))!,
    plain: plain.getSchema(componentRef("AgentRunEvent"))!,
  };
}

async function decodeRows(
  label: string,
  bytes: Uint8Array,
  validate: Check,
  baselineName: string,
  quick: boolean,
): Promise<BenchRow[]> {
  const chunks = chunksOf(bytes);
  const expected = await ours(chunks);
  if ((await peerStream(chunks, validate)) !== expected || (await peerCore(chunks, validate)) !== expected) {
    throw new Error("the decoders disagree on the event count");
  }
  const mb = bytes.length / (1024 * 1024);
  const runs = quick ? 5 : 7;
  const contenders: Array<() => Promise<number>> = [
    () => ours(chunks),
    () => peerStream(chunks, validate),
    () => peerCore(chunks, validate),
  ];
  const samples = await alternate(contenders, runs);
  const [oursMBs, streamMBs, coreMBs] = medianRates(samples, mb, "wallMs") as [number, number, number];
  const note = `${label}: ${mb.toFixed(1)} MB, ${expected} events, 16 KiB chunks, median of ${runs}`;
  return [
    {
      group: "decode",
      name: "ours: runtime/sse + JSON.parse + generated validator",
      value: oursMBs,
      unit: "MB/s",
      ratio: oursMBs / streamMBs,
      note: `${note}; bar: >= 1.5x`,
    },
    {
      group: "decode",
      name: `${baselineName}, behind the stream`,
      value: streamMBs,
      unit: "MB/s",
      ratio: 1,
      note: "peer",
    },
    {
      group: "decode",
      name: `${baselineName}, bare createParser`,
      value: coreMBs,
      unit: "MB/s",
      ratio: coreMBs / streamMBs,
      note: `ours / this: ${(oursMBs / coreMBs).toFixed(2)}x`,
    },
  ];
}

async function gzipSize(contents: string): Promise<{ min: number; gz: number }> {
  const out = await build({
    stdin: { contents, resolveDir: root, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const code = out.outputFiles[0]!.contents;
  return { min: code.length, gz: gzipSync(code, { level: 9 }).length };
}

/**
 * The real bundles a user gets (issue 13's bars): the programs of
 * bench/programs.ts, as the README shows them, validators included, every
 * emitted chunk counted; each beside openapi-fetch + eventsource-parser.
 */
export async function sizeRows(): Promise<BenchRow[]> {
  const sizes = {} as Record<ProgramName, Bundle>;
  for (const name of Object.keys(PROGRAMS) as ProgramName[]) sizes[name] = await bundle(PROGRAMS[name]);
  const peer = sizes.peer;
  const decoder = await gzipSize(`export { parseSseBatches } from "./runtime/sse/index.ts";`);
  const fetchOnly = await gzipSize(`export { default as createClient } from "openapi-fetch";`);
  const parserOnly = await gzipSize(`export { EventSourceParserStream } from "eventsource-parser/stream";`);
  const kb = (n: number) => n / 1000;
  const row = (name: string, b: { min: number; gz: number }, bar: string): BenchRow => ({
    group: "size",
    name,
    value: kb(b.gz),
    unit: "kB gz",
    ratio: b.gz / peer.gz,
    note: `${kb(b.min).toFixed(1)} kB min${bar ? `; bar: ${bar}` : ""}`,
  });
  const { createAndStream, createAndStreamUnvalidated } = sizes;
  return [
    row("real bundle: MantyxCore + createRun + streamRun, default validation", createAndStream, "<= 24 kB"),
    {
      group: "size",
      name: "  of which the two validators it calls (run-create-request all-errors, agent-run-event receive)",
      value: kb(createAndStream.gz - createAndStreamUnvalidated.gz),
      unit: "kB gz",
      note: `${kb(createAndStream.min - createAndStreamUnvalidated.min).toFixed(1)} kB min; validators k times smaller give about ${kb(createAndStreamUnvalidated.gz).toFixed(1)} + this / k`,
    },
    row("real bundle: the same with validation off (operations/unvalidated)", createAndStreamUnvalidated, "<= 7 kB"),
    row("real bundle: the same on the all-in-one MantyxClient (every body validator)", sizes.createAndStreamClass, ""),
    row("real bundle: runAgent + ToolRegistry on MantyxCore, a local tool", sizes.runAgentWithTools, ""),
    row("every validator (validators/index.js)", sizes.allValidators, "<= 50 kB"),
    row("  the SSE decoder alone (parseSseBatches)", decoder, ""),
    {
      group: "size",
      name: "openapi-fetch + eventsource-parser/stream",
      value: kb(peer.gz),
      unit: "kB gz",
      ratio: 1,
      note: `${kb(peer.min).toFixed(1)} kB min`,
    },
    { group: "size", name: "  openapi-fetch alone", value: kb(fetchOnly.gz), unit: "kB gz" },
    { group: "size", name: "  eventsource-parser/stream alone", value: kb(parserOnly.gz), unit: "kB gz" },
  ];
}

export async function runClientBench(opts: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const quick = opts.quick === true;
  const size = quick ? 4 * 1024 * 1024 : 20 * 1024 * 1024;
  const mixed = deltaStream(size, MIXED);
  const { same, plain } = await liveValidators();
  return [
    ...(await decodeRows("text with é/😀", mixed, same, "eventsource-parser + JSON.parse + ajv (same options)", quick)),
    ...(await decodeRows(
      "ASCII text",
      deltaStream(size, ASCII),
      same,
      "eventsource-parser + JSON.parse + ajv (same options)",
      quick,
    )),
    ...(await decodeRows("text with é/😀", mixed, plain, "eventsource-parser + JSON.parse + ajv (plain oneOf)", quick)),
    ...(await sizeRows()),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { printTable } = await import("./table.js");
  printTable(await runClientBench({ quick: process.argv.includes("--quick") }));
}

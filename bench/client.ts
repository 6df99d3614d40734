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
 *            pre-cut chunk per pull) and counts events; the peer is
 *            eventsource-parser behind the stream (TextDecoderStream ->
 *            EventSourceParserStream), and its bare createParser fed by hand
 *            is a second, stronger row. Two streams: text with non-ASCII characters (é, emoji)
 *            and ASCII-only text. MB/s, median of 7 alternating runs after 3
 *            warm-up passes (5 runs on 4 MB with --quick).
 *   size     esbuild bundle (ESM, minified, browser platform) + gzip of
 *            (a) generated/client.ts + runtime/events, with every generated
 *            validator external (they are measured by bench/validators.ts),
 *            split into the decoder alone and the client's increment over
 *            it; the agent loop (runAgent), the ToolRegistry (tool dispatch
 *            + JSON Schema checker) and parseStructuredOutput are only
 *            bundled when imported, so each is a row of its own (bytes on
 *            top of (a)); and (b) openapi-fetch + eventsource-parser/stream
 *            bundled the same way. (a) does more: typed errors, retries,
 *            stream resume, request and event validation.
 *
 * `npx tsx bench/client.ts [--quick]`.
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";
import { createParser } from "eventsource-parser";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { addComponents, componentRef, createValidatorAjv } from "../generator/emit/validators/ajv.js";
import { withoutDiscriminators } from "../generator/emit/validators/prepare.js";
import { loadSchema } from "../generator/load/index.js";
import { decodeEventBatches } from "../index.js";
import { streamOf } from "./sse.js";
import type { BenchRow } from "./table.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const CHUNK = 16 * 1024;

const MIXED = ["the", "model", "streams", "tokens", "as", "small", "deltas,", "often", "one", "word", "or", "two:", "résumé", "naïve", "😀", "\"quoted\"", "and\nnewlines"];
const ASCII = ["the", "model", "streams", "tokens", "as", "small", "deltas,", "often", "one", "word", "or", "two:", "resume", "naive", ":)", "\"quoted\"", "and\nnewlines"];

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
  const text = streamOf(chunks).pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>);
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

type Check = (v: unknown) => boolean;

/** ajv compiling AgentRunEvent at run time: with the generated validators' options, or plainly (no discriminator: each oneOf branch tried). */
async function liveValidators(): Promise<{ same: Check; plain: Check }> {
  const model = await loadSchema("schema/openapi.yaml", { cwd: root });
  const same = createValidatorAjv();
  addComponents(same, model.schemas);
  const plain = createValidatorAjv({ discriminator: false });
  addComponents(plain, withoutDiscriminators(model.schemas));
  return { same: same.getSchema(componentRef("AgentRunEvent"))!, plain: plain.getSchema(componentRef("AgentRunEvent"))! };
}

async function decodeRows(label: string, bytes: Uint8Array, validate: Check, baselineName: string, quick: boolean): Promise<BenchRow[]> {
  const chunks = chunksOf(bytes);
  const expected = await ours(chunks);
  if ((await peerStream(chunks, validate)) !== expected || (await peerCore(chunks, validate)) !== expected) {
    throw new Error("the decoders disagree on the event count");
  }
  const mb = bytes.length / (1024 * 1024);
  const runs = quick ? 5 : 7;
  const contenders: Array<() => Promise<number>> = [() => ours(chunks), () => peerStream(chunks, validate), () => peerCore(chunks, validate)];
  const rates: number[][] = contenders.map(() => []);
  // Warm all (the JIT settles after a few passes), then rotate the order so
  // machine noise hits every contender alike.
  for (let i = 0; i < 2; i++) for (const run of contenders) await run();
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < contenders.length; k++) {
      const j = (i + k) % contenders.length;
      const t = performance.now();
      await contenders[j]!();
      rates[j]!.push(mb / ((performance.now() - t) / 1000));
    }
  }
  const [oursMBs, streamMBs, coreMBs] = rates.map(median) as [number, number, number];
  const note = `${label}: ${mb.toFixed(1)} MB, ${expected} events, 16 KiB chunks, median of ${runs}`;
  return [
    { group: "decode", name: "ours: runtime/sse + JSON.parse + generated validator", value: oursMBs, unit: "MB/s", ratio: oursMBs / streamMBs, note: `${note}; bar: >= 1.5x` },
    { group: "decode", name: `${baselineName}, behind the stream`, value: streamMBs, unit: "MB/s", ratio: 1, note: "peer" },
    { group: "decode", name: `${baselineName}, bare createParser`, value: coreMBs, unit: "MB/s", ratio: coreMBs / streamMBs, note: `ours / this: ${(oursMBs / coreMBs).toFixed(2)}x` },
  ];
}

const externalValidators: Plugin = {
  name: "external-validators",
  setup(b) {
    b.onResolve({ filter: /validators\/[^/]+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

async function gzipSize(contents: string, external: Plugin[] = []): Promise<{ min: number; gz: number }> {
  const out = await build({
    stdin: { contents, resolveDir: root, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    plugins: external,
    logLevel: "silent",
  });
  const code = out.outputFiles[0]!.contents;
  return { min: code.length, gz: gzipSync(code, { level: 9 }).length };
}

export async function sizeRows(): Promise<BenchRow[]> {
  const base = `export { MantyxClient } from "./generated/client.ts"; export { decodeEvents, decodeEventBatches } from "./generated/events.ts";`;
  const size = (extra = "") => gzipSize(base + extra, [externalValidators]);
  const client = await size();
  // The agent loop, the tool registry and structured output are standalone functions: bundled only when imported.
  const withRun = await size(`export { runAgent } from "./mantyx/index.ts";`);
  const withTools = await size(`export { runAgent, ToolRegistry } from "./mantyx/index.ts";`);
  const withOutput = await size(`export { parseStructuredOutput } from "./mantyx/index.ts";`);
  const decoder = await gzipSize(`export { decodeEvents, decodeEventBatches } from "./generated/events.ts";`, [externalValidators]);
  const peer = await gzipSize(`export { default as createClient } from "openapi-fetch"; export { EventSourceParserStream } from "eventsource-parser/stream";`);
  const fetchOnly = await gzipSize(`export { default as createClient } from "openapi-fetch";`);
  const parserOnly = await gzipSize(`export { EventSourceParserStream } from "eventsource-parser/stream";`);
  // What a user really bundles (issue 13's bars): a program that creates a run and streams it, validators included.
  const program = (options: string) =>
    `import { MantyxClient } from "./generated/client.ts"; const c = new MantyxClient({ baseUrl: "https://x.invalid", workspace: "w", apiKey: "k"${options} }); const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" }); for await (const e of c.streamRun(runId)) console.log(e.type);`;
  const realDefault = await gzipSize(program(""));
  const realOff = await gzipSize(program(', validation: "off"'));
  const allValidators = await gzipSize(`export * from "./generated/validators/index.js";`);
  const kb = (n: number) => n / 1000;
  const plus = (name: string, b: { min: number; gz: number }): BenchRow => ({
    group: "size",
    name,
    value: kb(b.gz - client.gz),
    unit: "kB gz",
    note: `on top of the client + decoder; ${kb(b.min - client.min).toFixed(1)} kB min`,
  });
  return [
    { group: "size", name: "real bundle: createRun + streamRun, default validation", value: kb(realDefault.gz), unit: "kB gz", ratio: realDefault.gz / peer.gz, note: `${kb(realDefault.min).toFixed(1)} kB min; bar: <= 24 kB` },
    { group: "size", name: "real bundle: the same with validation: \"off\"", value: kb(realOff.gz), unit: "kB gz", ratio: realOff.gz / peer.gz, note: `${kb(realOff.min).toFixed(1)} kB min; bar: <= 7 kB (the table still imports the body validators)` },
    { group: "size", name: "every validator (validators/index.js)", value: kb(allValidators.gz), unit: "kB gz", note: `${kb(allValidators.min).toFixed(1)} kB min; bar: <= 50 kB` },
    { group: "size", name: "ours: client + decoder (validators external)", value: kb(client.gz), unit: "kB gz", ratio: client.gz / peer.gz, note: `${kb(client.min).toFixed(1)} kB min` },
    { group: "size", name: "  of which the decoder alone", value: kb(decoder.gz), unit: "kB gz", note: `${kb(decoder.min).toFixed(1)} kB min` },
    { group: "size", name: "  of which the client (increment over the decoder)", value: kb(client.gz - decoder.gz), unit: "kB gz", note: `${kb(client.min - decoder.min).toFixed(1)} kB min` },
    plus("+ runAgent (the agent loop)", withRun),
    plus("+ runAgent + ToolRegistry (local/a2a/mcp dispatch, JSON Schema checker)", withTools),
    plus("+ parseStructuredOutput", withOutput),
    { group: "size", name: "openapi-fetch + eventsource-parser/stream", value: kb(peer.gz), unit: "kB gz", ratio: 1, note: `${kb(peer.min).toFixed(1)} kB min` },
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
    ...(await decodeRows("ASCII text", deltaStream(size, ASCII), same, "eventsource-parser + JSON.parse + ajv (same options)", quick)),
    ...(await decodeRows("text with é/😀", mixed, plain, "eventsource-parser + JSON.parse + ajv (plain oneOf)", quick)),
    ...(await sizeRows()),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { printTable } = await import("./table.js");
  printTable(await runClientBench({ quick: process.argv.includes("--quick") }));
}

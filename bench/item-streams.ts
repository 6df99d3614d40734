/**
 * `npm run bench -- --only items`: the item streams of any document
 * (runtime/client/item-stream.ts, issue 24).
 *
 * - decode: a chat-completion-chunk-sized typed stream (payload-shaped, each
 *   event's data a ~230-byte JSON chunk, ended by `data: [DONE]`), read as
 *   a user of a generated client reads it: the operation function of a
 *   JSON-or-stream operation (chat-31.yaml's `createCompletion`, generated
 *   by `gen`, on its core client) whose `fetch` answers a `Response` over
 *   an in-memory ReadableStream of the bytes (its Content-Type picks the
 *   stream: runtime/client/item-stream.ts `eitherKind` -> `itemStream`),
 *   with a receive-level validator of the chunk (ajv with the generator's
 *   options, the same function on both sides) and without one; against
 *   eventsource-parser's stream (TextDecoderStream -> EventSourceParserStream,
 *   as e.g. the Vercel AI SDK reads a stream) + JSON.parse (+ the same
 *   validator) on the `body` of the same `Response`. Network-sized chunks:
 *   16 KiB (a fast stream, as a socket read delivers it), and one event per
 *   chunk (a live stream: a server flushes each token). Bars (16 KiB): not
 *   slower with validation, >= 2x without. The "ceiling" row is
 *   JSON.parse alone on the same data (no decoding, no iteration): no
 *   reader that JSON-parses every event can be faster, so its ratio bounds
 *   every other ratio of the table. Contenders alternate (the order
 *   rotates every round) after two warm-up rounds; figures are medians of
 *   MB/s of this process's CPU time (the machine is shared), the note
 *   gives the wall-clock ratio too.
 * - size: a browser program that streams one JSON-or-stream operation
 *   through the operation functions of a document of ours
 *   (test/streams/documents/chat-31.yaml: `createResponse(core, { stream:
 *   true })`), generated and bundled as bench/programs.ts bundles (browser,
 *   minified, gzip -9). Bar: <= 24 kB gz.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { runCli } from "../generator/cli.js";
import { EMITTERS } from "../generator/emit/index.js";
import { createValidatorAjv } from "../generator/emit/validators/ajv.js";
import { isStream } from "../runtime/client/item-stream.js";
import { alternate, medianRates } from "./alternate.js";
import { bundle } from "./programs.js";
import { streamOf } from "./sse.js";
import type { BenchRow } from "./table.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const CHUNK = 16 * 1024;
const WORDS = [
  "The",
  " model",
  " streams",
  " tokens",
  " as",
  " small",
  " deltas",
  ",",
  " often",
  " one",
  " word",
  " résumé",
  " 😀",
  ' "quoted"',
];

/** Chat completion chunks, `targetBytes` long, ended by [DONE]. */
export function chunkStream(targetBytes: number): Uint8Array {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const chunk = {
      id: "chatcmpl-9aXbYcZ",
      object: "chat.completion.chunk",
      created: 1764806400,
      model: "gpt-x-2026-01",
      choices: [{ index: 0, delta: { content: WORDS[i % WORDS.length] }, logprobs: null, finish_reason: null }],
    };
    const frame = `data: ${JSON.stringify(chunk)}\n\n`;
    parts.push(frame);
    size += frame.length;
  }
  parts.push("data: [DONE]\n\n");
  return new TextEncoder().encode(parts.join(""));
}

/** The chunk's schema at the receive level: its required fields and their types. */
const CHUNK_SCHEMA = {
  type: "object",
  required: ["id", "object", "created", "model", "choices"],
  properties: {
    id: { type: "string" },
    object: { type: "string" },
    created: { type: "integer" },
    model: { type: "string" },
    choices: {
      type: "array",
      items: {
        type: "object",
        required: ["index", "delta"],
        properties: {
          index: { type: "integer" },
          delta: { type: "object", properties: { content: { type: ["string", "null"] } } },
          finish_reason: { type: ["string", "null"] },
        },
      },
    },
  },
};

type Check = ((v: unknown) => boolean) | undefined;

/** What `gen` wrote for chat-31.yaml: its core client and operation functions (without body validators: createCompletion has none). */
interface Chat31 {
  ChatCore: new (options: { baseUrl: string; apiKey: string; fetch: typeof fetch }) => unknown;
  createCompletion: (client: unknown, body: { prompt: string }) => Promise<unknown>;
}

const OUT = path.join(root, "node_modules/.cache/bench-item-streams/chat-31");
let generated: Promise<void> | undefined;
/** `gen` of test/streams/documents/chat-31.yaml, once per process. */
function gen(): Promise<void> {
  return (generated ??= (async () => {
    const runtime = path.relative(OUT, path.join(root, "runtime/codegen/v1.js")).split(path.sep).join("/");
    const code = await runCli(["gen", "--schema", "chat-31.yaml", "--out", OUT, "--runtime", runtime], {
      cwd: path.join(root, "test/streams/documents"),
      emitters: EMITTERS,
      stdout: () => undefined,
      stderr: () => undefined,
    });
    if (code !== 0) throw new Error("bench/item-streams.ts: gen of chat-31.yaml failed");
  })());
}

const answer = (chunks: readonly Uint8Array[]): Response =>
  new Response(streamOf(chunks), { headers: { "content-type": "text/event-stream" } });

async function ours(api: Chat31, chunks: readonly Uint8Array[], check: Check): Promise<number> {
  let n = 0;
  const client = new api.ChatCore({ baseUrl: "https://api.example", apiKey: "key", fetch: async () => answer(chunks) });
  const stream = await api.createCompletion(client, { prompt: "Hello" });
  if (!isStream(stream)) throw new Error("not a stream");
  for await (const item of stream as AsyncIterable<unknown>) {
    if (check && !check(item)) throw new Error("invalid chunk");
    n++;
  }
  return n;
}

async function peer(chunks: readonly Uint8Array[], check: Check): Promise<number> {
  let n = 0;
  const text = answer(chunks).body!.pipeThrough(
    new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>,
  );
  for await (const event of text.pipeThrough(new EventSourceParserStream()) as unknown as AsyncIterable<{
    data: string;
  }>) {
    if (event.data === "[DONE]") break;
    const value: unknown = JSON.parse(event.data);
    if (check && !check(value)) throw new Error("invalid chunk");
    n++;
  }
  return n;
}

/** The ceiling: JSON.parse (and the validator) alone on the events' data, decoded beforehand. */
async function jsonOnly(datas: readonly string[], check: Check): Promise<number> {
  let n = 0;
  for (const data of datas) {
    const value: unknown = JSON.parse(data);
    if (check && !check(value)) throw new Error("invalid chunk");
    n++;
  }
  return n;
}

/** The stream cut at each event's end (a live stream), or in `size`-byte chunks. */
function cut(bytes: Uint8Array, size: number | "event"): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  if (size === "event") {
    for (let i = 0, j: number; i < bytes.length; i = j + 1)
      chunks.push(bytes.subarray(i, (j = bytes.indexOf(10, bytes.indexOf(10, i) + 1)) + 1));
    return chunks;
  }
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

async function decodeRows(
  bytes: Uint8Array,
  size: number | "event",
  check: Check,
  label: string,
  bar: string,
  quick: boolean,
): Promise<BenchRow[]> {
  await gen();
  const api = (await import(path.join(OUT, "operations-unvalidated.ts"))) as Chat31;
  const chunks = cut(bytes, size);
  const expected = await ours(api, chunks, check);
  if ((await peer(chunks, check)) !== expected) throw new Error("the decoders disagree on the chunk count");
  const datas = new TextDecoder()
    .decode(bytes)
    .split("\n\n")
    .map((frame) => frame.slice("data: ".length))
    .filter((data) => data && data !== "[DONE]");
  if (datas.length !== expected) throw new Error("the ceiling reads another count");
  const mb = bytes.length / (1024 * 1024);
  const runs = quick ? 5 : 7;
  const contenders = [() => ours(api, chunks, check), () => peer(chunks, check), () => jsonOnly(datas, check)];
  const samples = await alternate(contenders, runs);
  // MB/s of CPU time (the machine is shared: time stolen by other processes is not the reader's), and of wall-clock time.
  const [o, p, c] = medianRates(samples, mb, "cpuMs") as [number, number, number];
  const [ow, pw] = medianRates(samples, mb, "wallMs") as [number, number];
  const chunking = size === "event" ? "one event per chunk" : `${size / 1024} KiB chunks`;
  return [
    {
      group: "items",
      name: `ours: a generated JSON-or-stream operation's item stream${label}`,
      value: o,
      unit: "MB/s",
      ratio: o / p,
      note: `chat chunks: ${mb.toFixed(1)} MB, ${expected} chunks + [DONE], ${chunking}, median of ${runs} (CPU time; wall-clock ratio ${(ow / pw).toFixed(2)}x)${bar ? `; bar: ${bar}` : ""}`,
    },
    {
      group: "items",
      name: `eventsource-parser stream + JSON.parse${label}`,
      value: p,
      unit: "MB/s",
      ratio: 1,
      note: "peer",
    },
    {
      group: "items",
      name: `  ceiling: JSON.parse alone on the data${label}`,
      value: c,
      unit: "MB/s",
      ratio: c / p,
      note: "no decoding, no iteration: bounds the ratio of any reader that JSON-parses every event",
    },
  ];
}

/** The bundle of a browser program streaming chat-31's createResponse through its operation functions. */
async function sizeRow(): Promise<BenchRow> {
  await gen();
  const out = OUT;
  const program = `import { ChatCore, createResponse } from ${JSON.stringify(path.join(out, "operations.ts"))};
const client = new ChatCore({ baseUrl: "https://api.example", apiKey: "key" });
for await (const event of await createResponse(client, { input: "Hello", stream: true })) if (event.type === "response.output_text.delta") console.log(event.delta);`;
  const b = await bundle(program);
  return {
    group: "size",
    name: "real bundle: a JSON-or-stream operation streamed via operation functions (chat-31.yaml), default validation",
    value: b.gz / 1000,
    unit: "kB gz",
    note: `${(b.min / 1000).toFixed(1)} kB min; bar: <= 24 kB`,
  };
}

export async function runItemStreamBench(opts: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const quick = opts.quick === true;
  const bytes = chunkStream(quick ? 4 * 1024 * 1024 : 16 * 1024 * 1024);
  const ajv = createValidatorAjv();
  const check = ajv.compile(CHUNK_SCHEMA) as (v: unknown) => boolean;
  return [
    ...(await decodeRows(
      bytes,
      CHUNK,
      check,
      ", receive-level validator",
      "not slower than the peer (>= 1.0x)",
      quick,
    )),
    ...(await decodeRows(bytes, CHUNK, undefined, ", no validation", ">= 2x", quick)),
    ...(await decodeRows(chunkStream(bytes.length >> 2), "event", undefined, ", no validation, live", "", quick)),
    await sizeRow(),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { printTable } = await import("./table.js");
  printTable(await runItemStreamBench({ quick: process.argv.includes("--quick") }));
}

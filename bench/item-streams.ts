/**
 * `npm run bench -- --only items`: the item streams of any document
 * (runtime/client/item-stream.ts, issue 24).
 *
 * - decode: a chat-completion-chunk-sized typed stream (payload-shaped, each
 *   event's data a ~230-byte JSON chunk, ended by `data: [DONE]`), read by
 *   our item stream with a receive-level validator of the chunk (ajv with
 *   the generator's options, the same function on both sides), and
 *   without one, against eventsource-parser's stream + JSON.parse (+ the
 *   same validator) on the same bytes, 16 KiB chunks. Bars: not slower with
 *   validation, >= 2x without.
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
import { itemStream } from "../runtime/client/item-stream.js";
import { bundle } from "./programs.js";
import { streamOf } from "./sse.js";
import type { BenchRow } from "./table.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const CHUNK = 16 * 1024;
const WORDS = ["The", " model", " streams", " tokens", " as", " small", " deltas", ",", " often", " one", " word", " résumé", " 😀", " \"quoted\""];

/** Chat completion chunks, `targetBytes` long, ended by [DONE]. */
export function chunkStream(targetBytes: number): Uint8Array {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const chunk = { id: "chatcmpl-9aXbYcZ", object: "chat.completion.chunk", created: 1764806400, model: "gpt-x-2026-01", choices: [{ index: 0, delta: { content: WORDS[i % WORDS.length] }, logprobs: null, finish_reason: null }] };
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
        properties: { index: { type: "integer" }, delta: { type: "object", properties: { content: { type: ["string", "null"] } } }, finish_reason: { type: ["string", "null"] } },
      },
    },
  },
};

type Check = ((v: unknown) => boolean) | undefined;

async function ours(chunks: readonly Uint8Array[], check: Check): Promise<number> {
  let n = 0;
  const open = async (): Promise<Response> => new Response(streamOf(chunks), { headers: { "content-type": "text/event-stream" } });
  for await (const item of itemStream("createChatCompletion", { mode: "sse-data", sentinel: "[DONE]" }, open)) {
    if (check && !check(item)) throw new Error("invalid chunk");
    n++;
  }
  return n;
}

async function peer(chunks: readonly Uint8Array[], check: Check): Promise<number> {
  let n = 0;
  const text = streamOf(chunks).pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>);
  for await (const event of text.pipeThrough(new EventSourceParserStream()) as unknown as AsyncIterable<{ data: string }>) {
    if (event.data === "[DONE]") break;
    const value: unknown = JSON.parse(event.data);
    if (check && !check(value)) throw new Error("invalid chunk");
    n++;
  }
  return n;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function decodeRows(bytes: Uint8Array, check: Check, label: string, bar: string, quick: boolean): Promise<BenchRow[]> {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.subarray(i, i + CHUNK));
  const expected = await ours(chunks, check);
  if ((await peer(chunks, check)) !== expected) throw new Error("the decoders disagree on the chunk count");
  const mb = bytes.length / (1024 * 1024);
  const runs = quick ? 5 : 7;
  const contenders = [() => ours(chunks, check), () => peer(chunks, check)];
  const rates: number[][] = [[], []];
  for (let i = 0; i < 2; i++) for (const run of contenders) await run();
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < 2; k++) {
      const j = (i + k) % 2;
      const t = performance.now();
      await contenders[j]!();
      rates[j]!.push(mb / ((performance.now() - t) / 1000));
    }
  }
  const [o, p] = rates.map(median) as [number, number];
  return [
    { group: "items", name: `ours: item stream (runtime/client/item-stream.ts)${label}`, value: o, unit: "MB/s", ratio: o / p, note: `chat chunks: ${mb.toFixed(1)} MB, ${expected} chunks + [DONE], 16 KiB chunks, median of ${runs}; bar: ${bar}` },
    { group: "items", name: `eventsource-parser stream + JSON.parse${label}`, value: p, unit: "MB/s", ratio: 1, note: "peer" },
  ];
}

/** The bundle of a browser program streaming chat-31's createResponse through its operation functions. */
async function sizeRow(): Promise<BenchRow> {
  const out = path.join(root, "node_modules/.cache/bench-item-streams/chat-31");
  const runtime = path.relative(out, path.join(root, "runtime/codegen/v1.js")).split(path.sep).join("/");
  const code = await runCli(["gen", "--schema", "chat-31.yaml", "--out", out, "--runtime", runtime], {
    cwd: path.join(root, "test/streams/documents"),
    emitters: EMITTERS,
    stdout: () => undefined,
    stderr: () => undefined,
  });
  if (code !== 0) throw new Error("bench/item-streams.ts: gen of chat-31.yaml failed");
  const program = `import { ChatCore, createResponse } from ${JSON.stringify(path.join(out, "operations.ts"))};
const client = new ChatCore({ baseUrl: "https://api.example", apiKey: "key" });
for await (const event of await createResponse(client, { input: "Hello", stream: true })) if (event.type === "response.output_text.delta") console.log(event.delta);`;
  const b = await bundle(program);
  return { group: "size", name: "real bundle: a JSON-or-stream operation streamed via operation functions (chat-31.yaml), default validation", value: b.gz / 1000, unit: "kB gz", note: `${(b.min / 1000).toFixed(1)} kB min; bar: <= 24 kB` };
}

export async function runItemStreamBench(opts: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const quick = opts.quick === true;
  const bytes = chunkStream(quick ? 4 * 1024 * 1024 : 16 * 1024 * 1024);
  const ajv = createValidatorAjv();
  const check = ajv.compile(CHUNK_SCHEMA) as (v: unknown) => boolean;
  return [
    ...(await decodeRows(bytes, check, ", receive-level validator", "not slower than the peer (>= 1.0x)", quick)),
    ...(await decodeRows(bytes, undefined, ", no validation", ">= 2x", quick)),
    await sizeRow(),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { printTable } = await import("./table.js");
  printTable(await runItemStreamBench({ quick: process.argv.includes("--quick") }));
}

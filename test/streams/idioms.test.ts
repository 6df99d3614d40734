/**
 * Stream-description idioms (issue 24), each a small document of ours in
 * ./documents: a 3.1 payload-shaped stream tagged by `type` behind a
 * discriminator ajv refuses, in a JSON-or-stream operation with and without
 * a flag property (chat-31); 3.1 event-shaped streams tagged by `event`,
 * one the server resumes and one it does not, `x-item-schema` with a
 * sentinel of its own, and a guess (events-31); 3.2 `itemSchema` (items-32).
 * For each: `gen` (its warnings), `tsc --strict` over the output and type
 * tests of the narrowing (`expectTypeOf`, checked by tsc), and the
 * generated client over real HTTP against a server that streams with
 * faults (CRLF line ends, 3-byte chunks, drops, a stream held open after
 * its sentinel, error and stray frames, a wrong content type).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConnectionError,
  isStream,
  ServerSentError,
  StreamDecodeError,
  UnexpectedResponseError,
} from "../../runtime/client/index.js";
import { tsc, writeStrictProject } from "../generator/foreign/support.js";
import { genAll, REPO, tempDir, type CliRun } from "../generator/support.js";

const DOCUMENTS = path.join(REPO, "test/streams/documents");
const NAMES = ["chat-31", "events-31", "items-32"] as const;
const root = tempDir();
const runs = new Map<string, CliRun>();
const out = (name: string): string => path.join(root, name);

beforeAll(async () => {
  for (const name of NAMES) runs.set(name, await genAll(path.join(DOCUMENTS, `${name}.yaml`), out(name)));
}, 120_000);

const warnings = (name: string): string[] =>
  runs
    .get(name)!
    .stderr.split("\n")
    .filter((l) => l.startsWith("warning"));

describe("gen", () => {
  it("reads each document, with one warning per guess or refused discriminator and none else", () => {
    for (const name of NAMES) expect(runs.get(name)!.code, runs.get(name)!.stderr).toBe(0);
    expect(warnings("chat-31")).toEqual([
      expect.stringMatching(
        /^warning\[validators\]: chat-31\.yaml:\d+:\d+: this discriminator is left out of the validators: it stands beside an anyOf.*#\/components\/schemas\/ResponseStreamEvent\/discriminator/,
      ),
    ]);
    expect(warnings("events-31")).toEqual([
      expect.stringMatching(
        /^warning\[client\]: events-31\.yaml:\d+:\d+: the text\/event-stream `schema` is read as the event .*`x-item-schema`.*~1wrapped/,
      ),
    ]);
    expect(warnings("items-32")).toEqual([]);
  });

  it("the output and type tests of the narrowing pass tsc --strict", () => {
    writeFileSync(path.join(root, "narrowing.test-d.ts"), TYPE_TESTS);
    const tsconfig = writeStrictProject(root, {
      include: ["**/*.ts"],
      compilerOptions: { paths: { vitest: [path.join(REPO, "node_modules/vitest/dist/index.d.ts")] } },
    });
    expect(tsc(tsconfig)).toBe("");
  }, 120_000);
});

/** Type tests: what a caller writes, with the types it must see. A wrong narrowing fails tsc. */
const TYPE_TESTS = `
import { expectTypeOf } from "vitest";
import { isStream } from ${JSON.stringify(path.relative(root, path.join(REPO, "runtime/client/index.js")))};
import { ChatClient } from "./chat-31/client.js";
import { askQuestion, ChatCore, createCompletion, createResponse } from "./chat-31/operations.js";
import type * as C from "./chat-31/types.js";
import { ApiClient as EventsClient } from "./events-31/client.js";
import type * as E from "./events-31/types.js";
import { ApiClient as ItemsClient } from "./items-32/client.js";

export async function chat(client: ChatClient, core: ChatCore): Promise<void> {
  const stream = await client.createResponse({ input: "hi", stream: true });
  expectTypeOf(stream).toEqualTypeOf<AsyncIterable<C.ResponseStreamEvent>>();
  for await (const event of stream) {
    if (event.type === "response.completed") expectTypeOf(event).toEqualTypeOf<C.ResponseCompleted>();
    else if (event.type === "response.output_text.delta") expectTypeOf(event.delta).toEqualTypeOf<string>();
    else if (event.type === "response.failed") expectTypeOf(event.error.message).toEqualTypeOf<string>();
    else expectTypeOf(event).toEqualTypeOf<C.ResponseCreated>();
  }
  expectTypeOf(await client.createResponse({ input: "hi" })).toEqualTypeOf<C.Response>();
  expectTypeOf(await client.createResponse({ input: "hi", stream: false })).toEqualTypeOf<C.Response>();
  const flag: boolean = Math.random() > 0.5;
  expectTypeOf(await client.createResponse({ input: "hi", stream: flag })).toEqualTypeOf<C.Response | AsyncIterable<C.ResponseStreamEvent>>();
  expectTypeOf(await createResponse(core, { input: "hi", stream: true })).toEqualTypeOf<AsyncIterable<C.ResponseStreamEvent>>();
  expectTypeOf(await createResponse(core, { input: "hi" })).toEqualTypeOf<C.Response>();
  // Without a flag property: a union the caller narrows.
  const answer = await createCompletion(core, { prompt: "p" });
  expectTypeOf(answer).toEqualTypeOf<C.Response | AsyncIterable<C.Chunk>>();
  if (isStream(answer)) expectTypeOf(answer).toEqualTypeOf<AsyncIterable<C.Chunk>>();
  else expectTypeOf(answer).toEqualTypeOf<C.Response>();
  // Inline types over several lines in the overloads (an inline JSON answer), text events without a schema.
  expectTypeOf(await client.askQuestion({ question: "q", stream: true })).toEqualTypeOf<AsyncIterable<{ event: string; data: string; id: string; retry?: number }>>();
  expectTypeOf((await askQuestion(core, { question: "q" })).sources).toEqualTypeOf<{ title?: string; url?: string; [key: string]: unknown }[] | undefined>();
}

export async function events(client: EventsClient): Promise<void> {
  for await (const event of client.streamFeed({ resume: true, lastEventId: "3" })) {
    if (event.event === "tick") expectTypeOf(event.data).toEqualTypeOf<E.Tick>();
    else expectTypeOf(event.data.text).toEqualTypeOf<string>();
  }
  for await (const line of client.streamLog()) expectTypeOf(line).toEqualTypeOf<E.LogLine>();
  for await (const wrapped of client.streamWrapped()) expectTypeOf(wrapped.data.n).toEqualTypeOf<number>();
}

export async function items(client: ItemsClient): Promise<void> {
  for await (const item of client.streamDeltas()) expectTypeOf(item.data.text).toEqualTypeOf<string>();
}
`;

// ---------------------------------------------------------------- end to end

/** Writes `text` as a fault would: CRLF line ends, in 3-byte pieces. */
async function faulty(res: ServerResponse, text: string): Promise<void> {
  const bytes = Buffer.from(text.replace(/\n/g, "\r\n"));
  for (let i = 0; i < bytes.length; i += 3) {
    res.write(bytes.subarray(i, i + 3));
    await new Promise((r) => setImmediate(r));
  }
}
const frame = (data: unknown, extra = ""): string =>
  `${extra}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

const bodyOf = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c));
    req.on("end", () => resolve(text));
  });

const seen: { path: string; accept?: string; lastEventId?: string; body?: string }[] = [];
let server: Server;
let baseUrl = "";

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url!, "http://x");
  const body = await bodyOf(req);
  seen.push({
    path: url.pathname,
    accept: req.headers.accept,
    lastEventId: req.headers["last-event-id"] as string | undefined,
    body,
  });
  const sse = (): void => void res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
  if (url.pathname === "/responses") {
    const { input, stream } = JSON.parse(body) as { input: string; stream?: boolean };
    if (!stream)
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ id: "r1", output: `echo ${input}` }));
    sse();
    await faulty(res, frame({ type: "response.created", response: { id: "r1", output: "" } }));
    if (input === "fail") {
      await faulty(res, frame({ message: "overloaded", code: "server_busy" }, "event: error\n"));
      res.end();
      return;
    }
    if (input === "garbage") {
      await faulty(res, frame("not json, <html>"));
      res.end();
      return;
    }
    for (const delta of ["Hel", "lo é😀"]) await faulty(res, frame({ type: "response.output_text.delta", delta }));
    await faulty(res, frame({ type: "response.completed", response: { id: "r1", output: "Hello é😀" } }));
    await faulty(res, frame("[DONE]"));
    return; // held open after the sentinel: the client must end on it, not wait for the close
  }
  if (url.pathname === "/completions") {
    const { prompt } = JSON.parse(body) as { prompt: string };
    if (prompt === "json")
      return void res
        .writeHead(200, { "content-type": "application/json; charset=utf-8" })
        .end(JSON.stringify({ id: "c1", output: "whole" }));
    if (prompt === "html") return void res.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>");
    sse();
    await faulty(res, frame({ id: "c1", delta: "a" }) + frame({ id: "c1", delta: "b" }) + frame("[DONE]"));
    return void res.end();
  }
  if (url.pathname === "/feed" || url.pathname === "/ticks") {
    // Five ticks with ids; the first connection drops after two. A resume starts after Last-Event-ID.
    const after = Number(req.headers["last-event-id"] ?? 0);
    sse();
    if (after === 0) await faulty(res, "retry: 20\n\n");
    for (let n = after + 1; n <= 5; n++) {
      await faulty(res, `id: ${n}\nevent: ${n === 4 ? "note" : "tick"}\n${frame(n === 4 ? { text: "four" } : { n })}`);
      if (after === 0 && n === 2) return void req.socket.destroy();
    }
    return void res.end();
  }
  if (url.pathname === "/log") {
    sse();
    await faulty(
      res,
      frame({ level: "info", message: "a" }) +
        frame({ level: "warn", message: "b" }) +
        frame("[END]") +
        frame({ level: "info", message: "after the end" }),
    );
    return;
  }
  if (url.pathname === "/deltas") {
    sse();
    await faulty(
      res,
      frame({ text: "x" }, "event: delta\nid: d1\n") + frame({ text: "y" }, "event: delta\n") + frame("[DONE]"),
    );
    return void res.end();
  }
  res.writeHead(404).end();
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

type Module = Record<string, unknown>;
const load = async (name: string, file: string): Promise<Module> =>
  (await import(path.join(out(name), file))) as Module;
const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
};
const failure = async (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("end to end over HTTP, with faults", () => {
  it("a JSON-or-stream operation with a flag: the body is sent, the stream typed and ended by [DONE] (held open), JSON read as JSON", async () => {
    const { ChatClient } = await load("chat-31", "client.ts");
    const client = new (ChatClient as new (o: object) => Record<string, (...a: unknown[]) => Promise<unknown>>)({
      baseUrl,
    });
    seen.length = 0;
    const stream = await client.createResponse!({ input: "hi", stream: true });
    expect(isStream(stream)).toBe(true);
    const events = await collect(stream as AsyncIterable<{ type: string; delta?: string }>);
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.completed",
    ]);
    expect(
      events
        .filter((e) => e.delta)
        .map((e) => e.delta)
        .join(""),
    ).toBe("Hello é😀");
    expect(seen[0]).toMatchObject({
      path: "/responses",
      accept: "application/json, text/event-stream",
      body: JSON.stringify({ input: "hi", stream: true }),
    });
    expect(await client.createResponse!({ input: "hi" })).toEqual({ id: "r1", output: "echo hi" });
  });

  it("the operation functions decide by Content-Type too; without a flag the caller narrows; a page that is neither is an UnexpectedResponseError", async () => {
    const { ChatCore, createCompletion } = await load("chat-31", "operations.ts");
    const core = new (ChatCore as new (o: object) => object)({ baseUrl });
    const call = createCompletion as (c: object, body: object) => Promise<unknown>;
    expect(await call(core, { prompt: "json" })).toEqual({ id: "c1", output: "whole" });
    const answer = await call(core, { prompt: "stream" });
    expect(isStream(answer)).toBe(true);
    expect(await collect(answer as AsyncIterable<unknown>)).toEqual([
      { id: "c1", delta: "a" },
      { id: "c1", delta: "b" },
    ]);
    const page = await failure(call(core, { prompt: "html" }));
    expect(page).toBeInstanceOf(UnexpectedResponseError);
    expect((page as Error).message).toMatch(/200 text\/html, not JSON or text\/event-stream/);
  });

  it("an event: error frame with JSON is a ServerSentError carrying it; other data that is not JSON a StreamDecodeError with the raw text", async () => {
    const { ChatCore, createResponse } = await load("chat-31", "operations.ts");
    const core = new (ChatCore as new (o: object) => object)({ baseUrl });
    const call = createResponse as (c: object, body: object) => Promise<AsyncIterable<unknown>>;
    const got: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const e of await call(core, { input: "fail", stream: true })) got.push(e);
      })(),
    );
    expect(got).toHaveLength(1);
    expect(error).toBeInstanceOf(ServerSentError);
    expect(error).toMatchObject({
      name: "ServerSentError",
      operationId: "createResponse",
      data: { message: "overloaded", code: "server_busy" },
    });
    expect((error as Error).message).toBe("createResponse: the stream reported an error: overloaded");
    const stray = await failure(collect(await call(core, { input: "garbage", stream: true })));
    expect(stray).toBeInstanceOf(StreamDecodeError);
    expect(stray).toMatchObject({ type: "invalid-json", frame: { data: "not json, <html>" } });
  });

  it("a stream the document says the server resumes: reconnects after a drop with Last-Event-ID, retry: honoured, nothing twice", async () => {
    const { ApiClient } = await load("events-31", "client.ts");
    const client = new (
      ApiClient as new (
        o: object,
      ) => Record<string, (...a: unknown[]) => AsyncIterable<{ event: string; id: string; data: unknown }>>
    )({ baseUrl });
    seen.length = 0;
    const events = await collect(client.streamFeed!());
    expect(events.map((e) => [e.event, e.id, e.data])).toEqual([
      ["tick", "1", { n: 1 }],
      ["tick", "2", { n: 2 }],
      ["tick", "3", { n: 3 }],
      ["note", "4", { text: "four" }],
      ["tick", "5", { n: 5 }],
    ]);
    expect(seen.map((s) => s.lastEventId)).toEqual([undefined, "2"]);
  });

  it("a stream the document does not say resumes: a drop is a ConnectionError naming the last id, never a silent replay; the caller may resume from it", async () => {
    const { ApiClient } = await load("events-31", "client.ts");
    const client = new (
      ApiClient as new (
        o: object,
      ) => Record<string, (...a: unknown[]) => AsyncIterable<{ id: string }>>
    )({ baseUrl, maxRetries: 0 });
    seen.length = 0;
    const got: string[] = [];
    const error = await failure(
      (async () => {
        for await (const e of client.streamTicks!()) got.push(e.id);
      })(),
    );
    expect(got).toEqual(["1", "2"]);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ name: "ConnectionError", lastEventId: "2" });
    expect((error as Error).message).toMatch(/last event id was "2" \(the document does not say the server resumes/);
    expect(seen).toHaveLength(1);
    const rest = await collect(client.streamTicks!({ resume: true, lastEventId: "2" }));
    expect(rest.map((e) => e.id)).toEqual(["3", "4", "5"]);
  });

  it("x-item-schema with x-sse-sentinel: the stream ends at its own sentinel (held open), nothing after it", async () => {
    const { ApiClient } = await load("events-31", "client.ts");
    const client = new (ApiClient as new (o: object) => Record<string, () => AsyncIterable<unknown>>)({ baseUrl });
    expect(await collect(client.streamLog!())).toEqual([
      { level: "info", message: "a" },
      { level: "warn", message: "b" },
    ]);
  });

  it("3.2 itemSchema with JSON data: events with their data decoded, [DONE] ends", async () => {
    const { ApiClient } = await load("items-32", "client.ts");
    const client = new (ApiClient as new (o: object) => Record<string, () => AsyncIterable<unknown>>)({ baseUrl });
    expect(await collect(client.streamDeltas!())).toEqual([
      { event: "delta", id: "d1", data: { text: "x" } },
      { event: "delta", id: "d1", data: { text: "y" } },
    ]);
  });
});

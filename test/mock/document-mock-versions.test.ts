/**
 * The document mock on 3.0 and 3.2 documents of our own
 * (./documents/streams-3.0.yaml, streams-3.2.yaml), over real HTTP: a 3.0
 * event-shaped `schema` (its `nullable` and `example` read as 3.1), the
 * stream flag named by `x-stream-flag`, a JSON-or-stream answer without a
 * flag chosen by `Accept`, `x-item-schema`, a required header parameter,
 * 3.2 `itemSchema` with JSON data in a string (`contentSchema`), and a
 * stream written out as the media type's example, resumed and faulted.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSchema } from "../../generator/load/index.js";
import { startDocumentMock, type DocumentMock } from "../../generator/mock/engine/document-mock.js";
import { parseSse, type SseMessage } from "../../runtime/sse/index.js";

const document = async (name: string) =>
  (await loadSchema(fileURLToPath(new URL(`./documents/${name}`, import.meta.url)))).document;

let v30: DocumentMock;
let v32: DocumentMock;
beforeAll(async () => {
  v30 = await startDocumentMock({ document: await document("streams-3.0.yaml") });
  v32 = await startDocumentMock({ document: await document("streams-3.2.yaml") });
});
afterAll(async () => {
  await v30.close();
  await v32.close();
});

async function read(
  url: string,
  init: RequestInit = {},
): Promise<{ type: string | null; messages: SseMessage[]; body: unknown }> {
  const r = await fetch(url, init);
  const type = r.headers.get("content-type");
  if (!type?.startsWith("text/event-stream")) return { type, messages: [], body: await r.json() };
  const messages: SseMessage[] = [];
  for await (const m of parseSse(r.body!)) messages.push(m);
  return { type, messages, body: undefined };
}

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const TOKEN = { text: "Hel", logprob: 0 };

describe("OpenAPI 3.0", () => {
  it("x-stream-flag names the body property that selects the stream; its default (false) answers JSON, built from 3.0 `example`s", async () => {
    expect((await read(`${v30.url}/completions`, post({ prompt: "Hi" }))).body).toEqual({
      text: "Hello there.",
      finish: "stop",
    });
    const s = await read(`${v30.url}/completions`, post({ prompt: "Hi", live: true }));
    expect(s.messages.map((m) => [m.id, m.event, JSON.parse(m.data)])).toEqual([
      ["1", "token", TOKEN],
      ["2", "token", TOKEN],
      ["3", "token", TOKEN],
    ]);
  });

  it("without a flag, Accept selects; x-item-schema is each event's JSON data; `nullable` is read; a required header is checked", async () => {
    const trace = { "x-trace": "t1" };
    const s = await read(`${v30.url}/models/m1/chat`, post({ text: null }, { ...trace, accept: "text/event-stream" }));
    expect(s.messages.map((m) => JSON.parse(m.data))).toEqual([TOKEN, TOKEN, TOKEN]);
    expect(
      (
        await read(
          `${v30.url}/models/m1/chat`,
          post({ text: null }, { ...trace, accept: "application/json, text/event-stream;q=0.5" }),
        )
      ).body,
    ).toEqual({ text: "Hello there.", finish: "stop" });
    expect((await read(`${v30.url}/models/m1/chat`, post({ text: "x" }, trace))).type).toBe("application/json");
    const refused = await read(`${v30.url}/models/m1/chat`, post({ text: 1 }, trace));
    expect(refused.body).toMatchObject({ error: "invalid_request", issues: [{ path: "/text", rule: "type" }] });
    const missing = await read(`${v30.url}/models/m1/chat`, post({}));
    expect(missing.body).toMatchObject({
      error: "invalid_request",
      issues: [{ path: "/header/X-Trace", rule: "required" }],
    });
  });
});

describe("OpenAPI 3.2", () => {
  it("itemSchema with JSON in a string data (contentSchema): the data is that JSON value, generated from its schema", async () => {
    const s = await read(`${v32.url}/ticks`);
    expect(s.messages.map((m) => [m.id, m.event, JSON.parse(m.data)])).toEqual(
      [1, 2, 3].map((n) => [String(n), "tick", { n: 5, at: "2026-10-01T12:00:00Z" }]),
    );
  });

  it("a stream written as the media type's example is sent as written, through the faults", async () => {
    const s = await read(`${v32.url}/story`, { headers: { "x-mock-fault": "chunk=2,eol=crlf" } });
    expect(s.messages.map((m) => [m.event, m.data])).toEqual([
      ["start", "once"],
      ["end", "upon\na time"],
    ]);
  });
});

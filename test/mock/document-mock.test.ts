/**
 * The document mock (`mantyx-wire mock --schema`) on a small streaming 3.1
 * document of our own (./documents/streams-3.1.yaml), over real HTTP with
 * fetch, its streams read with the runtime's SSE decoder: statuses and
 * examples as Prism chooses them (the lowest 2xx; `Prefer: code=`,
 * `example=`, `dynamic=true`; X-Mock-Status), path matching (a literal
 * segment before a parameter), request validation (`400 invalid_request`
 * listing every issue), the JSON-or-stream operation (the `stream` body
 * property, then Accept), both stream conventions (payload-shaped with its
 * `[DONE]` sentinel, event-shaped with `event:` names and ids only where
 * declared), and the fault catalogue on those streams, resumed by
 * `Last-Event-ID`.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSchema } from "../../generator/load/index.js";
import { startDocumentMock, type DocumentMock } from "../../generator/mock/engine/document-mock.js";
import { parseSse, type SseMessage } from "../../runtime/sse/index.js";

const DOCUMENT = fileURLToPath(new URL("./documents/streams-3.1.yaml", import.meta.url));

let mock: DocumentMock;
beforeAll(async () => {
  mock = await startDocumentMock({ document: (await loadSchema(DOCUMENT)).document });
});
afterAll(() => mock.close());

const json = { "content-type": "application/json" };

async function call(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const r = await fetch(`${mock.url}${path}`, init);
  const text = await r.text();
  return {
    status: r.status,
    headers: r.headers,
    body: text === "" ? undefined : r.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text,
  };
}

/** The messages of one stream connection, and whether it ended cleanly (false: the connection was cut). */
async function messages(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; messages: SseMessage[]; clean: boolean }> {
  const r = await fetch(`${mock.url}${path}`, init);
  const out: SseMessage[] = [];
  let clean = true;
  try {
    for await (const m of parseSse(r.body!)) out.push(m);
  } catch {
    clean = false;
  }
  return { status: r.status, headers: r.headers, messages: out, clean };
}

/** Reads a stream to its end, reconnecting with `Last-Event-ID` after a cut (at most `max` connections). */
async function resumed(
  path: string,
  init: RequestInit,
  max = 10,
): Promise<{ messages: SseMessage[]; connections: number }> {
  const all: SseMessage[] = [];
  let lastId: string | undefined;
  for (let connection = 1; connection <= max; connection++) {
    const headers = {
      ...(init.headers as Record<string, string>),
      ...(lastId === undefined ? {} : { "last-event-id": lastId }),
    };
    const { messages: got, clean } = await messages(path, { ...init, headers });
    all.push(...got);
    for (const m of got) if (m.id !== "") lastId = m.id;
    if (clean) return { messages: all, connections: connection };
  }
  throw new Error(`no clean end in ${max} connections`);
}

const CHAT_EVENTS = [
  { id: "1", data: { type: "delta", text: "example" } },
  { id: "2", data: { type: "usage", tokens: 1 } },
  { id: "3", data: { type: "done", reason: "stop" } },
];

const chatStream = (headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { ...json, ...headers },
  body: JSON.stringify({ prompt: "Hi", stream: true }),
});

/** The payload-shaped chat stream as read: each JSON data with its id, the sentinel as text. */
function chatOf(got: readonly SseMessage[]): unknown[] {
  return got.map((m) => (m.data === "[DONE]" ? m.data : { id: m.id, data: JSON.parse(m.data) }));
}

describe("statuses, examples and bodies", () => {
  it("answers the lowest 2xx with the media type's first example; a declared header gets a generated value", async () => {
    const r = await call("/pets");
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { id: 1, name: "Rex", kind: "dog" },
      { id: 2, name: "Tom", kind: "cat" },
    ]);
    expect(r.headers.get("x-total-count")).toBe("1");
  });

  it("Prefer: code= and X-Mock-Status pick a declared status; example= picks a named example, also of another status; dynamic=true generates", async () => {
    expect(await call("/pets", { headers: { prefer: "code=404" } })).toMatchObject({
      status: 404,
      body: { error: "not_found", message: "No pets here." },
    });
    expect(await call("/pets", { headers: { "x-mock-status": "404" } })).toMatchObject({ status: 404 });
    expect(await call("/pets", { headers: { prefer: "example=none" } })).toMatchObject({ status: 200, body: [] });
    expect(await call("/pets", { headers: { prefer: "example=gone" } })).toMatchObject({
      status: 404,
      body: { error: "not_found" },
    });
    expect(await call("/pets", { headers: { prefer: "dynamic=true" } })).toMatchObject({
      status: 200,
      body: [{ id: 1, name: "example", kind: "dog" }],
    });
  });

  it("an undeclared status or an unknown example name is a 400 naming what exists", async () => {
    const status = await call("/pets", { headers: { prefer: "code=418" } });
    expect(status.status).toBe(400);
    expect((status.body as { message: string }).message).toContain("declared: 200, 404");
    const example = await call("/pets", { headers: { prefer: "example=three" } });
    expect(example.status).toBe(400);
    expect((example.body as { message: string }).message).toContain("named: two, none, gone");
  });

  it("generates a body from the schema where no example is given, deterministically; a literal segment beats a parameter", async () => {
    expect(await call("/pets/3")).toMatchObject({ status: 200, body: { id: 1, name: "example", kind: "dog" } });
    expect(await call("/pets/mine")).toMatchObject({ status: 200, body: { id: 7, name: "Mine", kind: "cat" } });
    expect(
      await call("/chat", { method: "POST", headers: json, body: JSON.stringify({ prompt: "Hi" }) }),
    ).toMatchObject({ status: 200, body: { id: "chat_1", text: "example" } });
  });

  it("checks queries and bodies first: 400 invalid_request with every issue; an unknown path is 404, a wrong method 405", async () => {
    const query = await call("/pets?limit=0");
    expect(query).toMatchObject({
      status: 400,
      body: { error: "invalid_request", issues: [{ path: "/query/limit", rule: "minimum" }] },
    });
    const body = await call("/pets", { method: "POST", headers: json, body: JSON.stringify({ name: "", extra: 1 }) });
    expect(body.status).toBe(400);
    expect((body.body as { issues: Array<{ rule: string }> }).issues.map((i) => i.rule).sort()).toEqual([
      "additionalProperties",
      "minLength",
      "required",
    ]);
    expect(
      (await call("/pets", { method: "POST", headers: json, body: JSON.stringify({ name: "Rex", kind: "dog" }) }))
        .status,
    ).toBe(201);
    expect((await call("/nowhere")).status).toBe(404);
    const wrong = await call("/pets", { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, POST");
  });
});

describe("streams", () => {
  it("a JSON-or-stream operation streams when the body's `stream` is true: payload-shaped events, one per union branch, the terminal one last, then the sentinel", async () => {
    const s = await messages("/chat", chatStream());
    expect(s.status).toBe(200);
    expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(chatOf(s.messages)).toEqual([...CHAT_EVENTS, "[DONE]"]);
    expect(s.clean).toBe(true);
    // stream: false, or no flag, is the JSON answer whatever Accept says (the flag decides).
    const whole = await call("/chat", {
      method: "POST",
      headers: { ...json, accept: "text/event-stream" },
      body: JSON.stringify({ prompt: "Hi", stream: false }),
    });
    expect(whole.headers.get("content-type")).toBe("application/json");
  });

  it("an event-shaped schema: each branch's `event:` name and JSON data, ids only where the schema declares `id`, the `error` branch left out", async () => {
    const s = await messages("/events");
    expect(s.messages.map((m) => ({ event: m.event, id: m.id, data: JSON.parse(m.data) }))).toEqual([
      { event: "created", id: "1", data: { id: 1, name: "example", kind: "dog" } },
      { event: "removed", id: "2", data: { id: 1 } },
    ]);
    const log = await messages("/log");
    expect(log.messages.map((m) => [m.event, m.data, m.id])).toEqual([
      ["line", "example", ""],
      ["line", "example", ""],
      ["line", "example", ""],
    ]);
  });

  it("line endings, chunk splits and a BOM change the bytes, not the events; X-Mock-Faults says what was applied", async () => {
    for (const spec of ["eol=crlf", "eol=cr", "chunk=3", "eol=crlf,chunk=1,bom"]) {
      const s = await messages("/chat", chatStream({ "x-mock-fault": spec }));
      expect(chatOf(s.messages), spec).toEqual([...CHAT_EVENTS, "[DONE]"]);
      expect(s.headers.get("x-mock-faults"), spec).toBe(spec.split(",").sort().join(","));
    }
  });

  it("a dropped or cut connection resumes by Last-Event-ID on the stream's next connection: every event once, in order", async () => {
    for (const spec of ["drop-after=1", "cut-frame=2", "drop-after=1@1-2", "cut-bytes=48-90@1-3,seed=3"]) {
      const r = await resumed("/chat", chatStream({ "x-mock-fault": spec }));
      expect(chatOf(r.messages), spec).toEqual([...CHAT_EVENTS, "[DONE]"]);
      expect(r.connections, spec).toBeGreaterThan(1);
    }
    const last = mock.streams.filter((s) => s.path === "/chat").at(-1)!;
    expect(last.end).toBe("terminal");
    expect(last.connection).toBeGreaterThan(1);
    expect(last.lastEventId).toMatch(/^\d+$/);
  });

  it("status and wrong-type faults answer instead of the stream; malformed-frame stores a frame that is not JSON", async () => {
    const refused = await call("/chat", chatStream({ "x-mock-fault": "status=503,retry-after=2" }));
    expect(refused).toMatchObject({ status: 503, body: { error: "server_error" } });
    expect(refused.headers.get("retry-after")).toBe("2");
    const html = await call("/chat", chatStream({ "x-mock-fault": "wrong-type" }));
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    const s = await messages("/chat", chatStream({ "x-mock-fault": "malformed-frame=1" }));
    expect(s.messages.map((m) => m.data)).toEqual([
      JSON.stringify(CHAT_EVENTS[0]!.data),
      "{not json: the mock's malformed-frame fault",
      JSON.stringify(CHAT_EVENTS[1]!.data),
      JSON.stringify(CHAT_EVENTS[2]!.data),
      "[DONE]",
    ]);
    expect(s.messages.map((m) => m.id)).toEqual(["1", "2", "3", "4", "4"]);
  });

  it("the server's --fault spec and the test queue apply to streams; an invalid spec is a 400 naming the item", async () => {
    mock.faults.push("end-clean=1");
    const short = await messages("/chat", chatStream());
    expect(chatOf(short.messages)).toEqual([CHAT_EVENTS[0]]);
    const bad = await call("/chat", chatStream({ "x-mock-fault": "drop-after=x" }));
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toContain("drop-after");
    const faulted = await startDocumentMock({
      document: (await loadSchema(DOCUMENT)).document,
      faults: "drop-after=1",
    });
    try {
      const r = await fetch(`${faulted.url}/events`);
      const got: SseMessage[] = [];
      await expect(
        (async () => {
          for await (const m of parseSse(r.body!)) got.push(m);
        })(),
      ).rejects.toThrow();
      expect(got.map((m) => m.id)).toEqual(["1"]);
      expect(faulted.streams[0]).toMatchObject({ connection: 1, end: "dropped", faults: "drop-after=1" });
    } finally {
      await faulted.close();
    }
  });
});

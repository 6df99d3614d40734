/**
 * The stream idioms' documents (./documents/) end to end against
 * `mantyx-wire mock --schema` of the same document (the document mock),
 * with faults on: the clients `gen` writes for them consume what the mock
 * streams from the documents alone, through CRLF line ends and 3-byte
 * chunks on every connection, and a drop the resumable stream reconnects
 * through by Last-Event-ID.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSchema } from "../../generator/load/index.js";
import { startDocumentMock, type DocumentMock } from "../../generator/mock/engine/document-mock.js";
import { isStream } from "../../runtime/client/index.js";
import { genAll, REPO, tempDir } from "../generator/support.js";

const DOCUMENTS = path.join(REPO, "test/streams/documents");
const NAMES = ["chat-31", "events-31", "items-32"] as const;
const root = tempDir();
const mocks = new Map<string, DocumentMock>();
const FAULTS = "eol=crlf@*,chunk=3@*";

beforeAll(async () => {
  for (const name of NAMES) {
    const run = await genAll(path.join(DOCUMENTS, `${name}.yaml`), path.join(root, name));
    if (run.code !== 0) throw new Error(run.stderr);
    mocks.set(
      name,
      await startDocumentMock({
        document: (await loadSchema(path.join(DOCUMENTS, `${name}.yaml`))).document,
        faults: FAULTS,
      }),
    );
  }
}, 180_000);
afterAll(async () => {
  for (const m of mocks.values()) await m.close();
});

type Module = Record<string, unknown>;
type Client = Record<string, (...a: unknown[]) => unknown>;
const load = async (name: string, file: string): Promise<Module> =>
  (await import(path.join(root, name, file))) as Module;
const client = async (name: string, className: string): Promise<Client> =>
  new ((await load(name, "client.ts"))[className] as new (o: object) => Client)({ baseUrl: mocks.get(name)!.url });
const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
};

describe("generated clients against the document mock, faults on", () => {
  it("chat-31: the stream flag selects a typed stream of one event per union branch; without it, JSON", async () => {
    const chat = await client("chat-31", "ChatClient");
    const stream = await chat.createResponse!({ input: "hi", stream: true });
    expect(isStream(stream)).toBe(true);
    const events = await collect(stream as AsyncIterable<{ type: string }>);
    expect(events.length).toBeGreaterThan(1);
    expect(new Set(events.map((e) => e.type)).size).toBe(events.length);
    expect(isStream(await chat.createResponse!({ input: "hi" }))).toBe(false);
    expect(mocks.get("chat-31")!.streams.at(-1)).toMatchObject({ faults: "chunk=3,eol=crlf", end: "terminal" });
  });

  it("events-31: a stream the document says resumes reconnects through a drop by Last-Event-ID, every event once", async () => {
    const events = await client("events-31", "ApiClient");
    const mock = mocks.get("events-31")!;
    const whole = await collect(events.streamFeed!() as AsyncIterable<{ event: string; id: string }>);
    mock.faults.push("drop-after=1");
    const resumed = await collect(events.streamFeed!() as AsyncIterable<{ event: string; id: string }>);
    expect(whole.map((e) => [e.event, e.id])).toEqual([
      ["tick", "1"],
      ["note", "2"],
    ]);
    expect(resumed).toEqual(whole);
    expect(mock.streams.slice(-2).map((s) => [s.connection, s.lastEventId, s.end])).toEqual([
      [1, undefined, "dropped"],
      [2, "1", "terminal"],
    ]);
  });

  it("events-31: x-item-schema data with its own sentinel; items-32: 3.2 itemSchema events", async () => {
    const events = await client("events-31", "ApiClient");
    expect(await collect(events.streamLog!() as AsyncIterable<unknown>)).toHaveLength(3);
    const items = await client("items-32", "ApiClient");
    const got = await collect(items.streamDeltas!() as AsyncIterable<{ data: unknown }>);
    expect(got.length).toBeGreaterThan(0);
    for (const item of got) expect(typeof item.data).toBe("object");
  });
});

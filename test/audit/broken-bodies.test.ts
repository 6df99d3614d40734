/**
 * A JSON answer that breaks off after its headers (a reset mid-body, a
 * malformed chunk): a raw TCP server, since node:http cannot write broken
 * HTTP. The failure is a MantyxConnectionError like one before the headers,
 * and what fetch quotes of the server's bytes (undici's HTTPParserError keeps
 * them in `data`) has the echoed credential removed.
 */
import { createServer, type Server } from "node:net";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { isMantyxConnectionError } from "../../index.js";

const KEY = 'mantyx_Zq9/Xv&Wt3"Rk8Lp2Yh7Nc4';
let server: Server | undefined;
afterEach(() => void server?.close());

/** A server answering every request with `raw` bytes, then closing. */
async function rawServer(raw: string): Promise<string> {
  server = createServer((socket) => {
    socket.once("data", () => {
      socket.write(raw);
      setTimeout(() => socket.destroy(), 20);
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server!.address() as { port: number }).port}`;
}

function shown(value: unknown): string {
  let text = inspect(value, { depth: 20, showHidden: true });
  for (let e = value as Error | undefined, i = 0; e instanceof Error && i < 12; e = e.cause as Error | undefined, i++)
    text += e.message + e.stack + JSON.stringify({ ...e });
  return text;
}

const ANSWERS: Array<[string, string]> = [
  [
    "a malformed chunk echoing the key",
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz${KEY}\r\n`,
  ],
  [
    "a reset mid-body",
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"id":"run_1","echo":"${KEY.replace('"', '\\"')}"`,
  ],
];

describe("a JSON answer that breaks off after its headers", () => {
  for (const [name, raw] of ANSWERS) {
    it(`${name}: getRun and createRun fail with a MantyxConnectionError that holds no form of the key`, async () => {
      const c = new MantyxClient({ baseUrl: await rawServer(raw), workspace: "acme", apiKey: KEY, maxRetries: 0 });
      for (const error of [
        await c.getRun("run_1").catch((e: unknown) => e),
        await c.createRun({ systemPrompt: "s", prompt: "p" }).catch((e: unknown) => e),
      ]) {
        expect(isMantyxConnectionError(error)).toBe(true);
        const text = shown(error);
        expect(["Zq9/Xv", "Rk8Lp2"].filter((piece) => text.includes(piece))).toEqual([]);
      }
    });
  }

  it("a stream whose connection and status probe (getRun) both break off so: the MantyxConnectionError it ends in holds no form of the key", async () => {
    const raw = ANSWERS[0]![1].replace("application/json", "text/event-stream");
    const c = new MantyxClient({ baseUrl: await rawServer(raw), workspace: "acme", apiKey: KEY, maxRetries: 0 });
    const reasons: unknown[] = [];
    const error = await (async () => {
      for await (const _ of c.streamRun("run_1", {
        maxReconnects: 1,
        reconnectDelay: { initialDelayMs: 1, maxDelayMs: 2 },
        onReconnect: (i) => void reasons.push(i.reason),
      }))
        void _;
    })().catch((e: unknown) => e);
    expect(isMantyxConnectionError(error)).toBe(true);
    for (const reported of [error, ...reasons])
      expect(["Zq9/Xv", "Rk8Lp2"].filter((piece) => shown(reported).includes(piece))).toEqual([]);
  });
});

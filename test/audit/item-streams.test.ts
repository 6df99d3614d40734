/**
 * Item streams (an OpenAPI 3.2 `itemSchema` operation of any document, not
 * MANTYX's resumable stream): an echoing server's key in the answer's
 * content type, or in the bytes of a body that breaks off, reaches no error.
 * The runtime's own `operation` and `itemStreamKind`, on a bearer scheme.
 */
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { ClientBase } from "../../runtime/client/client-base.js";
import { itemStreamKind } from "../../runtime/client/item-stream.js";
import { operation } from "../../runtime/client/operation-functions.js";

const KEY = 'mantyx_Zq9/Xv&Wt3"Rk8Lp2Yh7Nc4';
const servers: Array<{ close(): unknown }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const listen = async (server: Server | ReturnType<typeof createHttpServer>): Promise<string> => {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

const trades = operation<(client: ClientBase) => AsyncIterable<unknown>>(
  "getTrades",
  { method: "GET", path: "/trades", items: "jsonl", security: [["key"]] },
  itemStreamKind,
);
const client = (baseUrl: string): ClientBase =>
  new ClientBase({ baseUrl, credentials: { key: KEY }, maxRetries: 0 }, "0", {}, { key: ["bearer"] });

async function failure(c: ClientBase): Promise<unknown> {
  try {
    for await (const _ of trades(c)) void _;
  } catch (e) {
    return e;
  }
  return undefined;
}

function leaked(value: unknown): string[] {
  let text = inspect(value, { depth: 20, showHidden: true });
  for (let e = value as Error | undefined, i = 0; e instanceof Error && i < 12; e = e.cause as Error | undefined, i++)
    text += e.message + e.stack + JSON.stringify({ ...e });
  return ["Zq9/Xv", "Rk8Lp2"].filter((piece) => text.includes(piece));
}

describe("an item stream's failures hold no form of the key", () => {
  it("a 200 whose content type echoes it (not JSON lines): the UnexpectedResponseError", async () => {
    const url = await listen(
      createHttpServer((req, res) =>
        res.writeHead(200, { "content-type": `text/html; echo=${req.headers.authorization}` }).end("<html>"),
      ),
    );
    const error = await failure(client(url));
    expect((error as Error).name).toBe("UnexpectedResponseError");
    expect(leaked(error)).toEqual([]);
  });

  it("a body that breaks off with a malformed chunk echoing it", async () => {
    const raw = `HTTP/1.1 200 OK\r\nContent-Type: application/jsonl\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\nzz${KEY}\r\n`;
    const url = await listen(
      createServer((socket) =>
        socket.once("data", () => {
          socket.write(raw);
          setTimeout(() => socket.destroy(), 20);
        }),
      ),
    );
    const error = await failure(client(url));
    expect(error).toBeInstanceOf(Error);
    expect(leaked(error)).toEqual([]);
  });
});

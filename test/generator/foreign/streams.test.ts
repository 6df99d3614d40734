/**
 * OpenAPI 3.2 streams end to end: streams-3.2.yaml (a small 3.2 document
 * written for this project, see SOURCES.md) is generated into a temp folder,
 * its client type-checks under `tsc --strict` together with code that
 * narrows the SSE items by `event`, and the generated client consumes both
 * streamed operations from a node:http server on 127.0.0.1: the SSE one
 * (events told apart by `event`, JSON `data` decoded) with a path, a query
 * array (`explode: false`) and a header parameter and an API key, the
 * JSON-lines one (split across chunks) with basic credentials.
 */
import type { IncomingMessage } from "node:http";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { genQuietly, REPO, tempDir, localServer, type LocalServer } from "../support.js";
import { tsc, writeStrictProject } from "./support.js";

const SCHEMA = path.join(REPO, "test/generator/foreign/streams-3.2.yaml");
const out = tempDir();
let server: LocalServer;
let baseUrl = "";
const seen: IncomingMessage[] = [];

/** The generated client module, loaded from the temp folder. */
interface TickerClient {
  streamQuotes(
    market: string,
    params: { query: { symbols: string[] }; header?: { "X-Request-Id"?: string } },
    options?: { signal?: AbortSignal },
  ): AsyncIterable<{ event: string; data: Record<string, unknown> }>;
  getTrades(params?: { query?: { limit?: number } }): AsyncIterable<{ symbol: string; quantity: number }>;
  searchQuotes(body: { prefix?: string }): Promise<unknown>;
  headHealth(): Promise<undefined>;
}
let ApiClient: new (options: { baseUrl: string; credentials?: Record<string, unknown> }) => TickerClient;

beforeAll(async () => {
  await genQuietly(SCHEMA, out);
  ({ ApiClient } = (await import(path.join(out, "client.ts"))) as { ApiClient: typeof ApiClient });
  server = await localServer((request, response) => {
    seen.push(request);
    if (request.method === "QUERY" || request.method === "HEAD") {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk));
      request.on("end", () => {
        if (request.method === "HEAD") return void response.writeHead(204).end();
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify([{ symbol: `${JSON.parse(body).prefix}ME`, price: 1 }]));
      });
    } else if (request.url!.startsWith("/markets/")) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(': heartbeat\n\nevent: quote\ndata: {"symbol":"ACME","price":12.5}\n\n');
      // An event split across writes, and one told apart by `event` only.
      response.write('event: halt\ndata: {"symbol":"ACME",');
      setTimeout(() => response.end('"reason":"news"}\n\nevent: quote\ndata: {"symbol":"INIT","price":3}\n\n'), 10);
    } else {
      response.writeHead(200, { "content-type": "application/jsonl" });
      response.write('{"symbol":"ACME","quantity":5}\n{"symbol":');
      setTimeout(() => response.end('"INIT","quantity":7}\n'), 10);
    }
  });
  baseUrl = server.baseUrl;
}, 60_000);

afterAll(() => server.close());

describe("generated client for OpenAPI 3.2 itemSchema streams", () => {
  test("an SSE stream: items typed by itemSchema, told apart by event, JSON data decoded; parameters and the API key sent", async () => {
    const client = new ApiClient({ baseUrl, credentials: { tickerKey: "key-123" } });
    const items = [];
    for await (const item of client.streamQuotes("nyse", {
      query: { symbols: ["ACME", "INIT"] },
      header: { "X-Request-Id": "r-1" },
    }))
      items.push(item);
    expect(items).toEqual([
      { event: "quote", data: { symbol: "ACME", price: 12.5 }, id: "" },
      { event: "halt", data: { symbol: "ACME", reason: "news" }, id: "" },
      { event: "quote", data: { symbol: "INIT", price: 3 }, id: "" },
    ]);
    const request = seen.find((r) => r.url!.startsWith("/markets/"))!;
    expect(request.url).toBe("/markets/nyse/quotes?symbols=ACME%2CINIT");
    expect(request.headers["x-request-id"]).toBe("r-1");
    expect(request.headers["x-ticker-key"]).toBe("key-123");
    expect(request.headers.accept).toBe("text/event-stream");
  });

  test("a JSON-lines stream split across chunks, with basic credentials (the API key is not sent: the operation needs basic)", async () => {
    const client = new ApiClient({
      baseUrl,
      credentials: { basicAuth: { username: "ann", password: "pä55" }, tickerKey: "key-123" },
    });
    const trades = [];
    for await (const trade of client.getTrades({ query: { limit: 2 } })) trades.push(trade);
    expect(trades).toEqual([
      { symbol: "ACME", quantity: 5 },
      { symbol: "INIT", quantity: 7 },
    ]);
    const request = seen.find((r) => r.url!.startsWith("/trades"))!;
    expect(request.url).toBe("/trades?limit=2");
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from("ann:pä55", "utf8").toString("base64")}`);
    expect(request.headers["x-ticker-key"]).toBeUndefined();
  });

  test("OpenAPI 3.2's QUERY method (with a JSON body) and a HEAD operation without an operationId (headHealth)", async () => {
    const client = new ApiClient({ baseUrl, credentials: { tickerKey: "key-123" } });
    expect(await client.searchQuotes({ prefix: "AC" })).toEqual([{ symbol: "ACME", price: 1 }]);
    expect(await client.headHealth()).toBeUndefined();
    expect(
      seen
        .filter((r) => r.method === "QUERY" || r.method === "HEAD")
        .map((r) => `${r.method} ${r.url} ${r.headers["x-ticker-key"] ?? "-"}`),
    ).toEqual(["QUERY /quotes/search key-123", "HEAD /health -"]);
  });

  test("the output and code narrowing its items pass tsc --strict; a wrong use does not", () => {
    const usage = (body: string): string =>
      [
        'import { ApiClient } from "./client.js";',
        "export async function use(client: ApiClient): Promise<number> {",
        "  let total = 0;",
        '  for await (const item of client.streamQuotes("nyse", { query: { symbols: ["A"] } })) {',
        body,
        "  }",
        "  for await (const trade of client.getTrades()) total += trade.quantity;",
        "  return total;",
        "}",
        "",
      ].join("\n");
    const tsconfig = writeStrictProject(out, { include: ["*.ts", "validators/*.ts"] });
    writeFileSync(
      path.join(out, "usage.ts"),
      usage(
        '    if (item.event === "quote") total += item.data.price;\n    else { const reason: "news" | "volatility" = item.data.reason; void reason; }',
      ),
    );
    expect(tsc(tsconfig)).toBe("");
    // A quote declares no `reason` (an open object: it is `unknown` there): narrowing by `event` is what types `data`.
    writeFileSync(
      path.join(out, "usage.ts"),
      usage('    if (item.event === "quote") { const reason: string = item.data.reason; void reason; }'),
    );
    expect(tsc(tsconfig)).toMatch(
      /usage\.ts\(5,\d+\): error TS2322: Type 'unknown' is not assignable to type 'string'/,
    );
  }, 120_000);
});

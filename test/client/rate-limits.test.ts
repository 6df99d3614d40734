/**
 * A 429 with the October edition's rate-limit headers (agent-runs §10):
 * the error carries `Retry-After` and the `X-RateLimit-*` figures, the
 * request is retried after `Retry-After`, over real HTTP.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { isMantyxApiError, rateLimitOf, type MantyxApiError } from "../../index.js";

let url: string;
let requests = 0;
let headers: Record<string, string> = {};
const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
  requests++;
  res.writeHead(429, { "content-type": "application/json", "retry-after": "0", ...headers });
  res.end(JSON.stringify({ error: "Rate limit exceeded", code: "rate_limit_exceeded" }));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(): Promise<MantyxApiError> {
  const client = new MantyxClient({
    baseUrl: url,
    workspace: "acme",
    apiKey: "mantyx_test_key",
    maxRetries: 1,
    retryDelay: { initialDelayMs: 1 },
  });
  const error: unknown = await client.listModels().catch((e: unknown) => e);
  expect(isMantyxApiError(error)).toBe(true);
  return error as MantyxApiError;
}

describe("429 rate_limit_exceeded", () => {
  it("exposes X-RateLimit-Limit/Remaining as numbers, Reset and Bucket as sent, after retrying once", async () => {
    headers = {
      "x-ratelimit-limit": "60",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": "1764590400",
      "x-ratelimit-bucket": "reads",
    };
    requests = 0;
    const e = await failure();
    expect(requests).toBe(2);
    expect(e).toMatchObject({ status: 429, code: "rate_limit_exceeded", retryAfterMs: 0 });
    expect(rateLimitOf(e)).toEqual({ limit: 60, remaining: 0, reset: "1764590400", bucket: "reads" });
  });

  it("has no rateLimit when the answer sent none, and keeps a figure that is no count as undefined", async () => {
    headers = {};
    expect(rateLimitOf(await failure())).toBeUndefined();
    headers = { "x-ratelimit-limit": "lots", "x-ratelimit-bucket": "runs" };
    expect(rateLimitOf(await failure())).toEqual({
      limit: undefined,
      remaining: undefined,
      reset: undefined,
      bucket: "runs",
    });
  });
});

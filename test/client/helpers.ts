/** Shared set-up: a mock server per test file, and clients with test-sized back-off (requests and reconnects). */
import { afterAll, beforeAll } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import type { MantyxClientOptions as ClientOptions } from "../../index.js";
import { startMockServer, type MockServer, type MockServerOptions } from "../../generator/mock/index.js";

/**
 * These suites were written against the seed edition's answers (201, 204,
 * `ok: true`; test/client/editions.test.ts covers every edition), and some
 * open thousands of streams and count them, so the records keep them all.
 */
export function useMockServer(options: MockServerOptions = {}): () => MockServer {
  let server: MockServer | undefined;
  beforeAll(async () => {
    server = await startMockServer({
      edition: options.vintage === "older" ? "older" : "2026-09",
      recordLimit: 1_000_000,
      ...options,
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (server === undefined) throw new Error("mock server not started");
    return server;
  };
}

export function clientFor(server: MockServer, options: Partial<ClientOptions> = {}): MantyxClient {
  return new MantyxClient({
    baseUrl: server.url,
    workspace: server.workspace,
    apiKey: server.apiKey,
    retryDelay: { initialDelayMs: 2, maxDelayMs: 20 },
    reconnectDelay: { initialDelayMs: 2, maxDelayMs: 20 },
    onWarning: () => undefined,
    ...options,
  });
}

/** Every item of an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

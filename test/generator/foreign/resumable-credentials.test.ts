/**
 * Credentials by security scheme reach the resumable event stream's
 * connections too. A schema whose schemes `apiKey` cannot stand for (here
 * the MANTYX schema with a basic scheme beside its two: the client then
 * takes `credentials`) got no `security` in its stream entry, so the stream
 * was opened without the credential every other operation sent: 401, and
 * no way to authenticate it but a hand-written header. Over real HTTP on
 * 127.0.0.1 against the mock server, which refuses a request without one.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { parse } from "yaml";
import { startMockServer, type MockServer } from "../../../generator/mock/index.js";
import { genAll, REPO, writeTree } from "../support.js";

interface Client {
  createRun(body: object): Promise<{ runId: string }>;
  streamRun(runId: string): AsyncIterable<{ type: string }>;
}
let ApiClient: new (options: {
  baseUrl: string;
  workspace: string;
  credentials?: Record<string, unknown>;
  maxRetries?: number;
}) => Client;
let server: MockServer;

beforeAll(async () => {
  const doc = parse(readFileSync(path.join(REPO, "schema/openapi.yaml"), "utf8")) as {
    components: { securitySchemes: Record<string, unknown> };
  };
  doc.components.securitySchemes["basicAuth"] = { type: "http", scheme: "basic" };
  const { out, code, stderr } = await genAll(path.join(writeTree({ "api.json": JSON.stringify(doc) }), "api.json"));
  expect(stderr).not.toMatch(/^error/m);
  expect(code).toBe(0);
  ({ MantyxClient: ApiClient } = (await import(path.join(out, "client.ts"))) as { MantyxClient: typeof ApiClient });
  server = await startMockServer({ edition: "2026-09" });
}, 120_000);

afterAll(() => server?.close());

test.each(["bearerAuth", "apiKeyHeader"])(
  "credentials: { %s }: the run is created and its stream read to the end",
  async (scheme) => {
    const client = new ApiClient({
      baseUrl: server.url,
      workspace: server.workspace,
      credentials: { [scheme]: server.apiKey },
      maxRetries: 0,
    });
    const { runId } = await client.createRun({ systemPrompt: "You are helpful.", prompt: "hi" });
    const types: string[] = [];
    for await (const item of client.streamRun(runId)) types.push(item.type);
    expect(types.at(-1)).toBe("result");
  },
);

/**
 * Optional authentication as OpenAPI writes it: `security: [{}, { bearer: [] }]`
 * (an empty requirement beside another; GitHub-style APIs answer more to an
 * authenticated caller). The client took the empty alternative first and so
 * never sent the token it held. It now sends a held credential, and without
 * one calls anonymously; `security: []` still sends nothing. Over real HTTP
 * on 127.0.0.1.
 */
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { genQuietly, writeTree, authRecorder, type LocalServer } from "../support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: Optional auth, version: "1" }
security: [{ bearer: [] }]
paths:
  /optional:
    get: { operationId: optional, security: [{}, { bearer: [] }], responses: { "204": { description: none } } }
  /public:
    get: { operationId: publicOne, security: [], responses: { "204": { description: none } } }
  /private:
    get: { operationId: privateOne, responses: { "204": { description: none } } }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
`;

interface Client {
  optional(): Promise<undefined>;
  publicOne(): Promise<undefined>;
  privateOne(): Promise<undefined>;
}
let ApiClient: new (options: { baseUrl: string; credentials?: { bearer?: string } }) => Client;
let server: LocalServer;
let baseUrl = "";
const seen: string[] = [];

beforeAll(async () => {
  const out = await genQuietly(path.join(writeTree({ "auth.yaml": SCHEMA }), "auth.yaml"));
  ({ ApiClient } = (await import(path.join(out, "client.ts"))) as { ApiClient: typeof ApiClient });
  server = await authRecorder(seen);
  baseUrl = server.baseUrl;
}, 60_000);

afterAll(() => server.close());

test("with a token: sent where it is required or optional, not where security is []", async () => {
  seen.length = 0;
  const client = new ApiClient({ baseUrl, credentials: { bearer: "tok" } });
  await client.optional();
  await client.publicOne();
  await client.privateOne();
  expect(seen).toEqual(["/optional Bearer tok", "/public -", "/private Bearer tok"]);
});

test("without one: the optional operation is called anonymously", async () => {
  seen.length = 0;
  const client = new ApiClient({ baseUrl });
  await client.optional();
  await client.publicOne();
  expect(seen).toEqual(["/optional -", "/public -"]);
});

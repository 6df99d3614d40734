/**
 * Two bearer schemes that different operations need (a user's token here,
 * an administrator's there) are two credentials, not one: `apiKey` stands
 * for a schema's schemes only when every operation accepts each of them
 * alone (MANTYX: `bearerAuth` or `apiKeyHeader`, the same key). The client
 * took `apiKey` only, sent one token to both and ignored `credentials`, so
 * one client could not call both. Over real HTTP on 127.0.0.1.
 */
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { genQuietly, writeTree, authRecorder, type LocalServer } from "../support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: Two tokens, version: "1" }
paths:
  /me:
    get: { operationId: me, security: [{ user: [] }], responses: { "204": { description: none } } }
  /admin:
    get: { operationId: admin, security: [{ admin: [] }], responses: { "204": { description: none } } }
  /either:
    get: { operationId: either, security: [{ admin: [] }, { user: [] }], responses: { "204": { description: none } } }
components:
  securitySchemes:
    user: { type: http, scheme: bearer }
    admin: { type: oauth2, flows: { clientCredentials: { tokenUrl: "https://auth.example/token", scopes: {} } } }
`;

interface Client {
  me(): Promise<undefined>;
  admin(): Promise<undefined>;
  either(): Promise<undefined>;
}
let ApiClient: new (options: { baseUrl: string; credentials?: { user?: string; admin?: string } }) => Client;
let server: LocalServer;
const seen: string[] = [];

beforeAll(async () => {
  const out = await genQuietly(path.join(writeTree({ "auth.yaml": SCHEMA }), "auth.yaml"));
  ({ ApiClient } = (await import(path.join(out, "client.ts"))) as { ApiClient: typeof ApiClient });
  server = await authRecorder(seen);
}, 60_000);

afterAll(() => server.close());

test("each operation gets the token of its own scheme, from one client", async () => {
  const client = new ApiClient({ baseUrl: server.baseUrl, credentials: { user: "user-token", admin: "admin-token" } });
  await client.me();
  await client.admin();
  await client.either();
  expect(seen).toEqual(["/me Bearer user-token", "/admin Bearer admin-token", "/either Bearer admin-token"]);
});

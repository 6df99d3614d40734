/**
 * `security: [{}]` (only the empty requirement) is, like `security: []`, an
 * operation that takes no credential (OpenAPI 3.1 §4.8.30: `{}` makes
 * security optional; alone it leaves nothing to send). So `apiKey`, which
 * goes on every request, cannot stand for the schemes: the client takes
 * credentials by scheme and sends none there, also when every non-empty
 * alternative left is one the client cannot send (mutualTLS). It took
 * `apiKey` and ignored `credentials`. Over real HTTP on 127.0.0.1.
 */
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { genAll, writeTree, authRecorder, type LocalServer } from "../support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: Anonymous operations, version: "1" }
security: [{ bearer: [] }]
paths:
  /anonymous:
    get: { operationId: anonymous, security: [{}], responses: { "204": { description: none } } }
  /tls-or-anonymous:
    get: { operationId: tlsOrAnonymous, security: [{}, { tls: [] }], responses: { "204": { description: none } } }
  /private:
    get: { operationId: privateOne, responses: { "204": { description: none } } }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    tls: { type: mutualTLS }
`;

interface Client {
  anonymous(): Promise<undefined>;
  tlsOrAnonymous(): Promise<undefined>;
  privateOne(): Promise<undefined>;
}
let ApiClient: new (options: { baseUrl: string; credentials?: { bearer?: string } }) => Client;
let server: LocalServer;
const seen: string[] = [];

beforeAll(async () => {
  const { out, code, stderr } = await genAll(path.join(writeTree({ "auth.yaml": SCHEMA }), "auth.yaml"));
  expect(code).toBe(0);
  // The one warning: the scheme left out.
  expect(stderr.match(/^(error|warning).*$/gm)).toEqual([
    expect.stringMatching(
      /^warning\[client\]: auth\.yaml:\d+:\d+: the security scheme "tls" \(mutualTLS\) is not one the client sends/,
    ),
  ]);
  ({ ApiClient } = (await import(path.join(out, "client.ts"))) as { ApiClient: typeof ApiClient });
  server = await authRecorder(seen);
}, 60_000);

afterAll(() => server.close());

test("the token goes where it is required, never to an operation whose only requirement is {}", async () => {
  const client = new ApiClient({ baseUrl: server.baseUrl, credentials: { bearer: "tok" } });
  await client.anonymous();
  await client.tlsOrAnonymous();
  await client.privateOne();
  expect(seen).toEqual(["/anonymous -", "/tls-or-anonymous -", "/private Bearer tok"]);
});

/**
 * Header and cookie parameters as OpenAPI writes them: `simple` by default
 * (an object's keys and values joined by commas), `k=v` pairs with
 * `explode: true`, one JSON text when described by `content:
 * application/json`. Generated from a small document written here, called
 * over real HTTP on 127.0.0.1 (they went out comma-joined whatever the
 * style, and as `[object Object]` before that).
 */
import type { IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { genQuietly, writeTree, localServer, type LocalServer } from "../support.js";

const OBJECT = "{ type: object, properties: { role: { type: string }, level: { type: integer } } }";
const SCHEMA = `openapi: 3.1.0
info: { title: Styles, version: "1" }
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - { name: X-Simple, in: header, schema: ${OBJECT} }
        - { name: X-Exploded, in: header, explode: true, schema: ${OBJECT} }
        - name: X-Json
          in: header
          content:
            application/json:
              schema: ${OBJECT}
        - { name: X-Ids, in: header, schema: { type: array, items: { type: integer } } }
        - name: prefs
          in: cookie
          content:
            application/json:
              schema: ${OBJECT}
      responses:
        "200":
          description: the things
          content:
            application/json:
              schema: { type: array, items: { type: string } }
`;

type Thing = { role?: string; level?: number };
interface StylesClient {
  listThings(params?: {
    header?: { "X-Simple"?: Thing; "X-Exploded"?: Thing; "X-Json"?: Thing; "X-Ids"?: number[] };
    cookie?: { prefs?: Thing };
  }): Promise<string[]>;
}
let ApiClient: new (options: { baseUrl: string }) => StylesClient;
let server: LocalServer;
let baseUrl = "";
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  const out = await genQuietly(path.join(writeTree({ "styles.yaml": SCHEMA }), "styles.yaml"));
  ({ ApiClient } = (await import(path.join(out, "client.ts"))) as { ApiClient: typeof ApiClient });
  server = await localServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { "content-type": "application/json" }).end('["a"]');
  });
  baseUrl = server.baseUrl;
}, 60_000);

afterAll(() => server.close());

test("each header and cookie parameter goes in its style", async () => {
  const value = { role: "admin", level: 2 };
  await new ApiClient({ baseUrl }).listThings({
    header: { "X-Simple": value, "X-Exploded": value, "X-Json": value, "X-Ids": [3, 4] },
    cookie: { prefs: value },
  });
  const headers = seen[0]!;
  expect(headers["x-simple"]).toBe("role,admin,level,2");
  expect(headers["x-exploded"]).toBe("role=admin,level=2");
  expect(JSON.parse(headers["x-json"] as string)).toEqual(value);
  expect(headers["x-ids"]).toBe("3,4");
  expect(headers.cookie).toBe(`prefs=${encodeURIComponent(JSON.stringify(value))}`);
});

/**
 * A query parameter described by `content: application/json` instead of a
 * `schema` (OpenAPI: the media type encodes the whole value) is sent as one
 * JSON text, `filter=%7B...%7D`; it went out as an exploded form object
 * (`?status=open&since=2`), which a server reading `filter` never sees.
 * Generated from a small document written here, called over real HTTP on
 * 127.0.0.1; a schema-described object beside it keeps its form style.
 */
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { genQuietly, writeTree, localServer, type LocalServer } from "../support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: Search, version: "1" }
paths:
  /issues:
    get:
      operationId: searchIssues
      parameters:
        - name: filter
          in: query
          content:
            application/json:
              schema: { type: object, properties: { status: { type: string }, since: { type: integer } } }
        - name: page
          in: query
          schema: { type: object, properties: { size: { type: integer } } }
      responses:
        "200":
          description: the issues
          content:
            application/json:
              schema: { type: array, items: { type: string } }
`;

let server: LocalServer;
let baseUrl = "";
const urls: string[] = [];
interface SearchClient {
  searchIssues(params?: {
    query?: { filter?: { status?: string; since?: number }; page?: { size?: number } };
  }): Promise<string[]>;
}
let ApiClient: new (options: { baseUrl: string }) => SearchClient;

beforeAll(async () => {
  const out = await genQuietly(path.join(writeTree({ "search.yaml": SCHEMA }), "search.yaml"));
  ({ ApiClient } = (await import(path.join(out, "client.ts"))) as { ApiClient: typeof ApiClient });
  server = await localServer((request, response) => {
    urls.push(request.url!);
    response.writeHead(200, { "content-type": "application/json" }).end('["ISSUE-1"]');
  });
  baseUrl = server.baseUrl;
}, 60_000);

afterAll(() => server.close());

test("the content-described parameter is one JSON text; the schema-described object stays form-exploded", async () => {
  const client = new ApiClient({ baseUrl });
  expect(await client.searchIssues({ query: { filter: { status: "open", since: 2 }, page: { size: 5 } } })).toEqual([
    "ISSUE-1",
  ]);
  const query = new URL(urls[0]!, baseUrl).searchParams;
  expect(JSON.parse(query.get("filter")!)).toEqual({ status: "open", since: 2 });
  expect(query.get("size")).toBe("5");
  expect([...query.keys()].sort()).toEqual(["filter", "size"]);
});

/**
 * Names a document may use that no JavaScript binding may have: path
 * parameters `{class}` and `{default}`, two that camelCase to one name
 * (`{a.b}`, `{a-b}`), one named like another argument (`{body}`), and
 * operationIds `delete`, `class`, `operation` (a name operations.ts
 * imports) and `then` (which would make the client a thenable). The output
 * used to fail tsc with TS1390 ("'class' is not allowed as a parameter
 * name") and TS1389 (`export const delete`). It must type-check, and
 * called over real HTTP on 127.0.0.1, every argument must land in its own
 * place of the path.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { genAll, tempDir, writeTree, localServer, type LocalServer } from "../support.js";
import { RESOLUTIONS, tsc, writeStrictProject } from "./support.js";

const PATH_PARAMS = ["class", "default", "a.b", "a-b", "body"]
  .map((name) => `      - { name: ${name}, in: path, required: true, schema: { type: string } }`)
  .join("\n");
const SCHEMA = `openapi: 3.1.0
info: { title: Reserved, version: "1" }
paths:
  /things/{class}/{default}/{a.b}/{a-b}/{body}:
    parameters:
${PATH_PARAMS}
    get:
      operationId: delete
      parameters:
        - { name: options, in: query, schema: { type: string } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object } } } }
    put:
      operationId: class
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { n: { type: integer } } } } } }
      responses: { "204": { description: none } }
    post:
      operationId: operation
      responses: { "204": { description: none } }
  /then:
    get:
      operationId: then
      responses: { "204": { description: none } }
`;

const root = tempDir();
const out = path.join(root, "gen");
let stderr = "";

interface ReservedClient {
  delete(
    a: string,
    b: string,
    c: string,
    d: string,
    e: string,
    params?: { query?: { options?: string } },
  ): Promise<unknown>;
  class(a: string, b: string, c: string, d: string, e: string, body: { n?: number }): Promise<undefined>;
  operation(a: string, b: string, c: string, d: string, e: string): Promise<undefined>;
  then_(): Promise<undefined>;
}
type Fn = (core: unknown, ...args: unknown[]) => Promise<unknown>;
let server: LocalServer;
let baseUrl = "";
const seen: string[] = [];

beforeAll(async () => {
  const run = await genAll(path.join(writeTree({ "reserved.yaml": SCHEMA }), "reserved.yaml"), out);
  stderr = run.stderr;
  expect(run.code).toBe(0);
  server = await localServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (request.method === "GET" && request.url!.startsWith("/things"))
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    else response.writeHead(204).end();
  });
  baseUrl = server.baseUrl;
}, 60_000);

afterAll(() => server.close());

test("gen exits 0 without an error or a warning", () => {
  expect(stderr).not.toMatch(/^(error|warning)/m);
});

test("reserved path parameters and operation names get a trailing _ where a binding needs one", () => {
  const operations = readFileSync(path.join(out, "operations.ts"), "utf8");
  expect(operations).toContain(
    "export const delete_: (client: ApiCore, class_: string, default_: string, aB: string, aB_: string, body_: string, params?:",
  );
  expect(operations).toContain(
    "export const class_: (client: ApiCore, class_: string, default_: string, aB: string, aB_: string, body_: string, body: { n?: number;",
  );
  expect(operations).toContain(
    'export const operation_: (client: ApiCore, class_: string, default_: string, aB: string, aB_: string, body_: string, options?: ApiCallOptions) => Promise<undefined> = /* @__PURE__ */ operation("operation", ',
  );
  const client = readFileSync(path.join(out, "client.ts"), "utf8");
  // A method may be named by a reserved word; only `then` would change what the object is.
  expect(client).toContain(
    "  delete(class_: string, default_: string, aB: string, aB_: string, body_: string, params?:",
  );
  expect(client).toContain("  class(class_: string,");
  expect(client).toContain("  then_(options?: ApiCallOptions): Promise<undefined>;");
  expect(client).not.toMatch(/^ {2}then\(/m);
});

describe.each(RESOLUTIONS)("tsc --strict (%s resolution)", (resolution) => {
  test("the output passes", () => {
    const tsconfig = writeStrictProject(root, {
      include: ["gen/**/*.ts"],
      resolution,
      file: `tsconfig.${resolution}.json`,
    });
    expect(tsc(tsconfig)).toBe("");
  }, 60_000);
});

test("over HTTP each argument fills its own path segment, through the client and through the operation functions", async () => {
  const { ApiClient } = (await import(path.join(out, "client.ts"))) as {
    ApiClient: new (options: { baseUrl: string }) => ReservedClient;
  };
  const client = new ApiClient({ baseUrl });
  const args = ["c1", "d2", "ab3", "ab4", "b5"] as const;
  await client.delete(...args, { query: { options: "q" } });
  await client.class(...args, { n: 1 });
  await client.operation(...args);
  await client.then_();
  const fns = (await import(path.join(out, "operations.ts"))) as Record<string, Fn> & {
    ApiCore: new (options: { baseUrl: string }) => unknown;
  };
  const core = new fns.ApiCore({ baseUrl });
  await fns.delete_!(core, ...args);
  await fns.class_!(core, ...args, { n: 2 });
  await fns.operation_!(core, ...args);
  // Awaiting the client is the client itself: it has no `then`.
  expect(await Promise.resolve(client)).toBe(client);
  expect(seen).toEqual([
    "GET /things/c1/d2/ab3/ab4/b5?options=q",
    "PUT /things/c1/d2/ab3/ab4/b5",
    "POST /things/c1/d2/ab3/ab4/b5",
    "GET /then",
    "GET /things/c1/d2/ab3/ab4/b5",
    "PUT /things/c1/d2/ab3/ab4/b5",
    "POST /things/c1/d2/ab3/ab4/b5",
  ]);
});

/**
 * An OpenAPI 3.0 operation with `responses: {}` (3.0 asks for at least one
 * response; `@readme/oas-examples`' `openapi-workshop/post.json` has one,
 * and openapi-typescript reads it as none) was refused whole with
 * `error[not-openapi-31] ... missing required field "default"`. It is read
 * as an operation without `responses` (which 3.1 allows), with a warning at
 * its line; the output passes tsc --strict and the operation can be called.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, expect, test } from "vitest";
import { genAll, localServer, tempDir, writeTree } from "../support.js";
import { tsc, writeStrictProject } from "./support.js";

const SCHEMA = `openapi: 3.0.0
info: { title: Hoot, version: "1" }
paths:
  /hoot:
    post:
      operationId: hoot
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { text: { type: string } } }
      responses: {}
    get:
      operationId: listHoots
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { type: array, items: { type: string } }
`;

const root = tempDir();
const out = path.join(root, "gen");
let run: Awaited<ReturnType<typeof genAll>>;

beforeAll(async () => {
  run = await genAll(path.join(writeTree({ "hoot.yaml": SCHEMA }), "hoot.yaml"), out);
}, 120_000);

test("gen exits 0 with one warning at the empty responses", () => {
  expect(run.stderr).not.toMatch(/^error|internal error/m);
  expect(run.code).toBe(0);
  const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning"));
  expect(warnings).toEqual([
    expect.stringMatching(
      /^warning\[client\]: hoot\.yaml:11:7: 1 operation\(s\) \(first shown\) with an empty `responses`, .*Describe at least one response/,
    ),
  ]);
});

test("the operation is generated and can be called over HTTP", async () => {
  expect(readFileSync(path.join(out, "operations.ts"), "utf8")).toMatch(/^export const hoot: /m);
  const seen: string[] = [];
  const server = await localServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push(`${request.method} ${request.url} ${body}`);
      response.writeHead(204).end();
    });
  });
  try {
    const { ApiClient } = (await import(path.join(out, "client.ts"))) as {
      ApiClient: new (options: { baseUrl: string }) => { hoot(body: { text: string }): Promise<unknown> };
    };
    await new ApiClient({ baseUrl: server.baseUrl }).hoot({ text: "hi" });
  } finally {
    await server.close();
  }
  expect(seen).toEqual(['POST /hoot {"text":"hi"}']);
});

test("the output passes tsc --strict", () => {
  expect(tsc(writeStrictProject(root, { include: ["gen/**/*.ts"] }))).toBe("");
}, 120_000);

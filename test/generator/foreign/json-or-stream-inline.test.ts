/**
 * A JSON-or-stream operation (a 2xx answer with both `text/event-stream`
 * and `application/json`, chosen by the body's boolean `stream`) whose JSON
 * answer is an inline object: its overloads' result type spans lines. `gen`
 * ended in `internal error: template: "{\n answer?: string; ..." is not one
 * line of code` (ReadMe's `readme-legacy.yaml`, `POST /owlbot/ask`, in
 * `@readme/oas-examples`). The output must be generated and pass tsc --strict.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, expect, test } from "vitest";
import { genAll, tempDir, writeTree } from "../support.js";
import { tsc, writeStrictProject } from "./support.js";

const SCHEMA = `openapi: 3.0.3
info: { title: Ask, version: "1" }
paths:
  /ask:
    post:
      operationId: ask
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [question]
              properties:
                question: { type: string }
                stream: { type: boolean }
      responses:
        "200":
          description: The answer, streamed or not.
          content:
            text/event-stream: {}
            application/json:
              schema:
                type: object
                properties:
                  answer: { type: string }
                  sources: { type: array, items: { type: object, properties: { url: { type: string } } } }
`;

const root = tempDir();
const out = path.join(root, "gen");
let run: Awaited<ReturnType<typeof genAll>>;

beforeAll(async () => {
  run = await genAll(path.join(writeTree({ "ask.yaml": SCHEMA }), "ask.yaml"), out);
}, 120_000);

test("gen exits 0 without an error", () => {
  expect(run.stderr).not.toMatch(/^error|internal error/m);
  expect(run.code).toBe(0);
});

test("the overloads on the flag carry the multi-line JSON answer type", () => {
  const operations = readFileSync(path.join(out, "operations.ts"), "utf8");
  expect(operations).toMatch(
    /stream\?: false \| undefined \}, options\?: ApiCallOptions & ItemStreamOptions\): Promise<\{\n\s+answer\?: string;/,
  );
  const client = readFileSync(path.join(out, "client.ts"), "utf8");
  expect(client).toMatch(
    /stream\?: false \| undefined \}, options\?: ApiCallOptions & ItemStreamOptions\): Promise<\{\n\s+answer\?: string;/,
  );
});

test("the output passes tsc --strict", () => {
  expect(tsc(writeStrictProject(root, { include: ["gen/**/*.ts"] }))).toBe("");
}, 120_000);

/**
 * A JSON-or-stream operation (a 2xx answer with both `text/event-stream`
 * and `application/json`, chosen by the body's boolean `stream`) whose JSON
 * answer is an inline object: its overloads' result type spans lines. `gen`
 * ended in `internal error: template: "{\n answer?: string; ..." is not one
 * line of code` (ReadMe's `readme-legacy.yaml`, `POST /owlbot/ask`, in
 * `@readme/oas-examples`). The output must be generated and pass tsc --strict.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, expect, test } from "vitest";
import { genAll, REPO, tempDir, writeTree } from "../support.js";

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
  const tsconfig = path.join(root, "tsconfig.json");
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ["gen/**/*.ts"],
    }),
  );
  let output = "";
  try {
    execFileSync(process.execPath, [path.join(REPO, "node_modules/typescript/bin/tsc"), "-p", tsconfig], {
      encoding: "utf8",
    });
  } catch (error) {
    output = (error as { stdout?: string }).stdout ?? String(error);
  }
  expect(output).toBe("");
}, 120_000);

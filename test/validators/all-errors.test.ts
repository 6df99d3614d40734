/**
 * The all-errors builds of the request-body validators
 * (`validate<Name>AllErrors`): same verdicts as the fast validators, the
 * same errors as live ajv with `allErrors`, and every independent problem
 * of a body reported, not just the first.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadHandCases } from "../../generator/cases/load-cases.js";
import { requestBodyComponents } from "../../generator/emit/validators/request-bodies.js";
import { emitToTempDir, liveValidators, run, type EmittedValidators } from "./support/emitted.js";
import { loadSchemaFile, REPO_ROOT, SCHEMA_PATH } from "./support/load-schema.js";

const model = await loadSchemaFile(SCHEMA_PATH);
const bodies = requestBodyComponents(model.document);
const liveAll = liveValidators(model, { allErrors: true });
const cases = [
  ...Object.entries(model.schemas)
    .filter(([name]) => bodies.includes(name))
    .flatMap(([name, schema]) =>
      ((schema.examples as unknown[] | undefined) ?? []).map((data, i) => ({
        description: `${name} example ${i}`,
        schema: name,
        data,
      })),
    ),
  ...loadHandCases(new URL("schema/cases/", REPO_ROOT).pathname).filter((c) => bodies.includes(c.schema)),
];
let emitted: EmittedValidators;

beforeAll(async () => {
  emitted = await emitToTempDir(model);
});

describe("which components get an all-errors build", () => {
  it("the JSON request bodies of the operations, and only those", () => {
    expect(bodies).toEqual([
      "RunCreateRequest",
      "RunFeedbackRequest",
      "SessionCreateRequest",
      "SessionMessageRequest",
      "ToolResultRequest",
    ]);
  });

  it("a request body that is not a component $ref gets no all-errors build (an inline body has no named validator), and no error", () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/x": { post: { requestBody: { content: { "application/json": { schema: { type: "object" as const } } } } } },
      },
    };
    expect(requestBodyComponents(doc)).toEqual([]);
  });
});

describe("examples and hand cases of the request bodies", () => {
  it("there are cases of every body", () => {
    for (const name of bodies)
      expect(
        cases.some((c) => c.schema === name),
        name,
      ).toBe(true);
  });

  it.each(cases.map((c) => [c.description, c] as const))("%s", async (_d, c) => {
    const all = run(await emitted.getAllErrors(c.schema), c.data);
    const fast = run(await emitted.get(c.schema), c.data);
    expect(all.valid).toBe(fast.valid);
    expect(all).toEqual(run(liveAll(c.schema), c.data));
    // The first error found is among all the errors.
    if (!fast.valid) expect(all.errors).toContainEqual(fast.errors![0]);
  });
});

describe("every problem of a body", () => {
  it("a run request with five independent mistakes reports all five places", async () => {
    const body = {
      prompt: 5,
      reasoningLevel: 101,
      tools: [{ kind: "local", name: "bad name!", description: "d", parameters: { type: "object" } }, { kind: "nope" }],
      metadata: { "bad key": "v" },
    };
    const fast = run(await emitted.get("RunCreateRequest"), body);
    const all = run(await emitted.getAllErrors("RunCreateRequest"), body);
    const places = ["/prompt", "/reasoningLevel", "/tools/0/name", "/tools/1", "/metadata"];
    const paths = new Set((all.errors ?? []).map((e) => e.instancePath));
    for (const p of places) expect(paths, p).toContain(p);
    // The fast validator stops inside the first faulty place.
    expect(new Set((fast.errors ?? []).map((e) => e.instancePath)).size).toBe(1);
  });

  it("a tool result with both result and error and a bad file reports each", async () => {
    const body = {
      toolUseId: "",
      result: "ok",
      error: "no",
      files: [{ filename: "a.txt", mimeType: "text/plain", data: "***" }],
    };
    const all = run(await emitted.getAllErrors("ToolResultRequest"), body);
    const keywords = (all.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(all.valid).toBe(false);
    expect(keywords).toEqual(expect.arrayContaining([" oneOf", "/toolUseId minLength", "/files/0/data x-base64"]));
  });
});

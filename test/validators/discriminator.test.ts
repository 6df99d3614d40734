/**
 * Discriminated unions report one precise error: the tag selects one branch,
 * only that branch is checked, and its issue points into it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { emitToTempDir, liveValidators, run, type EmittedValidators } from "./support/emitted.js";
import { loadSchemaFile, SCHEMA_PATH } from "./support/load-schema.js";

const model = await loadSchemaFile(SCHEMA_PATH);
const live = liveValidators(model);
let emitted: EmittedValidators;

beforeAll(async () => {
  emitted = await emitToTempDir(model);
});

describe("a wrong variant of a discriminated union", () => {
  it("an mcp tool ref missing its url yields one required error from the mcp branch", async () => {
    const spec = {
      prompt: "hi",
      tools: [
        { kind: "local", name: "a" },
        { kind: "mcp", name: "github" },
      ],
    };
    const { valid, errors } = run(await emitted.get("RunCreateRequest"), spec);
    expect(valid).toBe(false);
    expect(errors).toHaveLength(1);
    // McpToolRef is compiled as its own function, so schemaPath is relative
    // to it (ajv's convention for referenced schemas).
    expect(errors?.[0]).toMatchObject({
      keyword: "required",
      instancePath: "/tools/1",
      schemaPath: "#/required",
      params: { missingProperty: "url" },
    });
    expect(run(live("RunCreateRequest"), spec)).toEqual({ valid, errors });
  });

  it("a local tool with a bad name points at that tool's name only", async () => {
    const { errors } = run(await emitted.get("ToolRef"), { kind: "local", name: "has space" });
    expect(errors).toEqual([expect.objectContaining({ keyword: "pattern", instancePath: "/name" })]);
  });

  it("an unknown tag is one discriminator error naming the tag", async () => {
    const { errors } = run(await emitted.get("ToolRef"), { kind: "webhook" });
    expect(errors).toEqual([
      expect.objectContaining({
        keyword: "discriminator",
        instancePath: "",
        params: { error: "mapping", tag: "kind", tagValue: "webhook" },
      }),
    ]);
  });

  it("a known event type with bad data is an error of that event, not an unknown event", async () => {
    const event = { seq: 1, type: "assistant_delta", data: { text: 5 } };
    const { valid, errors } = run(await emitted.get("AgentRunEvent"), event);
    expect(valid).toBe(false);
    // The if/then/else selects KnownAgentRunEvent; its discriminator selects
    // AssistantDeltaEvent: the issue is in that branch's data.
    expect(errors?.[0]).toMatchObject({ keyword: "type", instancePath: "/data/text" });
    expect(errors?.map((e) => e.keyword)).not.toContain("oneOf");
  });

  it("an unknown event type passes through as UnknownAgentRunEvent", async () => {
    expect((await emitted.get("AgentRunEvent"))({ seq: 2, type: "memory_snapshot", data: [1, 2] })).toBe(true);
  });

  it("without the discriminator the same union lists an error per branch", async () => {
    // The baseline the bench measures: same schema, plain oneOf.
    const { withoutDiscriminators } = await import("../../generator/emit/validators/prepare.js");
    const { addComponents, componentRef, createValidatorAjv } = await import("../../generator/emit/validators/ajv.js");
    const ajv = createValidatorAjv();
    addComponents(ajv, withoutDiscriminators(model.schemas));
    const plain = ajv.getSchema(componentRef("ToolRef"));
    expect(plain?.({ kind: "local", name: "has space" })).toBe(false);
    expect(plain?.errors?.length).toBeGreaterThan(7);
  });
});

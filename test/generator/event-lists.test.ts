/**
 * The known-type lists of AgentRunEvent (`if`) and UnknownAgentRunEvent
 * (`not`) must equal KnownAgentRunEvent's mapping keys. The real schema
 * spells them out as plain enums (every tool reads those alike); lists that
 * disagree with the mapping fail `gen` with both lists named, so forgetting
 * them when adding an event type cannot pass. A schema read by this
 * generator only may derive them instead (`x-enum-from-mapping`): then a
 * type added to the union alone is known everywhere.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { formatError, isSchemaLoadError } from "../../generator/errors.js";
import { loadSchema } from "../../generator/load/index.js";
import { emitToTempDir } from "../validators/support/emitted.js";
import { REPO, writeTree } from "./support.js";

const REAL = readFileSync(path.join(REPO, "schema/openapi.yaml"), "utf8");
const DERIVED = 'x-enum-from-mapping: "#/components/schemas/KnownAgentRunEvent"';
const SPELLED =
  'enum: ["assistant_delta", "thinking_delta", "tool_result", "local_tool_call", "local_tool_result_in", "loop_detected", "tool_budget_exceeded", "supervisor", "task_plan", "assistant_message", "result", "error", "cancelled", "started", "tool_call", "user_message", "tool_files", "model_fallback"]';
/** The real schema with both lists derived from the mapping instead of spelled out. */
const DERIVING = REAL.replaceAll(SPELLED, DERIVED);

const NEW_EVENT = `    ContextCompactedEvent:
      description: A test-only event type.
      type: object
      required: [seq, type, data]
      properties:
        seq:
          $ref: "#/components/schemas/EventSeq"
        type:
          const: context_compacted
        data:
          type: object
          required: [bytes]
          properties:
            bytes: { type: integer }
      additionalProperties: true
`;

/** The real schema with one more event type, added in the union only (component, oneOf line, mapping line). */
function withNewEvent(schema: string): string {
  const edits: [string, string][] = [
    ["    KnownAgentRunEvent:\n", `${NEW_EVENT}    KnownAgentRunEvent:\n`],
    [
      '        - $ref: "#/components/schemas/ModelFallbackEvent"\n      discriminator:',
      '        - $ref: "#/components/schemas/ModelFallbackEvent"\n        - $ref: "#/components/schemas/ContextCompactedEvent"\n      discriminator:',
    ],
    [
      '          model_fallback: "#/components/schemas/ModelFallbackEvent"\n',
      '          model_fallback: "#/components/schemas/ModelFallbackEvent"\n          context_compacted: "#/components/schemas/ContextCompactedEvent"\n',
    ],
  ];
  let text = schema;
  for (const [from, to] of edits) {
    expect(text.split(from)).toHaveLength(2); // each anchor is unique
    text = text.replace(from, to);
  }
  return text;
}

describe("the known event types agree with KnownAgentRunEvent's mapping", () => {
  test("the real schema spells both lists out as plain enums (no vendor keyword other tools would skip)", () => {
    expect(REAL.split(SPELLED)).toHaveLength(3);
    expect(REAL).not.toContain(DERIVED);
    expect(DERIVING.split(DERIVED)).toHaveLength(3);
  });

  test("with x-enum-from-mapping, a type added to the union alone is known everywhere: its malformed event is rejected", async () => {
    const dir = writeTree({ "openapi.yaml": withNewEvent(DERIVING) });
    const model = await loadSchema("openapi.yaml", { cwd: dir });
    // The two lists this test reads, where the loader spells them out.
    const schemas = model.schemas as unknown as {
      AgentRunEvent: { if: { properties: { type: { enum: string[] } } } };
      UnknownAgentRunEvent: { properties: { type: { not: { enum: string[] } } } };
    };
    expect(schemas.AgentRunEvent.if.properties.type.enum).toContain("context_compacted");
    expect(schemas.UnknownAgentRunEvent.properties.type.not.enum).toContain("context_compacted");
    expect(JSON.stringify(model.document)).not.toContain("x-enum-from-mapping");
    const validate = await (await emitToTempDir(model)).get("AgentRunEvent");
    expect(validate({ seq: 1, type: "context_compacted", data: { bytes: 10 } })).toBe(true);
    expect(validate({ seq: 1, type: "context_compacted", data: { bytes: "many" } })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: "/data/bytes", keyword: "type" });
    expect(validate({ seq: 1, type: "from_the_future", data: "anything" })).toBe(true);
  });

  test("the derived document is the one with the lists spelled out", async () => {
    const [derived, byHand] = await Promise.all([
      loadSchema("openapi.yaml", { cwd: writeTree({ "openapi.yaml": DERIVING }) }),
      loadSchema("openapi.yaml", { cwd: writeTree({ "openapi.yaml": REAL }) }),
    ]);
    expect(JSON.stringify(derived.document)).toBe(JSON.stringify(byHand.document));
    expect(derived.hash).toBe(byHand.hash);
  });

  test("hand-written lists that miss the new type fail gen, naming both lists and the fix", async () => {
    const dir = writeTree({ "openapi.yaml": withNewEvent(REAL) });
    const error: unknown = await loadSchema("openapi.yaml", { cwd: dir }).catch((e: unknown) => e);
    if (!isSchemaLoadError(error)) throw new Error(`expected a SchemaLoadError, got ${String(error)}`);
    expect(error.code).toBe("disagreeing-lists");
    expect(error.problems.map((p) => p.pointer)).toEqual([
      "/components/schemas/AgentRunEvent/if/properties/type/enum",
      "/components/schemas/UnknownAgentRunEvent/properties/type/not/enum",
    ]);
    for (const problem of error.problems) {
      expect(problem.message).toMatch(
        /disagrees with the discriminator mapping of "#\/components\/schemas\/KnownAgentRunEvent": it lacks "context_compacted"/,
      );
      expect(problem.fix).toContain(DERIVED);
      expect(problem.line).toBeGreaterThan(2000);
    }
    expect(formatError(error)).not.toMatch(/internal error|\n\s+at /);
  });
});

/**
 * The two validation levels (schema/CONVENTIONS.md, "Two validation
 * levels"): the receive level derived from the schema by the documented
 * rule, the `x-receive` / `x-strict-only` keywords, and the generated
 * receive-level validators a client applies to what it reads.
 */
import { describe, expect, it } from "vitest";
import { receivedComponents } from "../../generator/emit/validators/received-components.js";
import { receiveComponents, receiveSchema } from "../../generator/emit/validators/receive-level.js";
import { validateAgentRunEvent } from "../../generated/validators/agent-run-event.js";
import { validateAgentRunEventReceive } from "../../generated/validators/agent-run-event.receive.js";
import { validateRunSnapshot } from "../../generated/validators/run-snapshot.js";
import { validateRunSnapshotReceive } from "../../generated/validators/run-snapshot.receive.js";
import { toleratedNotes } from "../../runtime/validation/helpers.js";
import type { ValidationIssue } from "../../runtime/validation/issue.js";
import { loadSchemaFile, SCHEMA_PATH } from "./support/load-schema.js";

const model = await loadSchemaFile(SCHEMA_PATH);

const result = (data: Record<string, unknown>) => ({ seq: 9, type: "result", data: { ok: true, text: "Hi", ...data } });

describe("the receive-level rule, keyword by keyword", () => {
  const cases: Array<[string, Record<string, unknown> | boolean, unknown]> = [
    [
      "keeps type, required, properties, const, $ref",
      { type: "object", required: ["a"], properties: { a: { const: "x" }, b: { $ref: "#/components/schemas/B" } } },
      { type: "object", required: ["a"], properties: { a: { const: "x" }, b: { $ref: "#/components/schemas/B" } } },
    ],
    [
      "drops pattern, lengths, numeric limits, format",
      { type: "string", pattern: "^a", minLength: 1, maxLength: 3, format: "uri" },
      { type: "string" },
    ],
    [
      "drops enum on a field and limits inside items",
      { type: "array", minItems: 1, items: { type: "string", enum: ["a", "b"] } },
      { type: "array", items: { type: "string" } },
    ],
    [
      "drops additionalProperties: false, keeps it as a schema",
      {
        type: "object",
        properties: { m: { type: "object", additionalProperties: false } },
        additionalProperties: { type: "string", maxLength: 2 },
      },
      { type: "object", properties: { m: { type: "object" } }, additionalProperties: { type: "string" } },
    ],
    [
      "a false property (must not be present) is strict-only",
      { type: "object", properties: { a: { type: "string" }, b: false } },
      { type: "object", properties: { a: { type: "string" } } },
    ],
    [
      "oneOf without a discriminator becomes anyOf",
      {
        oneOf: [
          { type: "string", maxLength: 2 },
          { type: "string", minLength: 3 },
        ],
      },
      { anyOf: [{ type: "string" }, { type: "string" }] },
    ],
    [
      "oneOf beside anyOf goes into allOf",
      { anyOf: [{ required: ["a"] }], oneOf: [{ required: ["b"] }, { required: ["c"] }] },
      { anyOf: [{ required: ["a"] }], allOf: [{ anyOf: [{ required: ["b"] }, { required: ["c"] }] }] },
    ],
    [
      "oneOf with a discriminator stays oneOf",
      { oneOf: [{ $ref: "#/x" }], discriminator: { propertyName: "type" } },
      { oneOf: [{ $ref: "#/x" }], discriminator: { propertyName: "type" } },
    ],
    [
      "an if/then without else (a cross-field rule) is dropped",
      { type: "object", if: { properties: { a: { const: 1 } } }, then: { required: ["b"] } },
      { type: "object" },
    ],
    [
      "an if/then/else (one of two shapes) is kept, its if as written",
      { if: { properties: { t: { enum: ["a"] } } }, then: { $ref: "#/A" }, else: { type: "object", minProperties: 1 } },
      { if: { properties: { t: { enum: ["a"] } } }, then: { $ref: "#/A" }, else: { type: "object" } },
    ],
    [
      "drops not, propertyNames, dependent keywords and the vendor byte and cross-field keywords",
      {
        type: "object",
        not: { required: ["x"] },
        propertyNames: { pattern: "^a" },
        dependentRequired: { a: ["b"] },
        "x-max-json-bytes": 10,
        "x-greater-than": [{ property: "a", than: "b" }],
      },
      { type: "object" },
    ],
    [
      "x-receive keeps the listed keywords as written",
      { type: "integer", minimum: 0, maximum: 9, "x-receive": ["minimum"] },
      { type: "integer", minimum: 0 },
    ],
    [
      "x-strict-only makes a subschema true",
      { type: "object", allOf: [{ "x-strict-only": true, required: ["turn"] }] },
      { type: "object", allOf: [true] },
    ],
    [
      "keeps annotations",
      { type: "string", description: "d", examples: ["a"], "x-known-values": ["a"] },
      { type: "string", description: "d", examples: ["a"], "x-known-values": ["a"] },
    ],
    [
      "keeps a vendor keyword the generator does not implement (an annotation, as the loader reads it)",
      { type: "object", "x-scalar-ignore": true },
      { type: "object", "x-scalar-ignore": true },
    ],
    ["boolean schemas stay as they are", false, false],
    [
      "x-strict-only: { section } in an allOf branch becomes the schema's x-tolerated rule (hoisted: it runs after the schema's keywords)",
      { type: "object", required: ["a"], allOf: [{ "x-strict-only": { section: "doc §1" }, required: ["card"] }] },
      { type: "object", required: ["a"], "x-tolerated": { section: "doc §1", rule: { required: ["card"] } } },
    ],
    [
      "x-receive-default drops its members from required and properties, and reads them in x-tolerated",
      {
        type: "object",
        required: ["error", "code"],
        properties: { error: { type: "string" }, code: { type: "string", description: "d" } },
        "x-receive-default": { section: "doc §2", members: { code: { from: "errorClass", default: "error" } } },
      },
      {
        type: "object",
        required: ["error"],
        properties: { error: { type: "string" } },
        "x-tolerated": { section: "doc §2", read: { code: { default: "error", from: "errorClass", type: "string" } } },
      },
    ],
  ];
  it.each(cases)("%s", (_name, given, want) => {
    expect(receiveSchema(given as never, "/components/schemas/T")).toEqual(want);
  });

  it("a keyword of no dialect (an annotation, as JSON Schema says; the loader warns of it) and 3.0's nullable are kept as annotations, never an error", () => {
    // A document written elsewhere carries them in the schemas its operations answer with (Resend's `nullable`, a `faker` hint).
    const schema = {
      type: "object",
      properties: { a: { type: ["string", "null"], nullable: true, faker: "word", unknownKeyword: {} } },
    };
    expect(receiveSchema(schema as never, "/components/schemas/T")).toEqual(schema);
  });

  it("x-tolerated written by hand, an x-receive-default member it cannot read, a tolerated rule with a $ref: typed errors", () => {
    const at = "/components/schemas/T";
    expect(() => receiveSchema({ type: "object", "x-tolerated": { section: "s" } } as never, at)).toThrow(
      /derived by the generator, never written/,
    );
    const withDefault = (properties: object, members: object) => ({
      type: "object",
      properties,
      "x-receive-default": { section: "s", members },
    });
    expect(() => receiveSchema(withDefault({}, { n: { default: 0 } }) as never, at)).toThrow(/not a declared property/);
    expect(() =>
      receiveSchema(withDefault({ n: { type: "integer", maximum: 3 } }, { n: { default: 0 } }) as never, at),
    ).toThrow(/has maximum, which a default cannot read/);
    expect(() => receiveSchema(withDefault({ n: { type: "integer" } }, { n: { default: "0" } }) as never, at)).toThrow(
      /is not of its type integer/,
    );
    expect(() =>
      receiveSchema(withDefault({ n: { type: "integer", minimum: 1 } }, { n: { default: 0 } }) as never, at),
    ).toThrow(/below its minimum/);
    expect(() =>
      receiveSchema(withDefault({ constructor: { type: "string" } }, { constructor: { default: "" } }) as never, at),
    ).toThrow(/every object inherits/);
    expect(() =>
      receiveSchema(
        {
          allOf: [{ "x-strict-only": { section: "s" }, properties: { a: { $ref: "#/components/schemas/A" } } }],
        } as never,
        at,
      ),
    ).toThrow(/uses a \$ref/);
  });

  it("x-receive naming a keyword the schema lacks, or one that is kept anyway, is a typed error", () => {
    expect(() =>
      receiveSchema({ type: "integer", "x-receive": ["maximum"] } as never, "/components/schemas/T"),
    ).toThrow(/has no "maximum"/);
    expect(() => receiveSchema({ type: "integer", "x-receive": ["type"] } as never, "/components/schemas/T")).toThrow(
      /not a keyword the receive level drops/,
    );
  });

  it("keeps the enum of a discriminator's tag property (a branch listing its tag values), drops other enums", () => {
    const schemas = {
      Body: {
        oneOf: [{ $ref: "#/components/schemas/Moon" }],
        discriminator: {
          propertyName: "kind",
          mapping: { moon: "#/components/schemas/Moon", asteroid: "#/components/schemas/Moon" },
        },
      },
      Moon: {
        type: "object",
        required: ["kind"],
        properties: {
          kind: { type: "string", enum: ["moon", "asteroid"] },
          size: { type: "string", enum: ["s", "m"] },
        },
      },
    };
    expect(receiveComponents(schemas as never)["Moon"]).toEqual({
      type: "object",
      required: ["kind"],
      properties: { kind: { type: "string", enum: ["moon", "asteroid"] }, size: { type: "string" } },
    });
  });

  it("the derived schema keeps every component and is deterministic", () => {
    const a = receiveComponents(model.schemas);
    expect(Object.keys(a)).toEqual(Object.keys(model.schemas).sort());
    expect(JSON.stringify(receiveComponents(model.schemas))).toBe(JSON.stringify(a));
  });
});

describe("which components get a receive-level build", () => {
  it("the 2xx JSON response bodies and the event stream's item schema", () => {
    expect(receivedComponents(model.document)).toEqual(
      [
        "AgentRunEvent",
        "ModelsResponse",
        "OpaqueObject",
        "RunCreateResponse",
        "RunFeedbackResponse",
        "RunListResponse",
        "RunSnapshot",
        "SessionCreateResponse",
        "SessionEventsResponse",
        "SessionListResponse",
        "Session",
        "UserInfo",
      ].sort(),
    );
  });
});

describe("the generated receive-level event validator", () => {
  it("delivers a terminal result whose model.reasoningEffort is a value the documents do not list (the strict level rejects it)", () => {
    const event = result({
      model: { id: "platform:demo", provider: "openai", vendorModelId: "gpt-6", reasoningEffort: "extreme" },
    });
    expect(validateAgentRunEventReceive(event)).toBe(true);
    expect(validateAgentRunEvent(event)).toBe(false);
    expect(validateAgentRunEvent.errors?.[0]).toMatchObject({
      keyword: "enum",
      instancePath: "/data/model/reasoningEffort",
    });
  });

  it("accepts what only a cross-field or byte rule forbids: a supervisor redirect without its message, a budget with callIndex <= maxCalls", () => {
    const redirect = { seq: 3, type: "supervisor", data: { action: "redirect", reason: "r", llmCalls: 2 } };
    const budget = { seq: 4, type: "tool_budget_exceeded", data: { tool: "recall", maxCalls: 4, callIndex: 2 } };
    for (const event of [redirect, budget]) {
      expect(validateAgentRunEventReceive(event)).toBe(true);
      expect(validateAgentRunEvent(event)).toBe(false);
    }
  });

  it("rejects what the type promises: a missing required field, a wrong type, a tag its variant does not match", () => {
    const bad = [
      { seq: 1, type: "assistant_delta", data: {} },
      { seq: 1, type: "assistant_delta", data: { text: 5 } },
      { seq: 1, type: "local_tool_call", data: { toolUseId: "t", name: "n", args: {}, kind: "mcp_local" } },
      // (A result with neither ok nor subtype was here: it is read now, as the official SDKs read it; the test below.)
      { seq: 1, type: "result", data: { subtype: 5, text: "a subtype that is not a string" } },
      { seq: 1, type: "error", data: { code: "server" } },
      { seq: 1, type: "result", data: { ok: true, tokens: "many" } },
    ];
    for (const event of bad) {
      expect(validateAgentRunEventReceive(event), JSON.stringify(event)).toBe(false);
      expect(validateAgentRunEventReceive.errors?.length).toBeGreaterThan(0);
    }
  });

  it("reads the documented rules the official SDKs' servers break (x-tolerated), reporting each with its section; the strict level refuses them", () => {
    const cases: Array<[event: Record<string, unknown>, section: string, read: unknown]> = [
      [
        { seq: 1, type: "result", data: { text: "neither ok nor subtype" } },
        "wire-protocol.md §4.8",
        { text: "neither ok nor subtype" },
      ],
      [
        {
          seq: 1,
          type: "local_tool_call",
          data: { toolUseId: "t", name: "ghost", args: { message: "hi" }, kind: "a2a_local" },
        },
        "wire-protocol.md §4.3.2",
        { toolUseId: "t", name: "ghost", args: { message: "hi" }, kind: "a2a_local" },
      ],
      [
        { seq: 1, type: "error", data: { error: "e", errorClass: "truncation" } },
        "wire-protocol.md §4.8",
        { error: "e", errorClass: "truncation", code: "truncation" },
      ],
      [
        { seq: 1, type: "error", data: { error: "e", code: null } },
        "wire-protocol.md §4.8",
        { error: "e", code: "error" },
      ],
      [
        {
          seq: 1,
          type: "result",
          data: {
            subtype: "success",
            tokens: { inputTokens: -10, cachedTokens: "not a number", outputTokens: 12.7 },
            turns: 1,
            model: { id: "x", provider: "openai", vendorModelId: "y" },
          },
        },
        "wire-protocol.md §4.8.1",
        {
          subtype: "success",
          tokens: { inputTokens: -10, cachedTokens: 0, outputTokens: 12.7, reasoningTokens: 0 },
          turns: 1,
          model: { id: "x", provider: "openai", vendorModelId: "y" },
        },
      ],
    ];
    for (const [event, section, read] of cases) {
      expect(validateAgentRunEvent(structuredClone(event)), JSON.stringify(event)).toBe(false);
      const notes: ValidationIssue[] = [];
      toleratedNotes.notes = notes;
      try {
        expect(validateAgentRunEventReceive(event), JSON.stringify(event)).toBe(true);
      } finally {
        toleratedNotes.notes = undefined;
      }
      expect(
        notes.map((n) => n.params["section"]),
        JSON.stringify(event),
      ).toEqual([section]);
      expect(event["data"]).toEqual(read);
    }
    // A union branch that fails on its tag reports nothing and changes nothing (x-tolerated runs after its schema's other keywords).
    const notes: ValidationIssue[] = [];
    toleratedNotes.notes = notes;
    const mcp = {
      seq: 1,
      type: "local_tool_call",
      data: { toolUseId: "t", name: "n", args: {}, kind: "mcp_local", mcpServer: "fs", mcpToolName: "n" },
    };
    try {
      expect(validateAgentRunEventReceive(mcp)).toBe(true);
    } finally {
      toleratedNotes.notes = undefined;
    }
    expect(notes).toEqual([]);
    // Without a collector (a program calling the validator itself), nothing is kept.
    expect(validateAgentRunEventReceive({ seq: 1, type: "result", data: { text: "x" } })).toBe(true);
  });

  it("keeps seq an integer >= 0 (x-receive: [minimum] on EventSeq): the stream resumes by it", () => {
    expect(validateAgentRunEventReceive({ seq: -1, type: "assistant_delta", data: { text: "a" } })).toBe(false);
    expect(validateAgentRunEventReceive.errors?.[0]).toMatchObject({ keyword: "minimum", instancePath: "/seq" });
    expect(validateAgentRunEventReceive({ seq: 1.5, type: "assistant_delta", data: { text: "a" } })).toBe(false);
  });

  it("an unknown event type is delivered at both levels", () => {
    const event = { seq: 30, type: "memory_snapshot", data: { bytes: 1 } };
    expect(validateAgentRunEventReceive(event)).toBe(true);
    expect(validateAgentRunEvent(event)).toBe(true);
  });

  it("every example of every event variant passes both levels", () => {
    const names = Object.keys(model.schemas).filter((n) => n.endsWith("Event") && n !== "UnknownAgentRunEvent");
    let n = 0;
    for (const name of names) {
      for (const example of (model.schemas[name]!.examples as unknown[] | undefined) ?? []) {
        expect(validateAgentRunEvent(example), `${name}`).toBe(true);
        expect(validateAgentRunEventReceive(example), `${name}`).toBe(true);
        n++;
      }
    }
    expect(n).toBeGreaterThan(15);
  });
});

describe("a receive-level response body validator", () => {
  it("RunSnapshot: accepts negative turns and an unlisted reasoningEffort (strict rejects both), rejects a missing required field", () => {
    const example = (model.schemas["RunSnapshot"]!.examples as Array<Record<string, unknown>>)[0]!;
    expect(validateRunSnapshotReceive(example)).toBe(true);
    expect(validateRunSnapshot(example)).toBe(true);
    const lenient = { ...example, turns: -1, model: { ...(example["model"] as object), reasoningEffort: "max" } };
    expect(validateRunSnapshotReceive(lenient)).toBe(true);
    expect(validateRunSnapshot(lenient)).toBe(false);
    const required = (model.schemas["RunSnapshot"]!.required as string[])[0]!;
    const { [required]: _dropped, ...without } = example;
    expect(validateRunSnapshotReceive(without)).toBe(false);
  });

  it('RunSnapshot: a server without cost attribution leaves tokens, turns and model out (agent-runs §7.1 probes `"tokens" in body`); only the strict level requires them', () => {
    // wire-protocol.md §7 (truncation contract) shows this snapshot, without the three keys.
    const older = {
      status: "failed",
      finalText: '{"answer":',
      error: "Model output was truncated",
      failureReason: { errorClass: "truncation", finishReason: "max_tokens" },
    };
    expect(validateRunSnapshotReceive(older)).toBe(true);
    expect(validateRunSnapshot(older)).toBe(false);
    expect(validateRunSnapshot.errors?.[0]).toMatchObject({
      keyword: "required",
      params: { missingProperty: "tokens" },
    });
    expect(validateRunSnapshot({ ...older, tokens: null, turns: null, model: null })).toBe(true);
  });
});

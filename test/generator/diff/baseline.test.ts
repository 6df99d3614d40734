/**
 * The committed baseline (schema/baseline/): the seed-edition schema against
 * itself is no change; `npm run diff:baseline`'s own arguments pass; and the
 * seven client-side narrowings of the October 2026 edition, applied to the
 * baseline the way schema/openapi.yaml states them, come out breaks-clients,
 * its new task-plan step statuses and the corrected run snapshot
 * breaks-readers, and these are exactly what accepted-changes.json accepts,
 * while its additions come out additive.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { diffDocuments } from "../../../generator/diff/diff-documents.js";
import { cli, REPO } from "../support.js";
import { applyPatch, type PatchOperation } from "./json-patch.js";

const BASELINE = "schema/baseline/2026-09.yaml";
const S = "/components/schemas";

const UNUSED_WARNING =
  /^warning: accepted change not found \(remove it from the list, or fix its pointer\): breaks-(clients|readers) \S+ \/\S*$/;

/** The October narrowings of what a client sends (agent-runs-protocol.md §4.0.1, §4.1, §4.3), as schema/openapi.yaml states them. */
const OCTOBER_NARROWINGS: PatchOperation[] = [
  { op: "add", path: `${S}/Messages/maxItems`, value: 200 },
  { op: "add", path: `${S}/Message/properties/content/maxLength`, value: 200000 },
  { op: "add", path: `${S}/Messages/x-property-only-on-last-role`, value: { property: "attachments", role: "user" } },
  { op: "add", path: `${S}/RunCreateRequest/if`, value: { not: { required: ["agentId"] } } },
  {
    op: "add",
    path: `${S}/RunCreateRequest/then`,
    value: { anyOf: [{ required: ["systemPrompt"] }, { required: ["messages"] }] },
  },
  {
    op: "add",
    path: `${S}/AttachmentMimeType`,
    value: {
      anyOf: [
        { type: "string", enum: ["audio/mpeg", "image/png", "application/pdf"] },
        { type: "string", pattern: "^text/" },
      ],
    },
  },
  {
    op: "replace",
    path: `${S}/InputFileAttachment/properties/mimeType`,
    value: { $ref: "#/components/schemas/AttachmentMimeType" },
  },
  {
    op: "replace",
    path: `${S}/InputFileUrlAttachment/properties/mimeType`,
    value: { $ref: "#/components/schemas/AttachmentMimeType" },
  },
  { op: "add", path: `${S}/InputFileAttachment/required/2`, value: "filename" },
  { op: "add", path: `${S}/McpLocalToolRef/if`, value: { required: ["serverInfo"] } },
  { op: "add", path: `${S}/McpLocalToolRef/then`, value: { properties: { serverInfo: { required: ["name"] } } } },
  // "malformed base64 … 400": one component checked by x-base64 instead of the seed's pattern.
  {
    op: "add",
    path: `${S}/Base64Data`,
    value: { type: "string", contentEncoding: "base64", "x-base64": { alphabet: "standard", padding: "optional" } },
  },
  {
    op: "replace",
    path: `${S}/InputFileAttachment/properties/data`,
    value: { $ref: "#/components/schemas/Base64Data" },
  },
  { op: "replace", path: `${S}/ToolResultFile/properties/data`, value: { $ref: "#/components/schemas/Base64Data" } },
];

/** The seed schema's run snapshot required the cost keys that servers older than MANTYX 2026-09 leave out (agent-runs-protocol.md §7.1): now required at the strict level only. */
const SNAPSHOT_COST_KEYS: PatchOperation[] = [
  { op: "replace", path: `${S}/RunSnapshot/required`, value: ["status"] },
  {
    op: "add",
    path: `${S}/RunSnapshot/allOf`,
    value: [{ "x-strict-only": true, required: ["tokens", "turns", "model"] }],
  },
];

/** A local tool call of a kind the schema does not know is delivered (kinds are additive, as event types are): a seed-edition reader rejects it. */
const OPEN_TOOL_CALL_KINDS: PatchOperation[] = [
  {
    op: "add",
    path: `${S}/LocalToolCallOther`,
    value: {
      type: "object",
      required: ["toolUseId", "name", "kind"],
      properties: {
        toolUseId: { type: "string" },
        name: { type: "string" },
        kind: { type: "string", not: { enum: ["local", "a2a_local", "mcp_local"] } },
      },
    },
  },
  { op: "add", path: `${S}/LocalToolCallData/oneOf/-`, value: { $ref: "#/components/schemas/LocalToolCallOther" } },
];

/**
 * What the official SDKs' servers send and the SDKs read (docs/schema-decisions.md): an a2a_local call without
 * its Agent Card, a result with neither ok nor subtype (both rules strict-only now, reported when read), and the
 * receive level's documented defaults for token buckets and an error's code (x-receive-default: info, the
 * strict level unchanged).
 */
const OFFICIAL_SDK_TOLERANCES: PatchOperation[] = [
  { op: "replace", path: `${S}/LocalToolCallA2a/required`, value: ["toolUseId", "name", "args", "kind"] },
  {
    op: "add",
    path: `${S}/LocalToolCallA2a/allOf`,
    value: [{ "x-strict-only": { section: "wire-protocol.md §4.3.2" }, required: ["agentCard"] }],
  },
  { op: "remove", path: `${S}/ResultData/anyOf` },
  {
    op: "add",
    path: `${S}/ResultData/allOf`,
    value: [
      {
        "x-strict-only": { section: "wire-protocol.md §4.8" },
        anyOf: [{ required: ["ok"] }, { required: ["subtype"] }],
      },
    ],
  },
  {
    op: "add",
    path: `${S}/Tokens/x-receive-default`,
    value: { section: "wire-protocol.md §4.8.1", members: { reasoningTokens: { default: 0 } } },
  },
  {
    op: "add",
    path: `${S}/ErrorEventData/x-receive-default`,
    value: { section: "wire-protocol.md §4.8", members: { code: { from: "errorClass", default: "error" } } },
  },
];

/** The one October change a seed-edition reader meets: new task-plan step statuses (agent-runs-protocol.md §7), an additive list now. */
const OCTOBER_STEP_STATUSES: PatchOperation[] = [
  {
    op: "replace",
    path: `${S}/TaskPlanStep/properties/status`,
    value: { type: "string", "x-known-values": ["pending", "in_progress", "done", "blocked", "skipped"] },
  },
];

function baseline(): Record<string, unknown> {
  return parse(readFileSync(path.join(REPO, BASELINE), "utf8")) as Record<string, unknown>;
}

function accepted(): Array<{ pointer: string; direction: string; kind?: string }> {
  return JSON.parse(readFileSync(path.join(REPO, "schema/baseline/accepted-changes.json"), "utf8")).accepted;
}

describe("the committed baseline", () => {
  test("is the seed edition (protocol 2026-09), and against itself is no change", async () => {
    expect(baseline().info).toMatchObject({ "x-protocol-version": "2026-09" });
    const run = await cli(["diff", BASELINE, BASELINE, "--format", "json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).changes).toEqual([]);
  });

  test("npm run diff:baseline (its own arguments: schema/openapi.yaml and the accepted changes) passes; the only warnings are accepted changes not (yet) found", async () => {
    const script: string = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).scripts["diff:baseline"];
    const [, , ...args] = script.split(" ");
    expect(args).toEqual([
      "diff",
      BASELINE,
      "schema/openapi.yaml",
      "--accept",
      "schema/baseline/accepted-changes.json",
    ]);
    const run = await cli(args);
    expect(run.code).toBe(0);
    for (const line of run.stderr.split("\n").filter(Boolean)) expect(line).toMatch(UNUSED_WARNING);
  });

  test("the October narrowings of what a client sends break clients, its new step statuses and the snapshot correction and open tool-call kinds and the official SDKs' tolerances break readers, each one accepted, and nothing else breaks", () => {
    const rows = diffDocuments(
      baseline(),
      applyPatch(baseline(), [
        ...OCTOBER_NARROWINGS,
        ...OCTOBER_STEP_STATUSES,
        ...SNAPSHOT_COST_KEYS,
        ...OPEN_TOOL_CALL_KINDS,
        ...OFFICIAL_SDK_TOLERANCES,
      ]),
    )
      .filter((change) => change.direction === "breaks-clients" || change.direction === "breaks-readers")
      .map(({ pointer, direction, kind }) => ({ pointer, direction, kind }));
    // An entry without a kind accepts any kind at its pointer.
    const expected = accepted().map(({ pointer, direction, kind }) => ({
      pointer,
      direction,
      kind: kind ?? rows.find((row) => row.pointer === pointer)?.kind,
    }));
    const sortByPointer = <T extends { pointer: string }>(list: T[]): T[] =>
      [...list].sort((a, b) => (a.pointer < b.pointer ? -1 : 1));
    expect(sortByPointer(rows)).toEqual(sortByPointer(expected));
    expect(rows.find((row) => row.pointer.includes("TaskPlanStep"))).toEqual({
      pointer: `${S}/TaskPlanStep/properties/status/enum`,
      direction: "breaks-readers",
      kind: "enum-removed",
    });
  });

  test("October additions are additive: a new optional request field, a new known errorClass, a new event type", () => {
    const eventTypes = `${S}/AgentRunEvent/if/properties/type/enum`;
    const next = applyPatch(baseline(), [
      {
        op: "add",
        path: `${S}/AgentSpec/properties/fallbackModelId`,
        value: { $ref: "#/components/schemas/ModelSelector" },
      },
      { op: "add", path: `${S}/ErrorClass/x-known-values/-`, value: "structured_output" },
      {
        op: "add",
        path: `${S}/ToolFilesEvent`,
        value: {
          type: "object",
          required: ["seq", "type", "data"],
          properties: {
            seq: { $ref: "#/components/schemas/EventSeq" },
            type: { const: "tool_files" },
            data: { type: "object" },
          },
        },
      },
      { op: "add", path: `${S}/KnownAgentRunEvent/oneOf/-`, value: { $ref: "#/components/schemas/ToolFilesEvent" } },
      {
        op: "add",
        path: `${S}/KnownAgentRunEvent/discriminator/mapping/tool_files`,
        value: "#/components/schemas/ToolFilesEvent",
      },
      { op: "add", path: `${eventTypes}/-`, value: "tool_files" },
      { op: "add", path: `${S}/UnknownAgentRunEvent/properties/type/not/enum/-`, value: "tool_files" },
    ]);
    expect(diffDocuments(baseline(), next).map(({ direction, kind, pointer }) => [direction, kind, pointer])).toEqual([
      ["additive", "property-added", `${S}/AgentSpec/properties/fallbackModelId`],
      ["additive", "known-value-added", `${S}/ErrorClass/x-known-values`],
      ["additive", "variant-added", `${S}/KnownAgentRunEvent/oneOf/16`],
    ]);
  });
});

/**
 * Coverage: every route, event type and tool kind the two documents name is
 * in the schema. The lists below are written from the documents; when the
 * documents are checked out beside the repository (../shared/spec), they are
 * also scanned so a name added to the documents fails this test.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { document, repoRoot } from "./live-ajv.js";

const BASE = "/api/v1/workspaces/{workspaceSlug}";
const ROUTES: Array<[method: string, path: string, scope: string]> = [
  ["get", `${BASE}/models`, "models:read"],
  ["post", `${BASE}/agent-runs`, "runs:write"],
  ["get", `${BASE}/agent-runs/{runId}`, "runs:read"],
  ["get", `${BASE}/agent-runs/{runId}/stream`, "runs:read"],
  ["post", `${BASE}/agent-runs/{runId}/cancel`, "runs:write"],
  ["post", `${BASE}/agent-runs/{runId}/tool-results`, "runs:write"],
  ["post", `${BASE}/agent-sessions`, "sessions:write"],
  ["get", `${BASE}/agent-sessions/{sessionId}`, "sessions:read"],
  ["delete", `${BASE}/agent-sessions/{sessionId}`, "sessions:write"],
  ["post", `${BASE}/agent-sessions/{sessionId}/messages`, "sessions:write"],
  ["get", "/api/oauth/userinfo", "mantyx.identity:read"],
];
const EVENT_TYPES = [
  "assistant_delta", "thinking_delta", "tool_result", "local_tool_call", "local_tool_result_in",
  "loop_detected", "tool_budget_exceeded", "supervisor", "task_plan", "assistant_message",
  "result", "error", "cancelled",
  // older shapes (http-surface.md) and session replay frames (wire-protocol.md §2.1.1)
  "started", "tool_call", "user_message",
];
const TERMINAL = ["result", "error", "cancelled"];
const TOOL_KINDS = ["mantyx", "mantyx_plugin", "local", "a2a", "a2a_local", "mcp", "mcp_local"];

const specDir = `${repoRoot}../shared/spec`;
const haveDocs = existsSync(`${specDir}/wire-protocol.md`) && existsSync(`${specDir}/http-surface.md`);
const wire = haveDocs ? readFileSync(`${specDir}/wire-protocol.md`, "utf8") : "";
const surface = haveDocs ? readFileSync(`${specDir}/http-surface.md`, "utf8") : "";

const schemas = document.components.schemas;
const knownEventMapping: Record<string, string> = schemas.KnownAgentRunEvent.discriminator.mapping;
const toolKindMapping: Record<string, string> = schemas.ToolRef.discriminator.mapping;

describe("coverage of the documents", () => {
  for (const [method, path, scope] of ROUTES) {
    it(`route ${method.toUpperCase()} ${path} exists with an operationId and scope ${scope}`, () => {
      const op = document.paths[path]?.[method];
      expect(op, "route missing").toBeDefined();
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op["x-required-scopes"]).toEqual([scope]);
      expect(op.security).toEqual([{ bearerAuth: [scope] }, { apiKeyHeader: [scope] }]);
    });
  }

  it("the schema has no route the documents do not name", () => {
    const declared = Object.entries<any>(document.paths).flatMap(([p, item]) => Object.keys(item).filter((m) => m !== "parameters").map((m) => `${m} ${p}`));
    expect(declared.sort()).toEqual(ROUTES.map(([m, p]) => `${m} ${p}`).sort());
  });

  it("both vintages of disputed statuses are declared", () => {
    expect(Object.keys(document.paths[`${BASE}/agent-runs`].post.responses)).toEqual(expect.arrayContaining(["201", "202"]));
    expect(Object.keys(document.paths[`${BASE}/agent-runs/{runId}/tool-results`].post.responses)).toEqual(expect.arrayContaining(["200", "204", "404", "409"]));
  });

  it("stream route takes lastSeq and Last-Event-ID and names the event union", () => {
    const op = document.paths[`${BASE}/agent-runs/{runId}/stream`].get;
    expect(op.parameters.map((p: any) => `${p.in}:${p.name}`).sort()).toEqual(["header:Last-Event-ID", "query:lastSeq"]);
    expect(op.responses["200"].content["text/event-stream"]["x-item-schema"]).toEqual({ $ref: "#/components/schemas/AgentRunEvent" });
  });

  it("both credential forms are security schemes", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.securitySchemes.apiKeyHeader).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
  });

  it.each(EVENT_TYPES)("event type %s has a variant in KnownAgentRunEvent", (type) => {
    const ref = knownEventMapping[type];
    expect(ref).toBeDefined();
    const name = ref!.split("/").pop()!;
    expect(schemas[name].properties.type.const).toBe(type);
    expect(schemas.KnownAgentRunEvent.oneOf).toContainEqual({ $ref: ref });
  });

  it("the known-type lists of the open variant and the union agree with the mapping", () => {
    const mapped = Object.keys(knownEventMapping).sort();
    expect(mapped).toEqual([...EVENT_TYPES].sort());
    expect([...schemas.UnknownAgentRunEvent.properties.type.not.enum].sort()).toEqual(mapped);
    expect([...schemas.AgentRunEvent.if.properties.type.enum].sort()).toEqual(mapped);
  });

  it("terminal events are marked x-terminal, and only they", () => {
    const terminal = Object.entries(knownEventMapping).filter(([, ref]) => schemas[ref.split("/").pop()!]["x-terminal"] === true).map(([t]) => t);
    expect(terminal.sort()).toEqual([...TERMINAL].sort());
  });

  it.each(TOOL_KINDS)("tool kind %s has a ToolRef variant", (kind) => {
    const ref = toolKindMapping[kind];
    expect(ref).toBeDefined();
    expect(schemas[ref!.split("/").pop()!].properties.kind.const).toBe(kind);
  });

  it("local_tool_call carries its three kind-specific shapes", () => {
    expect(schemas.LocalToolCallData.oneOf.map((r: any) => r.$ref.split("/").pop())).toEqual(["LocalToolCallLocal", "LocalToolCallA2a", "LocalToolCallMcp"]);
  });

  describe.skipIf(!haveDocs)("scanned from ../shared/spec", () => {
    it("every event type in wire-protocol.md's vocabulary table is covered", () => {
      const rows = [...wire.matchAll(/^\| `([a-z_]+)`\s+\| M → SDK/gm)].map((m) => m[1]!);
      expect(rows.length).toBeGreaterThanOrEqual(13);
      expect(EVENT_TYPES).toEqual(expect.arrayContaining(rows));
    });
    it("every older event shape in http-surface.md is covered", () => {
      const older = [...surface.matchAll(/^\s+- (?:terminal )?`([a-z_]+)` with/gm)].map((m) => m[1]!);
      expect(older.length).toBeGreaterThanOrEqual(5);
      expect(EVENT_TYPES).toEqual(expect.arrayContaining(older));
    });
    it("every tool kind in wire-protocol.md's taxonomy table is covered", () => {
      const kinds = [...wire.matchAll(/^\| `([a-z_0-9]+)`\s+\| (?:server|client)\s+\|/gm)].map((m) => m[1]!);
      expect(kinds.sort()).toEqual([...TOOL_KINDS].sort());
    });
    it("every route in http-surface.md's scope table is covered with its scope", () => {
      const rows = [...surface.matchAll(/^\| `(GET|POST|DELETE) ([^`]+)` \| `([^`]+)` \|/gm)].map((m) => [m[1]!.toLowerCase(), m[2]!.replace(/^\.\.\./, BASE).replace(/\{(\w+)\}/g, "{$1}"), m[3]!]);
      expect(rows.length).toBe(ROUTES.length);
      expect(rows.map((r) => r.join(" ")).sort()).toEqual(ROUTES.map((r) => r.join(" ")).sort());
    });
  });
});

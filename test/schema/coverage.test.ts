/**
 * Coverage: every route, scope, event type, tool kind and error code the
 * documents name is in the schema: the seed edition (wire-protocol.md), the
 * older companion (http-surface.md) and the October 2026 editions
 * (2026-10/agent-runs-protocol.md, 2026-10/wire-protocol.md). The lists
 * below are written from the documents; when the documents are checked out
 * beside the repository (../shared/spec), they are also scanned so a name
 * added to the documents fails this test.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { document, repoRoot } from "./live-ajv.js";

const BASE = "/api/v1/workspaces/{workspaceSlug}";
const ROUTES: Array<[method: string, path: string, scope: string]> = [
  ["get", `${BASE}/models`, "models:read"],
  ["post", `${BASE}/agent-runs`, "runs:write"],
  ["get", `${BASE}/agent-runs`, "runs:read"],
  ["get", `${BASE}/agent-runs/{runId}`, "runs:read"],
  ["get", `${BASE}/agent-runs/{runId}/stream`, "runs:read"],
  ["post", `${BASE}/agent-runs/{runId}/cancel`, "runs:write"],
  ["post", `${BASE}/agent-runs/{runId}/tool-results`, "runs:write"],
  ["post", `${BASE}/agent-runs/{runId}/feedback`, "feedback:write"],
  ["post", `${BASE}/agent-sessions`, "sessions:write"],
  ["get", `${BASE}/agent-sessions`, "sessions:read"],
  ["get", `${BASE}/agent-sessions/{sessionId}`, "sessions:read"],
  ["get", `${BASE}/agent-sessions/{sessionId}/events`, "sessions:read"],
  ["delete", `${BASE}/agent-sessions/{sessionId}`, "sessions:write"],
  ["post", `${BASE}/agent-sessions/{sessionId}/messages`, "sessions:write"],
  ["get", "/api/oauth/userinfo", "mantyx.identity:read"],
];
/** Written from the documents, not read from the schema: the schema is what this list checks. */
const EVENT_TYPES = [
  "assistant_delta",
  "thinking_delta",
  "tool_result",
  "local_tool_call",
  "local_tool_result_in",
  "loop_detected",
  "tool_budget_exceeded",
  "supervisor",
  "task_plan",
  "assistant_message",
  "result",
  "error",
  "cancelled",
  // older shapes (http-surface.md) and session replay frames (wire-protocol.md §2.1.1)
  "started",
  "tool_call",
  "user_message",
  // October 2026: wire-protocol.md §4.2.1, agent-runs-protocol.md §4.0.2
  "tool_files",
  "model_fallback",
];
/** Replay-only frame types (agent-runs-protocol.md §6.2): frames of `SessionReplayFrame`, not stream events. */
const REPLAY_ONLY = ["message"];
/** The machine codes of agent-runs-protocol.md §10 and the older companion, with their status. */
const ERROR_CODES: Array<[code: string, status: string]> = [
  ["unauthorized", "401"],
  ["not_found", "404"],
  ["invalid_request", "400"],
  ["invalid_model", "400"],
  ["unknown_tool_use", "404"],
  ["run_terminal", "409"],
  ["rate_limit_exceeded", "429"],
  ["rate_limited", "429"],
];
const LIST_ROUTES: Array<[path: string, items: string]> = [
  [`${BASE}/agent-runs`, "runs"],
  [`${BASE}/agent-sessions`, "sessions"],
  [`${BASE}/agent-sessions/{sessionId}/events`, "events"],
];
const TERMINAL = ["result", "error", "cancelled"];
const TOOL_KINDS = ["mantyx", "mantyx_plugin", "local", "a2a", "a2a_local", "mcp", "mcp_local"];

const specDir = `${repoRoot}../shared/spec`;
const october = `${specDir}/2026-10`;
const haveDocs = [
  `${specDir}/wire-protocol.md`,
  `${specDir}/http-surface.md`,
  `${october}/wire-protocol.md`,
  `${october}/agent-runs-protocol.md`,
].every((f) => existsSync(f));
const read = (file: string): string => (haveDocs ? readFileSync(file, "utf8") : "");
const wire = read(`${specDir}/wire-protocol.md`);
const surface = read(`${specDir}/http-surface.md`);
const wireOctober = read(`${october}/wire-protocol.md`);
const agentRuns = read(`${october}/agent-runs-protocol.md`);

const schemas = document.components.schemas;
/** What the walks over every route read of a path item's operations (its `parameters`, beside them, are skipped). */
interface Operation {
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
  "x-required-scopes"?: string[];
}
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
    const declared = Object.entries<Record<string, unknown>>(document.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => m !== "parameters")
        .map((m) => `${m} ${p}`),
    );
    expect(declared.sort()).toEqual(ROUTES.map(([m, p]) => `${m} ${p}`).sort());
  });

  it("both vintages of disputed statuses are declared", () => {
    expect(Object.keys(document.paths[`${BASE}/agent-runs`].post.responses)).toEqual(
      expect.arrayContaining(["201", "202"]),
    );
    expect(Object.keys(document.paths[`${BASE}/agent-runs/{runId}/feedback`].post.responses)).toEqual(
      expect.arrayContaining(["200", "201", "404"]),
    );
    expect(Object.keys(document.paths[`${BASE}/agent-runs/{runId}/tool-results`].post.responses)).toEqual(
      expect.arrayContaining(["200", "204", "404", "409"]),
    );
  });

  it("stream route takes lastSeq and Last-Event-ID and names the event union", () => {
    const op = document.paths[`${BASE}/agent-runs/{runId}/stream`].get;
    expect(op.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`).sort()).toEqual([
      "header:Last-Event-ID",
      "query:lastSeq",
    ]);
    expect(op.responses["200"].content["text/event-stream"]["x-item-schema"]).toEqual({
      $ref: "#/components/schemas/AgentRunEvent",
    });
  });

  it("the schema and the fixture suite's manifest name the October 2026 protocol edition", () => {
    expect(document.info["x-protocol-version"]).toBe("2026-10");
    const manifest = JSON.parse(readFileSync(`${repoRoot}generated/fixtures/manifest.json`, "utf8"));
    expect(manifest.protocolVersion).toBe("2026-10");
  });

  it("both credential forms are security schemes", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.securitySchemes.apiKeyHeader).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
    });
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
    const terminal = Object.entries(knownEventMapping)
      .filter(([, ref]) => schemas[ref.split("/").pop()!]["x-terminal"] === true)
      .map(([t]) => t);
    expect(terminal.sort()).toEqual([...TERMINAL].sort());
  });

  it.each(LIST_ROUTES)("list route %s is marked for cursor pagination", (path, items) => {
    const op = document.paths[path].get;
    const pagination = op["x-pagination"];
    expect(pagination.items).toBe(items);
    expect(
      op.parameters.map(
        (p: { $ref?: string; name: string }) =>
          (p.$ref ? document.components.parameters[p.$ref.split("/").pop()!] : p).name,
      ),
    ).toContain(pagination.cursorParam);
    const body = schemas[op.responses["200"].content["application/json"].schema.$ref.split("/").pop()];
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining([pagination.nextCursor, items]));
  });

  it.each(ERROR_CODES)("error code %s (%s) is a known ErrorBody code", (code) => {
    expect([
      ...schemas.ErrorBody.properties.error["x-known-values"],
      ...schemas.ErrorBody.properties.code["x-known-values"],
    ]).toContain(code);
  });

  it("a rate-limited answer carries Retry-After and the X-RateLimit-* headers, and every workspace route answers them", () => {
    const rateHeaders = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Bucket"];
    expect(Object.keys(document.components.responses.RateLimited.headers).sort()).toEqual(
      ["Retry-After", ...rateHeaders].sort(),
    );
    const missing: string[] = [];
    for (const [path, item] of Object.entries<Record<string, Operation>>(document.paths)) {
      if (!path.startsWith(BASE)) continue;
      for (const [method, op] of Object.entries(item)) {
        if (method === "parameters") continue;
        for (const [status, r] of Object.entries(op.responses)) {
          const response = r.$ref ? document.components.responses[r.$ref.split("/").pop()!] : r;
          for (const h of rateHeaders) if (!response.headers?.[h]) missing.push(`${method} ${path} ${status} ${h}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it.each(TOOL_KINDS)("tool kind %s has a ToolRef variant", (kind) => {
    const ref = toolKindMapping[kind];
    expect(ref).toBeDefined();
    expect(schemas[ref!.split("/").pop()!].properties.kind.const).toBe(kind);
  });

  it("local_tool_call carries its three kind-specific shapes, and the open one of a newer server's kind", () => {
    expect(schemas.LocalToolCallData.oneOf.map((r: { $ref: string }) => r.$ref.split("/").pop())).toEqual([
      "LocalToolCallLocal",
      "LocalToolCallA2a",
      "LocalToolCallMcp",
      "LocalToolCallOther",
    ]);
    expect(schemas.LocalToolCallOther.properties.kind.not.enum).toEqual(["local", "a2a_local", "mcp_local"]);
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
    it("every event type of the October 2026 vocabulary table, examples and prose is covered", () => {
      const rows = [...wireOctober.matchAll(/^\| `([a-z_]+)`\s+\| M → SDK/gm)].map((m) => m[1]!);
      expect(rows).toContain("tool_files");
      const examples = [...`${wireOctober}\n${agentRuns}`.matchAll(/"seq": \d+,\s*"type": "([a-z_]+)"/g)].map(
        (m) => m[1]!,
      );
      expect(examples.length).toBeGreaterThanOrEqual(20);
      const prose = [...agentRuns.matchAll(/`([a-z_]+)` SSE event/g)].map((m) => m[1]!);
      expect(prose).toContain("model_fallback");
      const named = [...new Set([...rows, ...examples, ...prose])];
      expect([...EVENT_TYPES, ...REPLAY_ONLY]).toEqual(expect.arrayContaining(named));
      expect(schemas.SessionReplayFrame.properties.type["x-known-values"]).toEqual(expect.arrayContaining(REPLAY_ONLY));
    });
    it("every route of agent-runs-protocol.md's scope table (October 2026) is covered with its scope", () => {
      const rows = [...agentRuns.matchAll(/^\s*\| `(GET|POST|DELETE)\s+([^`]+)`\s*\| `([^`]+)`\s*\|/gm)].map((m) => [
        m[1]!.toLowerCase(),
        m[2]!.trim().replace(/^\.\.\./, BASE),
        m[3]!,
      ]);
      expect(rows.length).toBe(ROUTES.length);
      expect(rows.map((r) => r.join(" ")).sort()).toEqual(ROUTES.map((r) => r.join(" ")).sort());
    });
    it("every route in agent-runs-protocol.md's route lists (§5, §6) is declared", () => {
      const listed = [...agentRuns.matchAll(/^(GET|POST|DELETE)\s+\/api\/v1\/workspaces\/\{slug\}(\S*)$/gm)].map(
        (m) => `${m[1]!.toLowerCase()} ${BASE}${m[2]!}`,
      );
      expect(listed.length).toBeGreaterThanOrEqual(13);
      const declared = Object.entries<Record<string, unknown>>(document.paths).flatMap(([p, item]) =>
        Object.keys(item)
          .filter((m) => m !== "parameters")
          .map((m) => `${m} ${p}`),
      );
      expect(declared).toEqual(expect.arrayContaining(listed));
    });
    it("every scope the October 2026 documents name is required by some route", () => {
      const named = new Set([...agentRuns.matchAll(/\| `([a-z.]+:(?:read|write))`/g)].map((m) => m[1]!));
      const used = new Set(
        Object.values<Record<string, Operation>>(document.paths).flatMap((item) =>
          Object.entries(item)
            .filter(([m]) => m !== "parameters")
            .flatMap(([, op]) => op["x-required-scopes"]),
        ),
      );
      expect([...named].filter((s) => !used.has(s))).toEqual([]);
    });
    it("every error code of agent-runs-protocol.md §10 is covered with its status", () => {
      const table = agentRuns.slice(agentRuns.indexOf("Common codes:"));
      const rows = [...table.matchAll(/^\| `([a-z_]+)`\s*\|\s*(\d{3}) \|/gm)].map((m) => [m[1]!, m[2]!]);
      expect(rows.length).toBeGreaterThanOrEqual(7);
      expect(ERROR_CODES).toEqual(expect.arrayContaining(rows));
    });
    it("every route in http-surface.md's scope table is covered with its scope", () => {
      const rows = [...surface.matchAll(/^\| `(GET|POST|DELETE) ([^`]+)` \| `([^`]+)` \|/gm)].map((m) => [
        m[1]!.toLowerCase(),
        m[2]!.replace(/^\.\.\./, BASE).replace(/\{(\w+)\}/g, "{$1}"),
        m[3]!,
      ]);
      expect(rows.length).toBe(11);
      expect(ROUTES.map((r) => r.join(" "))).toEqual(expect.arrayContaining(rows.map((r) => r.join(" "))));
    });
  });
});

/**
 * The October 2026 routes through the generated client, over real HTTP on
 * 127.0.0.1: the list routes send their query parameters from the
 * method's `{ query }` argument (arrays repeat the parameter, `undefined`
 * is left out),
 * and the feedback route posts its validated body. The answers are the
 * documents' own examples, checked by the generated validators.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { validateRunListResponse } from "../../generated/validators/run-list-response.js";
import { validateSessionEventsResponse } from "../../generated/validators/session-events-response.js";
import { validateSessionListResponse } from "../../generated/validators/session-list-response.js";
import { RequestValidationError } from "../../runtime/client/index.js";

const runsPage = {
  total: null,
  limit: 20,
  nextCursor: "eyJj",
  runs: [
    {
      id: "run_abc",
      sessionId: null,
      status: "succeeded",
      modelId: "platform:demo",
      createdAt: "2029-01-05T13:00:00.000Z",
    },
  ],
};
const sessionsPage = {
  total: 1,
  limit: 20,
  offset: 0,
  nextCursor: null,
  sessions: [{ sessionId: "ses_abc", status: "active", metadata: { customer: "acme" } }],
};
const replayPage = {
  sessionId: "ses_abc",
  total: 4,
  events: [
    { seq: 3, type: "user_message", text: "three" },
    { seq: 4, type: "assistant_message", text: "four" },
  ],
  nextBeforeSeq: 3,
  truncated: true,
};

let http: Server;
let baseUrl: string;
const seen: Array<{ method: string; url: string; body: string }> = [];

function answer(req: IncomingMessage): [number, unknown] {
  const path = new URL(req.url!, "http://x").pathname;
  if (path === "/api/v1/workspaces/acme/agent-runs") return [200, runsPage];
  if (path === "/api/v1/workspaces/acme/agent-sessions") return [200, sessionsPage];
  if (path === "/api/v1/workspaces/acme/agent-sessions/ses_abc/events") return [200, replayPage];
  if (path === "/api/v1/workspaces/acme/agent-runs/run_abc/feedback")
    return [201, { id: "fb_1", verdict: "UP", targetKind: "agent_run", agentRunId: "run_abc" }];
  return [404, { error: "not_found" }];
}

beforeAll(async () => {
  http = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, body });
      const [status, json] = answer(req);
      res
        .writeHead(status, {
          "content-type": "application/json",
          "x-ratelimit-limit": "120",
          "x-ratelimit-remaining": "119",
        })
        .end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

const client = () => new MantyxClient({ baseUrl, workspace: "acme", apiKey: "mantyx_test_key" });
const lastUrl = () => new URL(seen[seen.length - 1]!.url, baseUrl);

describe("list routes take their query parameters from { query }", () => {
  it("listRuns: scalars once, metadata repeated per value, undefined left out, the page returned as sent", async () => {
    const page = await client().listRuns({
      query: {
        limit: 20,
        cursor: "eyJj",
        metadata: ["customer:acme", "env:prod"],
        status: "succeeded",
        includeTotal: "1",
        agentId: undefined,
      },
    });
    expect(page).toEqual(runsPage);
    expect(validateRunListResponse(page)).toBe(true);
    const url = lastUrl();
    expect(url.pathname).toBe("/api/v1/workspaces/acme/agent-runs");
    expect(url.searchParams.getAll("metadata")).toEqual(["customer:acme", "env:prod"]);
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => k !== "metadata"))).toEqual({
      limit: "20",
      cursor: "eyJj",
      status: "succeeded",
      includeTotal: "1",
    });
    expect(url.searchParams.has("agentId")).toBe(false);
  });

  it("listRuns without options sends no query string", async () => {
    await client().listRuns();
    expect(seen[seen.length - 1]!.url).toBe("/api/v1/workspaces/acme/agent-runs");
  });

  it("listSessions and listSessionEvents: the cursor parameters reach the server", async () => {
    const sessions = await client().listSessions({ query: { status: "active", offset: 0, includeTotal: "0" } });
    expect(validateSessionListResponse(sessions)).toBe(true);
    expect(Object.fromEntries(lastUrl().searchParams)).toEqual({ status: "active", offset: "0", includeTotal: "0" });
    const replay = await client().listSessionEvents("ses_abc", { query: { lastMessages: 2, beforeSeq: 5 } });
    expect(validateSessionEventsResponse(replay)).toBe(true);
    expect(replay.nextBeforeSeq).toBe(3);
    expect(lastUrl().pathname).toBe("/api/v1/workspaces/acme/agent-sessions/ses_abc/events");
    expect(Object.fromEntries(lastUrl().searchParams)).toEqual({ lastMessages: "2", beforeSeq: "5" });
  });
});

describe("submitRunFeedback", () => {
  it("posts the verdict and returns the recorded feedback", async () => {
    const fb = await client().submitRunFeedback("run_abc", { verdict: "UP", explanation: "Nailed it" });
    expect(fb).toEqual({ id: "fb_1", verdict: "UP", targetKind: "agent_run", agentRunId: "run_abc" });
    expect(seen[seen.length - 1]).toMatchObject({
      method: "POST",
      url: "/api/v1/workspaces/acme/agent-runs/run_abc/feedback",
    });
    expect(JSON.parse(seen[seen.length - 1]!.body)).toEqual({ verdict: "UP", explanation: "Nailed it" });
  });

  it("refuses a lower-case verdict before sending anything", async () => {
    const before = seen.length;
    const e = await client()
      .submitRunFeedback("run_abc", { verdict: "up" } as never)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RequestValidationError);
    expect((e as RequestValidationError).message).toContain("/verdict");
    expect(seen.length).toBe(before);
  });
});

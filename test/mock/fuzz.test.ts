/**
 * A bounded fuzz of the mock server (fast-check, seeded, 400 requests over
 * real HTTP): random methods, paths (route templates with random segments,
 * percent-encodings and bytes), headers (credentials or not, odd
 * content types and lengths) and bodies (random JSON, cut JSON, bytes).
 * The server never answers 500 and keeps serving: a normal request after
 * the run is answered as before.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";
import { auth, raw } from "./helpers.js";

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ maxBodyBytes: 64 * 1024, oauthTokens: { tok_read: ["runs:read"] } });
});
afterAll(() => server.close());

const segment = fc.oneof(
  fc.constantFrom(
    "acme",
    "run_1",
    "ses_1",
    "agent-runs",
    "agent-sessions",
    "stream",
    "cancel",
    "tool-results",
    "messages",
    "events",
    "feedback",
    "models",
    "%",
    "%ZZ",
    "%E0%A4%A",
    "%00",
    "..",
    "%2F",
  ),
  fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/),
);
const path = fc.oneof(
  fc.array(segment, { maxLength: 6 }).map((s) => `/api/v1/workspaces/${s.join("/")}`),
  fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join("/")}`),
  fc.constantFrom(
    "/api/oauth/userinfo",
    "/api/v1/workspaces/acme/agent-runs?limit=abc&cursor=%",
    "/api/v1/workspaces/acme/agent-runs/run_1/stream?lastSeq=-5",
    "/api/v1/workspaces/acme/agent-sessions/ses_1/events?beforeSeq=x&lastMessages=99999",
  ),
);
const headers = fc.record(
  {
    authorization: fc.constantFrom(
      "Bearer mantyx_test_key",
      "Bearer tok_read",
      "Bearer ",
      "Basic abc",
      "bearer mantyx_test_key",
    ),
    "x-api-key": fc.constantFrom("mantyx_test_key", "", "nope"),
    "content-type": fc.constantFrom("application/json", "text/plain", "application/json; charset=latin1", ""),
    "last-event-id": fc.constantFrom("3", "abc", "-1", "99999999999999999999"),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .record({
      systemPrompt: fc.string(),
      prompt: fc.string(),
      metadata: fc.dictionary(
        fc.constantFrom("scenario", "count", "rounds", "stepMs", "toolTimeoutMs", "args", "edition"),
        fc.string({ maxLength: 20 }),
      ),
    })
    .map((v) => JSON.stringify(v)),
  fc.string().map((s) => `{"prompt": ${s}`),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
);

describe("fuzz", () => {
  it("never answers 500 to 400 random requests and keeps serving", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"),
        path,
        headers,
        body,
        async (method, p, h, b) => {
          const answer = await raw(server.url, method, p, h as Record<string, string>, b).catch(
            (e: NodeJS.ErrnoException) => ({ status: -1, text: e.code ?? String(e) }),
          );
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(answer.status, `${method} ${p} -> ${answer.text}`).not.toBe(500);
          // A closed connection is an answer only for an early refusal of a body; no reset otherwise.
          expect(answer.status, `${method} ${p}: ${answer.text}`).toBeGreaterThan(0);
          // Streams of runs left open by the fuzz are not waited for: close them.
          for (const run of server.runs.values()) run.cancel();
        },
      ),
      { numRuns: 400, seed: 4242 },
    );
    // The fuzz reached past the credential check (not just 401s).
    expect([...statuses.keys()].some((s) => s === 400 || s === 404 || s === 200 || s === 202)).toBe(true);
    const after = await raw(server.url, "GET", "/api/v1/workspaces/acme/models", auth(server.apiKey));
    expect(after.status).toBe(200);
  }, 120_000);
});

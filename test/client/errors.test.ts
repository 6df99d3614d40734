/**
 * Every documented error status through real HTTP -> the right typed error,
 * and the credential never leaking into one.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import {
  candidatesOf,
  requiredScopesOf,
  isMantyxApiError,
  isMantyxConnectionError,
  isRequestValidationError,
  isUnexpectedResponseError,
  MantyxApiError,
  MantyxConnectionError,
  RequestValidationError,
  UnexpectedResponseError,
} from "../../index.js";
import { clientFor, useMockServer } from "./helpers.js";

const server = useMockServer({
  oauthTokens: { mantyx_at_readonly: ["runs:read"], mantyx_at_secret_scoped_token: ["runs:read"] },
});
const echoServer = useMockServer({
  echoCredential: true,
  oauthTokens: { mantyx_at_secret_scoped_token: ["runs:read"] },
});

async function failure(p: Promise<unknown>): Promise<MantyxApiError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(isMantyxApiError(e)).toBe(true);
  return e as MantyxApiError;
}

describe("error statuses", () => {
  it("400 invalid_model -> MantyxApiError with code and candidates", async () => {
    const e = await failure(
      clientFor(server()).createRun({ systemPrompt: "You are helpful.", prompt: "x", modelId: "bogus-9" }),
    );
    expect(e).toBeInstanceOf(MantyxApiError);
    expect(e.name).toBe("ApiError");
    expect(e).toMatchObject({ status: 400, code: "invalid_model", operationId: "createRun" });
    expect(candidatesOf(e)).toEqual(["platform:demo", "provider:cm6def456"]);
    expect(e.message).toContain("Unknown model bogus-9");
    expect(e.requestId).toMatch(/^req_/);
  });

  it("400 invalid_request from the server (client validation off) -> MantyxApiError", async () => {
    const client = clientFor(server(), { validation: "off" });
    const e = await failure(
      client.createRun({
        systemPrompt: "You are helpful.",
        prompt: "x",
        messages: [{ role: "user", content: "y" }],
      } as never),
    );
    expect(e).toMatchObject({ status: 400, code: "invalid_request" });
    expect(e.message).toContain("/prompt: must not be present");
  });

  it("401 without a credential ({ error: 'Unauthorized', message }) -> status 401, code unauthorized", async () => {
    const e = await failure(clientFor(server(), { apiKey: undefined }).listModels());
    expect(e).toMatchObject({ status: 401, code: "unauthorized" });
    expect(e.message).toContain("Missing Authorization or X-API-Key header");
  });

  it("401 with an unknown credential ({ error: <sentence> }) -> code unauthorized, the sentence in the message", async () => {
    const e = await failure(clientFor(server(), { apiKey: "mantyx_wrong" }).listModels());
    expect(e).toMatchObject({ status: 401, code: "unauthorized" });
    expect(e.message).toContain("Invalid API key or OAuth access token");
  });

  it("403 insufficient_scope -> requiredScopes from the body and WWW-Authenticate", async () => {
    const e = await failure(
      clientFor(server(), { apiKey: "mantyx_at_readonly" }).createRun({
        systemPrompt: "You are helpful.",
        prompt: "x",
      }),
    );
    expect(e).toMatchObject({ status: 403, code: "insufficient_scope" });
    expect(requiredScopesOf(e)).toEqual(["runs:write"]);
    expect(e.message).toContain("runs:write");
  });

  it("404 for a wrong workspace slug -> the right slug in hint", async () => {
    const e = await failure(clientFor(server(), { workspace: "wrong" }).listModels());
    expect(e).toMatchObject({ status: 404, code: "not_found", hint: "acme" });
    expect(e.message).toContain("(hint: acme)");
  });

  it("429 is retried with back-off, honouring Retry-After, then succeeds", async () => {
    server().rateLimitNext(2, 0);
    const before = server().requests.length;
    const created = await clientFor(server()).createRun({ systemPrompt: "You are helpful.", prompt: "x" });
    expect(created.runId).toMatch(/^run_/);
    expect(server().requests.length - before).toBe(3);
  });

  it("429 beyond maxRetries -> status 429 with retryAfterMs", async () => {
    server().rateLimitNext(5, 7);
    const before = server().requests.length;
    const e = await failure(clientFor(server(), { maxRetries: 0 }).listModels());
    server().rateLimitNext(0);
    expect(server().requests.length - before).toBe(1);
    expect(e).toMatchObject({ status: 429, code: "rate_limited", retryAfterMs: 7000 });
  });

  it("a network failure -> MantyxConnectionError (idempotent calls retried first)", async () => {
    const client = new MantyxClient({
      baseUrl: "http://127.0.0.1:1",
      workspace: "acme",
      apiKey: "k",
      retryDelay: { initialDelayMs: 1 },
    });
    const e = await client.listModels().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MantyxConnectionError);
    expect((e as MantyxConnectionError).attempts).toBe(3);
  });

  it("a body without a code gets the code of its status family", () => {
    const make = (status: number) => new MantyxApiError("op", status, {}, new Headers());
    expect([400, 401, 403, 404, 409, 429, 500, 503, 418].map((s) => make(s).code)).toEqual([
      "invalid_request",
      "unauthorized",
      "forbidden",
      "not_found",
      "conflict",
      "rate_limited",
      "server_error",
      "server_error",
      "http_error",
    ]);
  });

  it.each([
    ["delta-seconds", "3", 3000],
    ["an HTTP date in the past", "Wed, 21 Oct 2015 07:28:00 GMT", 0],
    ["garbage", "soon", 0],
  ])("retryAfterMs from Retry-After: %s", (_name, header, want) => {
    expect(new MantyxApiError("op", 429, {}, new Headers({ "retry-after": header })).retryAfterMs).toBe(want);
  });

  it.each([
    [
      "required as an array",
      { error: "insufficient_scope", required: ["runs:read", "runs:write"] },
      null,
      ["runs:read", "runs:write"],
    ],
    [
      "required as a string plus the header",
      { error: "insufficient_scope", required: "runs:write" },
      'Bearer error="insufficient_scope", scope="runs:write sessions:read"',
      ["runs:write", "sessions:read"],
    ],
    [
      "only the header",
      { error: "Forbidden" },
      'Bearer realm="mantyx", error="insufficient_scope", scope="models:read"',
      ["models:read"],
    ],
  ])("requiredScopes: %s", (_name, body, header, want) => {
    const headers = new Headers(header === null ? {} : { "www-authenticate": header });
    expect(requiredScopesOf(new MantyxApiError("op", 403, body, headers))).toEqual(want);
  });

  it.each([
    ["machine code in error", { error: "run_terminal" }, "run_terminal"],
    [
      "sentence in error, code beside it",
      { error: "API keys are not available on this plan", code: "api_keys_plan" },
      "api_keys_plan",
    ],
    ["sentence only", { error: "Workspace not found", hint: "acme" }, "not_found"],
    ["not JSON", "<html>Bad gateway</html>", "not_found"],
  ])("code: %s", (_name, body, want) => {
    expect(new MantyxApiError("op", 404, body, new Headers()).code).toBe(want);
  });
});

describe("errors that are not HTTP statuses", () => {
  it('a server that cannot be reached: MantyxConnectionError naming the reason, not just "fetch failed"', async () => {
    // A port nothing listens on (taken, then released).
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new MantyxClient({
      baseUrl: `http://127.0.0.1:${port}`,
      workspace: "acme",
      apiKey: "k",
      maxRetries: 0,
    });
    const e = await client.getRun("run_1").catch((x: unknown) => x);
    expect(isMantyxConnectionError(e)).toBe(true);
    expect((e as Error).message).toMatch(/^getRun: fetch failed \(.*ECONNREFUSED.*\)$/);
  });

  it("a baseUrl that is not a URL is refused when the client is made, not on the first call", () => {
    expect(() => new MantyxClient({ baseUrl: "not a url", workspace: "acme" })).toThrow(
      new TypeError('MantyxClient: baseUrl "not a url" is not a URL'),
    );
  });

  it("a baseUrl with a user name or password is refused when the client is made, without quoting the password (fetch would refuse every call, quoting it)", () => {
    const e = (() => {
      try {
        new MantyxClient({ baseUrl: "https://user:s3cret@mantyx.example", workspace: "acme" });
      } catch (x) {
        return x as Error;
      }
    })();
    expect(e).toBeInstanceOf(TypeError);
    expect(e!.message).toMatch(/baseUrl has a user name or password \(not shown\); pass apiKey/);
    expect(inspect(e)).not.toContain("s3cret");
  });

  it("a relative baseUrl resolves against the document's base URL, as fetch resolves it in a browser", () => {
    const g = globalThis as { document?: unknown };
    g.document = { baseURI: "https://app.example/console/" };
    try {
      expect(() => new MantyxClient({ baseUrl: "/mantyx", workspace: "acme" })).not.toThrow();
    } finally {
      delete g.document;
    }
    expect(() => new MantyxClient({ baseUrl: "/mantyx", workspace: "acme" })).toThrow(/is not a URL/); // no document: nothing to resolve against
  });

  it("a header value fetch would refuse is a TypeError naming the header, never quoting the value (it may be a credential)", async () => {
    const secret = "mantyx_secret\nx";
    const made = (() => {
      try {
        new MantyxClient({ baseUrl: "http://127.0.0.1:9", workspace: "acme", headers: { "x-api-key": secret } });
      } catch (x) {
        return x as Error;
      }
    })();
    const perCall = await new MantyxClient({ baseUrl: "http://127.0.0.1:9", workspace: "acme" })
      .getRun("r", { headers: { authorization: `Bearer ${secret}` } })
      .catch((x: unknown) => x as Error);
    for (const e of [made, perCall]) {
      expect(e).toBeInstanceOf(TypeError);
      expect(e!.message).toMatch(/header "(x-api-key|authorization)": invalid value \(not shown\)/);
      expect(inspect(e)).not.toContain("mantyx_secret");
    }
  });

  it("each error class has a type guard that also recognises it from another copy of the module (by name)", () => {
    const guards = [
      [isMantyxApiError, new MantyxApiError("op", 500, {}, new Headers())],
      [
        isMantyxConnectionError,
        new MantyxConnectionError("op: x", { operationId: "op", attempts: 1, lastSeq: undefined }),
      ],
      [isRequestValidationError, new RequestValidationError("op: x", { operationId: "op", issues: [] })],
      [
        isUnexpectedResponseError,
        new UnexpectedResponseError("op: x", { operationId: "op", status: 200, contentType: "text/html" }),
      ],
    ] as const;
    for (const [guard, error] of guards) {
      expect(guards.filter(([g]) => g(error)).map(([g]) => g)).toEqual([guard]);
      const copy = Object.assign(new Error(error.message), { ...error, name: error.name });
      expect(guard(copy)).toBe(true);
    }
    expect(isMantyxConnectionError(new Error("x"))).toBe(false);
  });
});

describe("the credential never leaks", () => {
  const secret = "mantyx_at_secret_scoped_token";

  function expectNoSecret(e: unknown): void {
    expect(String((e as Error).message)).not.toContain(secret);
    expect(JSON.stringify(e)).not.toContain(secret);
    expect(inspect(e, { depth: 10, showHidden: true })).not.toContain(secret);
    expect(String((e as Error).stack)).not.toContain(secret);
  }

  it("not in a 403 error (message, JSON, inspect)", async () => {
    const e = await failure(
      clientFor(server(), { apiKey: secret }).createRun({ systemPrompt: "You are helpful.", prompt: "x" }),
    );
    expect(e.status).toBe(403);
    expectNoSecret(e);
  });

  it("not in the client object", () => {
    const client = clientFor(server(), { apiKey: secret });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(secret);
    expect(JSON.stringify(client)).not.toContain(secret);
  });

  it("not in an error whose server echoes it in the body (value and key), x-request-id and WWW-Authenticate", async () => {
    for (const credentialHeader of ["authorization", "x-api-key"] as const) {
      const e = await failure(
        clientFor(echoServer(), { apiKey: secret, credentialHeader }).createRun({
          systemPrompt: "You are helpful.",
          prompt: "x",
        }),
      );
      expect(e.status).toBe(403);
      expect(e.requestId).toMatch(/^req_/);
      expect(requiredScopesOf(e)).toContain("runs:write");
      // The headers the error holds answer redacted (the echo is in WWW-Authenticate's realm and scope).
      expect(e.headers.get("www-authenticate")).toContain('realm="[redacted]"');
      expect(requiredScopesOf(e).join(" ")).not.toContain(secret);
      expect(e.message).toContain("credential [redacted] was refused");
      expect(e.body).toMatchObject({ echo: { "[redacted]": "[redacted]" } });
      expectNoSecret(e);
    }
  });

  it("not when the server echoes a key that JSON escapes (quote, backslash): neither form is kept", async () => {
    const odd = 'mantyx_at_"odd\\key';
    const escaped = JSON.stringify(odd).slice(1, -1);
    const e = await failure(clientFor(echoServer(), { apiKey: odd }).listModels());
    expect(e.status).toBe(401);
    for (const form of [odd, escaped]) {
      expect(e.message).not.toContain(form);
      expect(JSON.stringify(e)).not.toContain(escaped);
      expect(inspect(e, { depth: 10, showHidden: true })).not.toContain(form);
    }
    expect(e.message).toContain("credential [redacted] was refused");
  });

  it("not when the key was configured with surrounding whitespace (sent trimmed, so echoed trimmed)", async () => {
    const e = await failure(
      clientFor(echoServer(), { apiKey: ` ${secret}\n` }).createRun({ systemPrompt: "You are helpful.", prompt: "x" }),
    );
    expect(e.status).toBe(403);
    expectNoSecret(e);
  });

  it("not in the error for a key that cannot be sent as a header value (a line break inside)", async () => {
    const apiKey = "mantyx_at_secret\nscoped_token";
    const e = await (async () => clientFor(server(), { apiKey }).listModels())().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TypeError);
    for (const piece of ["mantyx_at_secret", "scoped_token"]) {
      expect(String((e as Error).message)).not.toContain(piece);
      expect(inspect(e, { depth: 10, showHidden: true })).not.toContain(piece);
    }
  });

  it("not when the credential is passed as a header (client-level or per call) instead of apiKey", async () => {
    const asHeaders = [
      clientFor(echoServer(), { apiKey: undefined, headers: { "X-Api-Key": secret } }).createRun({
        systemPrompt: "You are helpful.",
        prompt: "x",
      }),
      clientFor(echoServer(), { apiKey: undefined }).createRun(
        { systemPrompt: "You are helpful.", prompt: "x" },
        { headers: { Authorization: `Bearer ${secret}` } },
      ),
      clientFor(echoServer(), { apiKey: "mantyx_other" }).createRun(
        { systemPrompt: "You are helpful.", prompt: "x" },
        { headers: { "x-api-key": secret } },
      ),
    ];
    for (const call of asHeaders) {
      const e = await failure(call);
      expect(e.status).toBeGreaterThanOrEqual(401);
      expect(e.message).toContain("credential [redacted] was refused");
      expectNoSecret(e);
    }
  });

  it("not in a connection error, with x-api-key too", async () => {
    const client = new MantyxClient({
      baseUrl: "http://127.0.0.1:1",
      workspace: "acme",
      apiKey: secret,
      credentialHeader: "x-api-key",
      maxRetries: 0,
    });
    expectNoSecret(await client.getRun("run_1").catch((x: unknown) => x));
  });
});

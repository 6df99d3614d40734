/**
 * The document mock checks credentials as Prism does
 * (generator/mock/engine/security.ts, docs/mock-any-document.md): over real
 * HTTP on ./documents/secured-3.1.yaml, an operation whose security
 * requirements the request meets none of is answered 401 with the schemes
 * it could send and a WWW-Authenticate challenge per HTTP scheme, before
 * its body is read or checked; any value of the right credential passes;
 * `security: []`, an empty requirement and mutualTLS let anyone in; a
 * stream is refused before it starts. The credential sent is never echoed.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSchema } from "../../generator/load/index.js";
import { startDocumentMock, type DocumentMock } from "../../generator/mock/engine/document-mock.js";
import { parseSse } from "../../runtime/sse/index.js";

const DOCUMENT = fileURLToPath(new URL("./documents/secured-3.1.yaml", import.meta.url));

let mock: DocumentMock;
beforeAll(async () => {
  mock = await startDocumentMock({ document: (await loadSchema(DOCUMENT)).document });
});
afterAll(() => mock.close());

async function call(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const r = await fetch(`${mock.url}${path}`, init);
  const text = await r.text();
  return {
    status: r.status,
    headers: r.headers,
    body: text === "" ? undefined : r.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text,
    text,
  };
}

describe("the document mock's credential check", () => {
  it("the document's security: 401 without a credential, naming both alternatives, with a Bearer challenge; either credential passes, whatever its value", async () => {
    const none = await call("/pets");
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      error: "unauthorized",
      message:
        "listPets: Missing credentials: send one of: bearerAuth (Authorization: Bearer …); apiKeyHeader (the header X-API-Key).",
    });
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    expect((await call("/pets", { headers: { authorization: "Bearer anything" } })).status).toBe(200);
    expect((await call("/pets", { headers: { authorization: "bearer x" } })).status).toBe(200);
    expect((await call("/pets", { headers: { "x-api-key": "k" } })).body).toEqual([{ id: 1 }]);
    // The wrong scheme, or a scheme without credentials, is no credential.
    expect((await call("/pets", { headers: { authorization: "Basic dTpw" } })).status).toBe(401);
    expect((await call("/pets", { headers: { authorization: "Bearer " } })).status).toBe(401);
    expect((await call("/pets", { headers: { "x-api-key": "" } })).status).toBe(401);
  });

  it("no requirement, an empty one, or one a plain-HTTP mock cannot see lets anyone in", async () => {
    expect((await call("/public")).status).toBe(200);
    expect((await call("/optional")).status).toBe(200);
    expect((await call("/mtls")).status).toBe(200);
  });

  it("schemes required together must all be sent; the 401 comes before the body is read or checked", async () => {
    const post = (
      path: string,
      headers: Record<string, string>,
      body: string,
    ): Promise<Awaited<ReturnType<typeof call>>> =>
      call(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    const none = await post("/both", {}, "{}");
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({
      message:
        "needsBoth: Missing credentials: send basicAuth (Authorization: Basic …) and apiKeyQuery (the query parameter api_key).",
    });
    expect(none.headers.get("www-authenticate")).toBe('Basic realm="mock"');
    expect(mock.requests.at(-1)).toMatchObject({ path: "/both", status: 401, bodyBytes: 0 });
    expect((await post("/both", { authorization: "Basic dTpw" }, "{}")).status).toBe(401);
    expect((await post("/both?api_key=k", {}, "{}")).status).toBe(401);
    // Both: now the body is checked (400), and a valid one answered.
    expect((await post("/both?api_key=k", { authorization: "Basic dTpw" }, "{}")).status).toBe(400);
    expect((await post("/both?api_key=k", { authorization: "Basic dTpw" }, '{"name":"n"}')).body).toEqual({
      made: true,
    });
  });

  it("a cookie (its scheme behind a $ref), OAuth 2 and OpenID Connect (a bearer token)", async () => {
    expect((await call("/cookie")).body).toMatchObject({
      message: "cookieAuth: Missing credentials: send apiKeyCookie (the cookie session).",
    });
    expect((await call("/cookie", { headers: { cookie: "theme=dark; session=s1" } })).status).toBe(200);
    expect((await call("/cookie", { headers: { cookie: "sessions=s1" } })).status).toBe(401);
    const oauth = await call("/oauth");
    expect(oauth.status).toBe(401);
    expect(oauth.headers.get("www-authenticate")).toBe("Bearer");
    expect((await call("/oauth", { headers: { authorization: "Bearer t" } })).status).toBe(200);
  });

  it("a stream is refused before it starts, and streams with a credential; the credential is never echoed", async () => {
    const refused = await call("/events", { headers: { authorization: "Basic c2VjcmV0LWtleQ==" } });
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain("c2VjcmV0LWtleQ");
    expect(mock.streams.filter((s) => s.path === "/events")).toHaveLength(0);
    const r = await fetch(`${mock.url}/events`, { headers: { "x-api-key": "secret-key" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const data: unknown[] = [];
    for await (const m of parseSse(r.body!)) data.push(JSON.parse(m.data));
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((d) => typeof (d as { n: unknown }).n === "number")).toBe(true);
  });
});

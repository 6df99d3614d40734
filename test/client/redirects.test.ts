/**
 * Redirects never carry the credential to another origin. fetch drops only
 * `Authorization` on a cross-origin hop; a key in `X-API-Key` (the
 * `credentialHeader` option), or in a header of a scheme's own (a client
 * taking `credentials` by scheme), would go along. Two real servers on 127.0.0.1, on different ports (so
 * different origins): the first redirects, the second records what it got.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { HttpClient, operation, schemeCredentials } from "../../runtime/codegen/v1.js";
import { getRun, MantyxCore } from "../../generated/operations.js";
import type { MantyxClientOptions } from "../../index.js";

const KEY = "mantyx_redirect_secret_key";

interface Seen {
  server: "origin" | "elsewhere";
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const seen: Seen[] = [];
/** What the origin answers: a redirect (status, and where: the other server or itself). */
let redirect: { status: number; to: "elsewhere" | "same" } = { status: 307, to: "elsewhere" };
let origin: Server;
let elsewhere: Server;
const urlOf = (s: Server): string => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

function recording(
  name: Seen["server"],
  answer: (path: string, res: import("node:http").ServerResponse) => void,
): Server {
  return createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ server: name, method: req.method!, path: req.url!, headers: req.headers, body });
      answer(req.url!, res);
    });
  });
}

beforeAll(async () => {
  elsewhere = recording(
    "elsewhere",
    (_, res) => void res.writeHead(200, { "content-type": "application/json" }).end('{"where":"elsewhere"}'),
  );
  origin = recording("origin", (path, res) => {
    if (path.startsWith("/moved"))
      return void res.writeHead(200, { "content-type": "application/json" }).end('{"where":"moved"}');
    const target = redirect.to === "elsewhere" ? `${urlOf(elsewhere)}/landed` : "/moved";
    res.writeHead(redirect.status, { location: target }).end();
  });
  await Promise.all([origin, elsewhere].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
});
afterAll(() => Promise.all([origin, elsewhere].map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

function client(options: Partial<MantyxClientOptions>): MantyxClient {
  return new MantyxClient({ baseUrl: urlOf(origin), workspace: "acme", maxRetries: 0, ...options });
}

/** The headers the redirect's target received (the last request it recorded). */
function landed(): Seen {
  return seen.filter((s) => s.server === "elsewhere" || s.path.startsWith("/moved")).at(-1)!;
}

const hasKey = (headers: IncomingHttpHeaders): boolean => Object.values(headers).some((v) => String(v).includes(KEY));

describe("a redirect to another origin", () => {
  const CASES: Array<[string, Partial<MantyxClientOptions>]> = [
    ["apiKey with credentialHeader x-api-key", { apiKey: KEY, credentialHeader: "x-api-key" }],
    ["a per-client x-api-key header", { headers: { "x-api-key": KEY } }],
    ["apiKey in Authorization (fetch's own rule)", { apiKey: KEY }],
  ];
  for (const [name, options] of CASES) {
    it(`${name}: followed, without the credential; other headers kept`, async () => {
      redirect = { status: 307, to: "elsewhere" };
      const answer = await client(options).getRun("run_1", { headers: { "x-trace": "t-1" } });
      expect(answer).toEqual({ where: "elsewhere" });
      const target = landed();
      expect(target.server).toBe("elsewhere");
      expect(hasKey(target.headers)).toBe(false);
      expect(target.headers["x-trace"]).toBe("t-1");
      // The origin did get it: the credential was sent, only not forwarded.
      expect(hasKey(seen.filter((s) => s.server === "origin").at(-1)!.headers)).toBe(true);
    });
  }

  it("a scheme's credential in a header of its own (credentials by scheme) is left behind too", async () => {
    redirect = { status: 307, to: "elsewhere" };
    const client = new HttpClient(
      { baseUrl: urlOf(origin), credentials: { key: KEY }, maxRetries: 0 },
      "0",
      {},
      schemeCredentials({ key: ["apiKey", "header", "X-Custom-Key"] }),
    );
    const get = operation<(c: HttpClient) => Promise<unknown>>("get", {
      method: "GET",
      path: "/thing",
      security: [["key"]],
    });
    expect(await get(client)).toEqual({ where: "elsewhere" });
    expect(hasKey(landed().headers)).toBe(false);
    expect(seen.filter((s) => s.server === "origin").at(-1)!.headers["x-custom-key"]).toBe(KEY);
  });

  it("an operation function on MantyxCore leaves it behind too", async () => {
    redirect = { status: 302, to: "elsewhere" };
    const core = new MantyxCore({
      baseUrl: urlOf(origin),
      workspace: "acme",
      apiKey: KEY,
      credentialHeader: "x-api-key",
      maxRetries: 0,
    });
    expect(await getRun(core, "run_1")).toEqual({ where: "elsewhere" });
    expect(hasKey(landed().headers)).toBe(false);
  });

  it("a POST answered 303 becomes a GET without its body (Fetch's rule), and without the credential", async () => {
    redirect = { status: 303, to: "elsewhere" };
    const before = seen.length;
    expect(
      await client({ apiKey: KEY, credentialHeader: "x-api-key" }).submitRunFeedback("run_1", { verdict: "UP" }),
    ).toEqual({ where: "elsewhere" });
    expect(seen.slice(before).map((s) => `${s.server} ${s.method}`)).toEqual(["origin POST", "elsewhere GET"]);
    const target = landed();
    expect(target).toMatchObject({ server: "elsewhere", method: "GET", body: "" });
    expect(target.headers["content-type"]).toBeUndefined();
    expect(hasKey(target.headers)).toBe(false);
  });
});

describe("a redirect within the origin", () => {
  it("keeps the credential, and a 307 keeps the method and the body", async () => {
    redirect = { status: 307, to: "same" };
    const c = client({ apiKey: KEY, credentialHeader: "x-api-key" });
    expect(await c.getRun("run_1")).toEqual({ where: "moved" });
    expect(landed().headers["x-api-key"]).toBe(KEY);
    expect(await c.submitRunFeedback("run_1", { verdict: "UP" })).toEqual({ where: "moved" });
    expect(landed()).toMatchObject({ server: "origin", method: "POST", body: JSON.stringify({ verdict: "UP" }) });
    expect(landed().headers["x-api-key"]).toBe(KEY);
  });
});

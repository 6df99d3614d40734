/**
 * The runtime's query/header/cookie parameters and security schemes
 * (Operation `params` and `security`, ClientCore's `schemes` and the
 * `credentials` option), over real HTTP on 127.0.0.1: each query style,
 * header and cookie parameters, the first security alternative the client
 * can meet, and no credential in an error, as sent or encoded.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ClientBase,
  ClientCore,
  eventStream,
  operation,
  operationExtras,
  operationFunction,
  type ClientOptions,
  type Operation,
  type SecurityScheme,
} from "../../runtime/codegen/v1.js";
import { MantyxCore } from "../../generated/client-core.js";
import { listRuns } from "../../generated/operations-unvalidated.js";
import { isMantyxApiError } from "../../mantyx/errors.js";

let server: Server;
let baseUrl = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      // (The credential of an Authorization header also alone, as a server quoting the token it refused would.)
      const echo = JSON.stringify({
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        token: request.headers.authorization?.split(" ")[1],
      });
      // The error route echoes everything it got, credentials included, as a careless server would.
      if (request.url!.startsWith("/events")) {
        // An event stream that says which credential and header parameter each connection brought; it ends after one event without a terminal one the first time.
        const seen = `${request.headers.authorization}|${request.headers["x-trace"]}|${request.headers["last-event-id"]}`;
        response.writeHead(200, { "content-type": "text/event-stream" });
        const resumed = request.headers["last-event-id"] !== undefined;
        return response.end(
          `data: ${JSON.stringify({ seq: resumed ? 2 : 1, type: resumed ? "done" : "note", seen })}\n\n`,
        );
      }
      if (request.url!.startsWith("/page")) {
        // A 2xx that is not JSON, its content type quoting the Authorization header (a login page of a proxy, say).
        response.writeHead(200, { "content-type": `text/html; for=${request.headers.authorization}` });
        return response.end("<html>");
      }
      response.writeHead(request.url!.startsWith("/fail") ? 401 : 200, {
        "content-type": "application/json",
        "x-echo": encodeURIComponent(request.url!),
      });
      response.end(echo);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const schemes: Record<string, SecurityScheme> = {
  bearer: ["bearer"],
  basic: ["basic"],
  headerKey: ["apiKey", "header", "X-Key"],
  queryKey: ["apiKey", "query", "api_key"],
  cookieKey: ["apiKey", "cookie", "session"],
};

const operations = {
  search: {
    method: "GET",
    path: "/items/{kind}",
    params: {
      query: { tags: "form", ids: "csv", filter: "deep", range: "pipe", words: "space", flat: "form" },
      header: ["X-Trace"],
      cookie: ["pref"],
    },
  },
  keyed: { method: "GET", path: "/keyed", security: [["bearer", "headerKey"], ["queryKey"], ["basic"]] },
  cookie: { method: "GET", path: "/cookie", security: [["cookieKey"]] },
  open: { method: "GET", path: "/open", security: [[]] },
  fail: { method: "GET", path: "/fail", security: [["queryKey", "headerKey", "basic"]] },
} as const satisfies Record<string, Operation>;

type Echo = { url: string; headers: Record<string, string | undefined>; body: string };
interface Methods {
  search(kind: string, params: object): Promise<Echo>;
  keyed(): Promise<Echo>;
  cookie(): Promise<Echo>;
  open(): Promise<Echo>;
  fail(): Promise<Echo>;
}
class TestClient extends ClientCore {
  constructor(options: ClientOptions) {
    super(options, "test", {}, schemes);
  }
}
TestClient.define(operations);
const client = (credentials: ClientOptions["credentials"] = {}): Methods =>
  new TestClient({ baseUrl, credentials, maxRetries: 0 }) as unknown as Methods;

describe("parameters", () => {
  test("each query style, a header and a cookie parameter; undefined ones are left out", async () => {
    const echo = await client().search("a b", {
      query: {
        tags: ["x", "y"],
        ids: [1, 2, 3],
        filter: { color: "red", size: 2 },
        range: [1, 5],
        words: ["a", "b"],
        flat: { page: 2, empty: undefined },
        missing: 1,
      },
      header: { "X-Trace": "t-1" },
      cookie: { pref: "dark mode" },
    });
    expect(decodeURIComponent(echo.url)).toBe(
      "/items/a b?tags=x&tags=y&ids=1,2,3&filter[color]=red&filter[size]=2&range=1|5&words=a+b&page=2",
    );
    expect(echo.headers["x-trace"]).toBe("t-1");
    expect(echo.headers.cookie).toBe("pref=dark%20mode");
  });
});

describe("security schemes", () => {
  test("the first alternative the client holds every credential of is sent, and only it", async () => {
    const both = await client({ bearer: "tok", headerKey: "hk", queryKey: "qk" }).keyed();
    expect(both.headers.authorization).toBe("Bearer tok");
    expect(both.headers["x-key"]).toBe("hk");
    expect(both.url).toBe("/keyed");
    const query = await client({ bearer: "tok", queryKey: "q k&" }).keyed();
    expect(query.url).toBe("/keyed?api_key=q+k%26");
    expect(query.headers.authorization).toBeUndefined();
    const basic = await client({ basic: { username: "ann", password: "pässword" } }).keyed();
    expect(basic.headers.authorization).toBe(`Basic ${Buffer.from("ann:pässword").toString("base64")}`);
    expect((await client({ cookieKey: "c=1" }).cookie()).headers.cookie).toBe("session=c%3D1");
    expect((await client({ bearer: "tok" }).open()).headers.authorization).toBeUndefined();
    // None met: nothing is sent (the server says 401 if it needs one).
    expect((await client({ headerKey: "hk" }).keyed()).headers["x-key"]).toBeUndefined();
  });

  test("a credential never appears in the error: not as sent, URL-encoded, or as basic's base64", async () => {
    const secrets = {
      queryKey: "sk/live+1&= x",
      headerKey: "hk-secret",
      basic: { username: "ann", password: "pw-secret" },
    };
    const error = await client(secrets)
      .fail()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isMantyxApiError(error) && error.status).toBe(401);
    const everything = JSON.stringify({
      message: (error as Error).message,
      body: (error as { body: unknown }).body,
      stack: (error as Error).stack,
      error,
    });
    for (const secret of [
      "sk/live+1&= x",
      encodeURIComponent("sk/live+1&= x"),
      "sk%2Flive%2B1%26%3D+x",
      "hk-secret",
      "pw-secret",
      Buffer.from("ann:pw-secret").toString("base64"),
    ]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).toContain("[redacted]");
  });
});

describe("operation functions and their extras (codegen revision 5)", () => {
  class Base extends ClientBase {
    constructor(options: ClientOptions) {
      super(options, "test", {}, schemes);
    }
  }
  const search = operations.search;
  const credentials = { queryKey: "qk", cookieKey: "ck", basic: { username: "ann", password: "pw" } };
  const base = (): Base => new Base({ baseUrl, credentials, maxRetries: 0 });
  const given = { query: { tags: ["x"] }, header: { "X-Trace": "t-1" }, cookie: { pref: "dark" } };
  type Fn = (client: ClientBase, ...args: unknown[]) => Promise<Echo>;

  test("an entry with extras sends its parameters and its basic, query and cookie credentials", async () => {
    const echo = await operation<Fn>("search", { ...search, extras: operationExtras })(base(), "k", given);
    expect(echo.url).toBe("/items/k?tags=x");
    expect(echo.headers["x-trace"]).toBe("t-1");
    expect(echo.headers.cookie).toBe("pref=dark");
    const keyed = await operation<Fn>("keyed", {
      method: "GET",
      path: "/keyed",
      security: [["queryKey"]],
      extras: operationExtras,
    })(base());
    expect(keyed.url).toBe("/keyed?api_key=qk");
    const both = await operation<Fn>("cookie", {
      method: "GET",
      path: "/cookie",
      params: { cookie: ["pref"] },
      security: [["cookieKey", "basic"]],
      extras: operationExtras,
    })(base(), { cookie: { pref: "dark" } });
    expect(both.headers.cookie).toBe("pref=dark; session=ck");
    expect(both.headers.authorization).toBe(`Basic ${Buffer.from("ann:pw").toString("base64")}`);
  });

  test("an entry with parameters but without extras is refused (its type too), never sent without them", async () => {
    // @ts-expect-error -- `params` needs `extras`
    const fn = operation<Fn>("search", search);
    await expect(fn(base(), "k", given)).rejects.toThrow(
      new TypeError("search: params needs operationExtras in the entry"),
    );
  });

  test("a short string credential of a basic scheme is redacted in its Basic token too", async () => {
    const client = new Base({ baseUrl, credentials: { basic: "abc" }, maxRetries: 0 });
    const error = await operation<Fn>("fail", {
      method: "GET",
      path: "/fail",
      security: [["basic"]],
      extras: operationExtras,
    })(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isMantyxApiError(error) && error.status).toBe(401);
    const everything = JSON.stringify({
      message: (error as Error).message,
      body: (error as { body: unknown }).body,
      stack: (error as Error).stack,
      error,
    });
    expect(everything).not.toContain(Buffer.from("abc:").toString("base64"));
    expect(everything).toContain("[redacted]");
  });

  test("a basic token a 2xx answer echoes is redacted from the UnexpectedResponseError, as from an API error", async () => {
    const client = new Base({
      baseUrl,
      credentials: { basic: { username: "ann", password: "pw-secret" } },
      maxRetries: 0,
    });
    const error = await operation<Fn>("page", {
      method: "GET",
      path: "/page",
      security: [["basic"]],
      extras: operationExtras,
    })(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).name).toBe("UnexpectedResponseError");
    const everything = JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack, error });
    expect(everything).not.toContain(Buffer.from("ann:pw-secret").toString("base64"));
    expect((error as { contentType: string }).contentType).toBe("text/html; for=Basic [redacted]");
  });

  test("an event stream sends the call's credentials and header parameters on every connection, resumes included", async () => {
    const client = new Base({
      baseUrl,
      credentials: { bearer: "tok-1" },
      maxRetries: 0,
      reconnectDelay: { initialDelayMs: 1 },
    });
    const entry = {
      method: "GET",
      path: "/events",
      params: { header: ["X-Trace"] },
      security: [["bearer"]],
      stream: { events: { terminal: ["done"] } },
      extras: operationExtras,
    } as const;
    const stream = operation<(c: ClientBase, p: object) => AsyncIterable<{ seen: string }>>(
      "events",
      entry,
      eventStream(undefined),
    )(client, { header: { "X-Trace": "t-9" } });
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.seen);
    expect(seen).toEqual(["Bearer tok-1|t-9|undefined", "Bearer tok-1|t-9|1"]);
  });

  test("an entry whose credential needs extras it lacks is refused with a TypeError naming the scheme, nothing sent", async () => {
    const fn = operation<Fn>("keyed", { method: "GET", path: "/keyed", security: [["queryKey"]] });
    await expect(fn(base())).rejects.toThrow(new TypeError("keyed: queryKey needs operationExtras in the entry"));
  });

  test("a parameter JSON cannot encode is a TypeError of the awaited call, not a synchronous throw, and is never sent", async () => {
    const fn = operation<Fn>("find", {
      method: "GET",
      path: "/find",
      params: { query: { filter: "json" } },
      extras: operationExtras,
    });
    let pending: Promise<unknown> | undefined;
    expect(() => (pending = fn(base(), { query: { filter: { big: 1n } } }))).not.toThrow();
    await expect(pending).rejects.toThrow(/^find: .*BigInt/);
    await expect(pending).rejects.toBeInstanceOf(TypeError);
  });

  test("a body that is not JSON goes as given with its media type; FormData and URLSearchParams set their own", async () => {
    const upload = {
      method: "POST",
      path: "/upload",
      takesBody: true,
      bodyMedia: "text/plain",
      extras: operationExtras,
    } as const;
    const text = await operation<Fn>("upload", upload)(base(), "plain words");
    expect([text.body, text.headers["content-type"]]).toEqual(["plain words", "text/plain"]);
    const form = new FormData();
    form.append("a", "1");
    const sent = await operation<Fn>("upload", upload)(base(), form);
    expect(sent.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toContain('name="a"');
    const pairs = await operation<Fn>("upload", upload)(base(), new URLSearchParams({ a: "1 2" }));
    expect([pairs.body, pairs.headers["content-type"]]).toEqual([
      "a=1+2",
      "application/x-www-form-urlencoded;charset=UTF-8",
    ]);
    // A JSON body (no bodyMedia) is encoded.
    const json = await operation<Fn>("upload", { method: "POST", path: "/upload", takesBody: true })(base(), { a: 1 });
    expect([json.body, json.headers["content-type"]]).toEqual(['{"a":1}', "application/json"]);
  });

  test("header and cookie parameters holding an array or an object are sent in the simple style, never as [object Object]", async () => {
    const entry = {
      method: "GET",
      path: "/simple",
      params: { header: ["X-Ids", "X-Filter"], cookie: ["pref"] },
      extras: operationExtras,
    } as const;
    const echo = await operation<Fn>("simple", entry)(base(), {
      header: { "X-Ids": [1, 2], "X-Filter": { role: "admin", name: "Alex", gone: null } },
      cookie: { pref: { theme: "dark" } },
    });
    expect([echo.headers["x-ids"], echo.headers["x-filter"], echo.headers.cookie]).toEqual([
      "1,2",
      "role,admin,name,Alex",
      "pref=theme%2Cdark",
    ]);
  });

  test("a body whose media type is a range (*/*, image/*) goes without that range as its content type", async () => {
    const any = await operation<Fn>("upload", {
      method: "POST",
      path: "/upload",
      takesBody: true,
      bodyMedia: "*/*",
      extras: operationExtras,
    })(base(), new Blob(["png"], { type: "image/png" }));
    expect([any.body, any.headers["content-type"]]).toEqual(["png", "image/png"]);
    const image = await operation<Fn>("upload", {
      method: "POST",
      path: "/upload",
      takesBody: true,
      bodyMedia: "image/*",
      extras: operationExtras,
    })(base(), "raw");
    expect(image.headers["content-type"]).not.toContain("*");
  });

  test("operationFunction, as code generated for revision 4 calls it, gives every entry its extras", async () => {
    const echo = await operationFunction<Fn>("search", search)(base(), "k", given);
    expect(echo.url).toBe("/items/k?tags=x");
    expect(echo.headers.cookie).toBe("pref=dark");
  });

  test("the generated listRuns carries its extras: its query parameters are sent", async () => {
    const core = new MantyxCore({ baseUrl, workspace: "acme", apiKey: "mantyx_k", maxRetries: 0 });
    const echo = (await listRuns(core, { query: { limit: 2, status: "running" } })) as unknown as Echo;
    expect(echo.url).toBe("/api/v1/workspaces/acme/agent-runs?limit=2&status=running");
  });
});

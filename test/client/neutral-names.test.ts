/**
 * The runtime names nothing after MANTYX: a client generated from any
 * document throws `ApiError`/`ConnectionError`, named so whatever its brand
 * (the same classes the MANTYX package exports as `MantyxApiError` and
 * `MantyxConnectionError`), and its TypeErrors name its class
 * ("MantyxClient: …" for the MANTYX client, test/client/errors.test.ts).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, operation, type ClientOptions } from "../../runtime/codegen/v1.js";
import { ApiError, ConnectionError, isApiError, isConnectionError } from "../../runtime/client/index.js";
import { isMantyxApiError, isMantyxConnectionError, MantyxApiError, MantyxConnectionError } from "../../index.js";

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((_, res) => {
    res
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify({ error: "not_found", message: "no such thing" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

class ApiCore extends HttpClient {
  constructor(options: ClientOptions) {
    super(options, "1.0.0");
  }
}
class AcmeCore extends HttpClient {
  constructor(options: ClientOptions) {
    super(options, "1.0.0", {}, undefined, "Acme");
  }
}
const getThing = operation<(client: HttpClient) => Promise<unknown>>("getThing", { method: "GET", path: "/thing" });

describe("a client of any document", () => {
  it("names its class in its TypeErrors (ApiClient without a brand)", () => {
    expect(() => new ApiCore({ baseUrl: "not a url" })).toThrow(
      new TypeError('ApiClient: baseUrl "not a url" is not a URL'),
    );
    expect(() => new AcmeCore({ baseUrl: "" })).toThrow(new TypeError("AcmeClient: pass baseUrl (and fetch)"));
    expect(() => new ApiCore({ baseUrl: base, apiKey: "a\nb" })).toThrow(/^ApiClient: apiKey is no valid header value/);
  });

  it("throws ApiError, so named whatever its brand, with no MANTYX in it", async () => {
    const plain = await getThing(new ApiCore({ baseUrl: base })).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(ApiError);
    expect((plain as Error).name).toBe("ApiError");
    expect((plain as Error).message).not.toMatch(/mantyx/i);
    const acme = await getThing(new AcmeCore({ baseUrl: base })).catch((e: unknown) => e);
    expect(acme).toBeInstanceOf(ApiError);
    expect((acme as Error).name).toBe("ApiError");
    expect(isApiError(acme) && isMantyxApiError(acme)).toBe(true);
    // The MANTYX names are the same classes.
    expect(MantyxApiError).toBe(ApiError);
    expect(MantyxConnectionError).toBe(ConnectionError);
  });

  it("throws ConnectionError, so named whatever its brand", async () => {
    const refused = await getThing(new AcmeCore({ baseUrl: "http://127.0.0.1:1", maxRetries: 0 })).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ConnectionError);
    expect((refused as Error).name).toBe("ConnectionError");
    const plain = await getThing(new ApiCore({ baseUrl: "http://127.0.0.1:1", maxRetries: 0 })).catch(
      (e: unknown) => e,
    );
    expect((plain as Error).name).toBe("ConnectionError");
    expect(isConnectionError(plain) && isMantyxConnectionError(refused)).toBe(true);
  });
});

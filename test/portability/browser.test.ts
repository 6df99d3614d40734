/**
 * The runtime in a real browser: headless Chromium (Debian's, driven by
 * playwright-core) loads a page whose script is the portability consumer
 * (./consumer.ts) bundled by esbuild, and runs the same tool round trip as
 * Deno, Bun and the edge VM do, on the client's browser platform module
 * (no redirect loop of its own, no User-Agent). The page and the API share one origin: a
 * small server here serves the page and passes every other request through
 * to the mock server, streaming (an SSE answer must not be buffered).
 *
 * Needs /usr/bin/chromium (`apt-get install chromium`; .ci/run installs it).
 * Without it the test is skipped with the reason, never passed.
 */
import { existsSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";
import { bundleConsumer } from "./bundle.js";
import { expectRoundTrip } from "./expectations.js";

const CHROMIUM = "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
let api: MockServer;
let site: Server;
let origin: string;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!available) return;
  api = await startMockServer();
  const script = await bundleConsumer("script", { browser: true });
  const upstream = new URL(api.url);
  site = createServer((req, res) => {
    if (req.url === "/")
      return void res
        .writeHead(200, { "content-type": "text/html" })
        .end('<!doctype html><script src="/consumer.js"></script>');
    if (req.url === "/consumer.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    // A base URL that redirects to another origin (the API's own).
    if (req.url?.startsWith("/hop/"))
      return void res
        .writeHead(307, { location: `${api.url}${req.url.slice(4)}`, "access-control-allow-origin": "*" })
        .end();
    const proxied = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on("error", () => res.destroy());
    req.pipe(proxied);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking flags Chromium keeps dialling out, and this machine refuses those connections.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await api?.close();
});

describe("the runtime in a browser", () => {
  const name = available
    ? "headless Chromium runs the tool round trip"
    : `headless Chromium runs the tool round trip (SKIPPED: ${CHROMIUM} is not installed)`;
  it.skipIf(!available)(
    name,
    async () => {
      const page = await browser!.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${origin}/`);
      const out = await page.evaluate(
        async ([base, workspace, key]) =>
          (
            globalThis as unknown as {
              portable: { consume(a: string, b: string, c: string): Promise<Record<string, unknown>> };
            }
          ).portable.consume(base!, workspace!, key!),
        [origin, api.workspace, api.apiKey],
      );
      expect(errors).toEqual([]);
      expectRoundTrip(out);
      // A browser owns User-Agent: the client must not try to set it, nor send its custom identity header.
      const created = api.requests.find((r) => r.method === "POST" && r.path.endsWith("/agent-runs"));
      expect(created?.headers["x-mantyx-client"]).toBeUndefined();
      expect(String(created?.headers["user-agent"])).toMatch(/Chrome/);
    },
    60_000,
  );

  it.skipIf(!available)(
    "a credential outside Authorization is not carried along a redirect the browser hides: a clear error, no leak",
    async () => {
      const page = await browser!.newPage();
      await page.goto(`${origin}/`);
      const before = api.requests.length;
      const out = await page.evaluate(
        async ([base, workspace, key]) =>
          (
            globalThis as unknown as {
              portable: { redirected(a: string, b: string, c: string): Promise<Record<string, unknown>> };
            }
          ).portable.redirected(base!, workspace!, key!),
        [`${origin}/hop`, api.workspace, api.apiKey],
      );
      expect(out).toMatchObject({ threw: true, name: "ConnectionError", leaks: false });
      expect(out["message"]).toMatch(
        /listModels: a browser hides the redirect; not followed \(x-api-key would go along\)/,
      );
      // The browser did not follow it either: the API origin saw no such request (a page's favicon request aside).
      expect(api.requests.slice(before).filter((r) => r.path.includes("/models"))).toEqual([]);
    },
    60_000,
  );
});

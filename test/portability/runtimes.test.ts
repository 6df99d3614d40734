/**
 * "The runtime is portable": the client, the SSE decoder, the typed events
 * and the validators, bundled by esbuild for the browser platform (so a Node
 * built-in would fail the build), run in Deno, in Bun and in the Vercel edge
 * runtime's web-standard-only VM (@edge-runtime/vm: no `process`, no
 * `Buffer`, no `require`), each against the mock server on 127.0.0.1.
 * Node itself is covered by every other suite and by test/package.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { EdgeVM } from "@edge-runtime/vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";
import { bundleConsumer } from "./bundle.js";
import { expectRoundTrip } from "./expectations.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;
/** The consumer as a script (its `consume` in the global `portable`), for the edge VM. */
let script: string;
let server: MockServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wire-runtimes-"));
  server = await startMockServer();
  writeFileSync(join(dir, "consumer.mjs"), await bundleConsumer("cli"));
  script = await bundleConsumer("script");
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = promisify(execFile);
const args = () => [server.url, server.workspace, server.apiKey];

describe("the runtime outside Node", () => {
  it("Deno", async () => {
    const deno = join(root, "node_modules", ".bin", "deno");
    const { stdout } = await run(
      deno,
      ["run", "--quiet", "--no-prompt", "--allow-net=127.0.0.1", "consumer.mjs", ...args()],
      {
        cwd: dir,
        env: { ...process.env, DENO_DIR: join(dir, ".deno"), NO_COLOR: "1" },
      },
    );
    expectRoundTrip(JSON.parse(stdout));
  }, 60_000);

  it("Bun", async () => {
    const bun = join(root, "node_modules", ".bin", "bun");
    const { stdout } = await run(bun, ["consumer.mjs", ...args()], {
      cwd: dir,
      env: { ...process.env, BUN_INSTALL_CACHE_DIR: join(dir, ".bun") },
    });
    expectRoundTrip(JSON.parse(stdout));
  }, 60_000);

  it("an edge runtime (web-standard globals only)", async () => {
    const vm = new EdgeVM();
    expect(vm.evaluate("typeof process + typeof Buffer + typeof require")).toBe("undefinedundefinedundefined");
    vm.evaluate(script);
    const out = await vm.evaluate<Promise<Record<string, unknown>>>(
      `portable.consume(${args()
        .map((a) => JSON.stringify(a))
        .join(", ")})`,
    );
    expectRoundTrip(JSON.parse(JSON.stringify(out)));
  }, 60_000);
});

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
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../mock-server/index.js";
import { expectRoundTrip } from "./expectations.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const consumer = fileURLToPath(new URL("./consumer.ts", import.meta.url));
let dir: string;
let server: MockServer;

async function bundle(contents: string, format: "esm" | "iife"): Promise<string> {
  const out = await build({
    stdin: { contents, resolveDir: root, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    format,
    // The iife's exports land in a global of the VM's script scope.
    ...(format === "iife" ? { globalName: "portable" } : {}),
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wire-runtimes-"));
  server = await startMockServer();
  const cli = `import { consume } from ${JSON.stringify(consumer)};
const args = (globalThis as any).Deno ? (globalThis as any).Deno.args : (globalThis as any).process.argv.slice(2);
console.log(JSON.stringify(await consume(args[0], args[1], args[2])));`;
  writeFileSync(join(dir, "consumer.mjs"), await bundle(cli, "esm"));
  writeFileSync(join(dir, "consumer.iife.js"), await bundle(`export { consume } from ${JSON.stringify(consumer)};`, "iife"));
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
    const { stdout } = await run(deno, ["run", "--quiet", "--no-prompt", "--allow-net=127.0.0.1", "consumer.mjs", ...args()], {
      cwd: dir,
      env: { ...process.env, DENO_DIR: join(dir, ".deno"), NO_COLOR: "1" },
    });
    expectRoundTrip(JSON.parse(stdout));
  }, 60_000);

  it("Bun", async () => {
    const bun = join(root, "node_modules", ".bin", "bun");
    const { stdout } = await run(bun, ["consumer.mjs", ...args()], { cwd: dir, env: { ...process.env, BUN_INSTALL_CACHE_DIR: join(dir, ".bun") } });
    expectRoundTrip(JSON.parse(stdout));
  }, 60_000);

  it("an edge runtime (web-standard globals only)", async () => {
    const vm = new EdgeVM();
    expect(vm.evaluate("typeof process + typeof Buffer + typeof require")).toBe("undefinedundefinedundefined");
    vm.evaluate(await import("node:fs").then((fs) => fs.readFileSync(join(dir, "consumer.iife.js"), "utf8")));
    const out = await vm.evaluate<Promise<Record<string, unknown>>>(`portable.consume(${args().map((a) => JSON.stringify(a)).join(", ")})`);
    expectRoundTrip(JSON.parse(JSON.stringify(out)));
  }, 60_000);
});

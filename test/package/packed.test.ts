/**
 * The package as npm publishes it: `npm pack` (which runs the `prepack`
 * build), unpacked into a scratch app's node_modules, then used the way a
 * consumer would, with no tsx, no TypeScript sources and no repository paths:
 * - plain `node` runs a tool round trip through the packed client against
 *   the mock server on 127.0.0.1, and reads the validators, the SSE decoder
 *   and the fixture suite through their package entry points;
 * - `tsc` (NodeNext) type-checks a consumer against the packed declarations;
 * - esbuild bundles the main entry for the browser (no Node built-ins).
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { npmPack } from "./npm-pack.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";
import { bundleConsumer } from "../portability/bundle.js";
import { expectRoundTrip } from "../portability/expectations.js";

const require = createRequire(import.meta.url);
let scratch: string;
let app: string;
let server: MockServer;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "wire-packed-"));
  const tarball = npmPack(scratch);
  app = join(scratch, "app");
  const pkg = join(app, "node_modules", "@mantyx", "wire-types");
  mkdirSync(pkg, { recursive: true });
  execFileSync("tar", ["-xzf", join(scratch, tarball), "-C", pkg, "--strip-components=1"]);
  writeFileSync(join(app, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  server = await startMockServer();
}, 300_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the tarball", () => {
  it("ships each file once: the compiled runtime and validators under dist/, no TypeScript sources of them, no second copy of the validators", () => {
    const tarball = readdirSync(scratch).find((f) => f.endsWith(".tgz"))!;
    const entries = execFileSync("tar", ["-tzf", join(scratch, tarball)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((e) => e.replace(/^package\//, ""));
    expect(entries).toContain("dist/generated/validators/run-create-request.js");
    expect(entries).toContain("generated/openapi.json");
    expect(entries).toContain("generated/fixtures/manifest.json");
    // The generator is @mantyx/wire-gen, its own package: none of it ships here.
    expect(entries.filter((e) => /^(generator|templates|bin)\//.test(e))).toEqual([]);
    expect(entries).toContain("dist/runtime/codegen/v1.js");
    expect(
      entries.filter((e) => /^(generated\/validators\/|generated\/[^/]+\.ts$|runtime\/|index\.ts$)/.test(e)),
    ).toEqual([]);
    // What its users run, nothing else: the TypeScript conformance kit compiled; the Go module and the Python wheel are other ecosystems' packages.
    expect(entries).toContain("dist/conformance/ts/index.js");
    expect(entries.filter((e) => /\.(go|py)$/.test(e) || /^conformance\//.test(e))).toEqual([]);
  });
});

/**
 * The portability consumer's round trip (test/portability/consumer.ts, bundled
 * to import the package by name), plus what only a package has: subpath
 * entries and the fixture suite.
 */
const CONSUMER = `
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { parseSse } from "@mantyx/wire-types";
import { validateToolRef } from "@mantyx/wire-types/validators/tool-ref";
import { parseSse as parseSseDirect } from "@mantyx/wire-types/sse";
import { consume } from "./round-trip.mjs";

const [baseUrl, workspace, apiKey] = process.argv.slice(2);
const out = await consume(baseUrl, workspace, apiKey);
out.toolRef = validateToolRef({ kind: "local", name: "t", description: "d", parameters: { type: "object" } });
out.sameSse = parseSse === parseSseDirect;
const manifest = createRequire(import.meta.url).resolve("@mantyx/wire-types/fixtures/manifest.json");
out.suite = JSON.parse(readFileSync(manifest, "utf8")).suiteVersion;
console.log(JSON.stringify(out));
`;

describe("the packed package", () => {
  it("plain node runs a tool round trip through the packed client, validators, decoder and fixtures", async () => {
    writeFileSync(join(app, "round-trip.mjs"), await bundleConsumer("package"));
    writeFileSync(join(app, "consumer.mjs"), CONSUMER);
    // Asynchronously: the mock server answers from this process's event loop.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["consumer.mjs", server.url, server.workspace, server.apiKey],
      { cwd: app, encoding: "utf8" },
    );
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expectRoundTrip(out);
    expect(out).toMatchObject({ toolRef: true, sameSse: true });
    expect(out["suite"]).toEqual(expect.any(String));
  });

  it("tsc (NodeNext, strict) type-checks a consumer against the packed declarations", () => {
    writeFileSync(
      join(app, "consumer.ts"),
      `import { MantyxClient, type AgentRunEvent, type RunCreateRequest } from "@mantyx/wire-types";
import type { ToolRef } from "@mantyx/wire-types/types";
import { validateToolRef } from "@mantyx/wire-types/validators";
export function text(e: AgentRunEvent): string {
  switch (e.type) {
    case "assistant_delta": return e.data.text;
    default: return "";
  }
}
export const spec: RunCreateRequest = { prompt: "hi" };
export const isRef = (x: unknown): x is ToolRef => validateToolRef(x);
export const client = new MantyxClient({ baseUrl: "https://mantyx.example", workspace: "acme", apiKey: "k" });
// @ts-expect-error a run request has no field "promt"
export const wrong: RunCreateRequest = { promt: "hi" };
`,
    );
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          strict: true,
          noEmit: true,
          lib: ["ES2022", "DOM", "DOM.Iterable"],
          types: [],
        },
        files: ["consumer.ts"],
      }),
    );
    const tsc = require.resolve("typescript/bin/tsc");
    expect(() => execFileSync(process.execPath, [tsc, "-p", app], { cwd: app, encoding: "utf8" })).not.toThrow();
  }, 60_000);

  it('tsc with the older node10 resolution (which ignores "exports") finds the subpath types through typesVersions', () => {
    writeFileSync(
      join(app, "legacy.ts"),
      `import { parseSse } from "@mantyx/wire-types/sse";
import { decodeEvents } from "@mantyx/wire-types/events";
import type { ToolRef } from "@mantyx/wire-types/types";
import { validateToolRef } from "@mantyx/wire-types/validators";
import { validateToolBudget } from "@mantyx/wire-types/validators/tool-budget";
import { MantyxClient } from "@mantyx/wire-types";
export const all = [parseSse, decodeEvents, validateToolRef, validateToolBudget, MantyxClient];
export const ref: ToolRef = { kind: "local", name: "t", description: "d", parameters: { type: "object" } };
`,
    );
    writeFileSync(
      join(app, "tsconfig.legacy.json"),
      JSON.stringify({
        compilerOptions: {
          module: "ESNext",
          moduleResolution: "node10",
          target: "ES2022",
          strict: true,
          noEmit: true,
          lib: ["ES2022", "DOM", "DOM.Iterable"],
          types: [],
          ignoreDeprecations: "5.0",
        },
        files: ["legacy.ts"],
      }),
    );
    const tsc = require.resolve("typescript/bin/tsc");
    expect(() =>
      execFileSync(process.execPath, [tsc, "-p", join(app, "tsconfig.legacy.json")], { cwd: app, encoding: "utf8" }),
    ).not.toThrow();
  }, 60_000);

  it("a browser bundle gets the browser variants (the client's platform module, the SSE framing); Node, workerd and a plain import get the server ones", async () => {
    const bundleFor = async (platform: "browser" | "node", conditions?: string[]): Promise<string> => {
      const out = await build({
        stdin: {
          contents:
            'export { MantyxCore, createRun, streamRun } from "@mantyx/wire-types/operations/unvalidated"; export { parseSse, createSseParser } from "@mantyx/wire-types/sse";',
          resolveDir: app,
          loader: "js",
        },
        bundle: true,
        format: "esm",
        platform,
        ...(conditions && { conditions }),
        write: false,
        logLevel: "silent",
      });
      return out.outputFiles[0]!.text;
    };
    // The redirect loop (runtime/client/internal/platform.ts) is what a browser could never run;
    // the server SSE framing decodes ranges of bytes (runtime/sse/framing.ts), the browser one splits text.
    const server = (code: string): void => {
      expect(code).toContain("redirect count exceeded");
      expect(code).toContain(".decode(c.subarray(");
      expect(code).not.toContain("text.split(");
    };
    const browser = await bundleFor("browser");
    expect(browser).not.toContain("redirect count exceeded");
    expect(browser).not.toContain(".decode(c.subarray(");
    expect(browser).toContain("text.split(");
    server(await bundleFor("browser", ["workerd", "worker", "browser"]));
    server(await bundleFor("node"));
    const imported = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'import("@mantyx/wire-types/codegen/v1").then((m) => console.log(typeof m.ClientBase))',
      ],
      { cwd: app, encoding: "utf8" },
    );
    expect(imported.trim()).toBe("function");
  });

  it("the main entry bundles for the browser without Node built-ins", async () => {
    const out = await build({
      stdin: {
        contents: 'export { MantyxClient, parseSse, decodeEvents } from "@mantyx/wire-types";',
        resolveDir: app,
        loader: "js",
      },
      bundle: true,
      format: "esm",
      platform: "browser",
      write: false,
      logLevel: "silent",
    });
    const code = out.outputFiles[0]!.text;
    expect(code).toContain("text/event-stream");
    expect(code).not.toMatch(/from\s*["']node:/);
  });
});

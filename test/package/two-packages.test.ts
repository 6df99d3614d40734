/**
 * The two packages as a new user gets them, from their tarballs (`npm pack`,
 * which runs each `prepack` build), in scratch folders outside the repository:
 * - `@mantyx/wire-types` alone installs one package and nothing else (the
 *   runtime has no dependencies);
 * - with `@mantyx/wire-gen` beside it, the installed `mantyx-wire` (plain
 *   JavaScript, no TypeScript loader) generates from a copy of
 *   schema/openapi.yaml into src/gen; the output passes `tsc --strict` with
 *   NodeNext and with bundler resolution, importing the runtime through
 *   `@mantyx/wire-types/codegen/v1`; and a short program using the generated
 *   client, compiled by tsc, runs a tool round trip in plain Node against the
 *   mock server on 127.0.0.1.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmPack } from "./npm-pack.js";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
let scratch: string;
let typesTarball: string;
let genTarball: string;
let server: MockServer;

const npm = (args: string[], cwd: string): string =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const install = (cwd: string, tarballs: string[]): string =>
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", ...tarballs], cwd);

/** The packages an install put under node_modules (from npm's own record of it). */
function installed(app: string): string[] {
  const lock = JSON.parse(readFileSync(join(app, "node_modules", ".package-lock.json"), "utf8")) as {
    packages: Record<string, unknown>;
  };
  return Object.keys(lock.packages).map((p) => p.replace(/^node_modules\//, ""));
}

function scratchApp(name: string): string {
  const app = join(scratch, name);
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  return app;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "wire-two-packages-"));
  typesTarball = join(scratch, npmPack(scratch));
  genTarball = join(scratch, npmPack(scratch, "@mantyx/wire-gen"));
}, 300_000);

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("@mantyx/wire-types, installed alone", () => {
  it("is one package and nothing else", () => {
    const app = scratchApp("runtime-only");
    install(app, [typesTarball]);
    expect(installed(app)).toEqual(["node_modules/@mantyx/wire-types".replace(/^node_modules\//, "")]);
  }, 120_000);
});

describe("@mantyx/wire-gen beside it: mantyx-wire gen in a user's project", () => {
  let app: string;
  let bin: string;
  let genOutput: string;
  beforeAll(async () => {
    app = scratchApp("user-app");
    install(app, [typesTarball, genTarball]);
    mkdirSync(join(app, "schema"));
    cpSync(join(root, "schema/openapi.yaml"), join(app, "schema/openapi.yaml"));
    bin = join(app, "node_modules/.bin/mantyx-wire");
    genOutput = execFileSync(bin, ["gen", "--schema", "schema/openapi.yaml", "--out", "src/gen"], {
      cwd: app,
      encoding: "utf8",
    });
    server = await startMockServer();
  }, 240_000);

  it("the installed bin is plain JavaScript and generates src/gen from a copy of the schema", () => {
    expect(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
    expect(existsSync(join(app, "node_modules/tsx"))).toBe(false);
    expect(genOutput).toMatch(/^mantyx-wire gen: \d+ files in src\/gen\//);
    const client = readFileSync(join(app, "src/gen/client.ts"), "utf8");
    expect(client).toContain('from "@mantyx/wire-types/codegen/v1"');
    expect(client).not.toContain("../runtime/");
  }, 120_000);

  it("the installed bin holds the pure-JavaScript code it imports (no package is imported from node_modules), and those packages' licences", () => {
    const dist = join(app, "node_modules/@mantyx/wire-gen/dist");
    const files = [
      "mantyx-wire.js",
      "level-thread-worker.js",
      ...readdirSync(join(dist, "chunks")).map((f) => join("chunks", f)),
    ];
    const imported = new Set(
      files.flatMap((f) =>
        [...readFileSync(join(dist, f), "utf8").matchAll(/^(?:import|export|\})[^\n]*\bfrom "([^"]+)";$/gm)].map(
          (m) => m[1]!,
        ),
      ),
    );
    expect([...imported].filter((specifier) => !specifier.startsWith("node:") && !specifier.startsWith("."))).toEqual(
      [],
    );
    expect(imported).toContain("node:fs");
    const licences = readFileSync(join(dist, "THIRD_PARTY_LICENSES.txt"), "utf8");
    for (const name of [
      "ajv",
      "commander",
      "js-yaml",
      "fast-uri",
      "fast-deep-equal",
      "json-schema-traverse",
      "handlebars",
    ])
      expect(licences).toMatch(new RegExp(`^${name} \\d+\\.\\d+\\.\\d+ \\(`, "m"));
    expect(licences).toContain("Permission is hereby granted");
  });

  const PROGRAM = `import { MantyxClient } from "./gen/client.js";
import type { RunCreateRequest } from "./gen/types.js";

// (No @types/node in this app: the generated code needs none.)
declare const process: { env: Record<string, string | undefined> };

const client = new MantyxClient({ baseUrl: process.env.MANTYX_URL!, workspace: process.env.MANTYX_WORKSPACE!, apiKey: process.env.MANTYX_API_KEY! });
const spec: RunCreateRequest = {
  systemPrompt: "You are a cashier.",
  prompt: "What is 42 USD with tax?",
  tools: [{ kind: "local", name: "compute_total", description: "Add tax.", parameters: { type: "object" } }],
  metadata: { args: JSON.stringify({ amount: 42 }) },
};
const { runId } = await client.createRun(spec);
const seen: string[] = [];
for await (const event of client.streamRun(runId)) {
  seen.push(event.type as string);
  if (event.type === "local_tool_call") {
    const outcome = await client.postToolResult(runId, { toolUseId: event.data.toolUseId, result: JSON.stringify({ total: 50.4 }) });
    seen.push("posted:" + outcome.status);
  }
}
console.log(JSON.stringify(seen));
`;

  for (const resolution of ["NodeNext", "bundler"] as const) {
    it(`the output and a program using it pass tsc --strict (${resolution} resolution)`, () => {
      writeFileSync(join(app, "src/main.ts"), PROGRAM);
      const options =
        resolution === "NodeNext"
          ? { module: "NodeNext", moduleResolution: "NodeNext" }
          : { module: "ESNext", moduleResolution: "bundler" };
      const config = join(app, `tsconfig.${resolution}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            ...options,
            target: "ES2022",
            strict: true,
            noEmit: true,
            allowJs: true,
            skipLibCheck: false,
            lib: ["ES2022", "DOM", "DOM.Iterable"],
            types: [],
          },
          include: ["src"],
        }),
      );
      // A type error in src/main.ts must fail: the check is not vacuous.
      writeFileSync(
        join(app, "src/wrong.ts"),
        'import type { RunCreateRequest } from "./gen/types.js";\n// @ts-expect-error misspelt field\nexport const r: RunCreateRequest = { promt: "x" };\n',
      );
      expect(() => execFileSync(process.execPath, [tsc, "-p", config], { cwd: app, encoding: "utf8" })).not.toThrow();
    }, 300_000); // tsc over the generated output: minutes on a loaded 2-core machine
  }

  /** Compiles PROGRAM into build/main.js (once). */
  function buildProgram(): void {
    if (existsSync(join(app, "build/main.js"))) return;
    writeFileSync(join(app, "src/main.ts"), PROGRAM);
    const config = join(app, "tsconfig.build.json");
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          strict: true,
          allowJs: true,
          outDir: "build",
          rootDir: "src",
          lib: ["ES2022", "DOM", "DOM.Iterable"],
          types: [],
        },
        include: ["src"],
      }),
    );
    execFileSync(process.execPath, [tsc, "-p", config], { cwd: app, encoding: "utf8" });
  }

  it("a program using the generated client runs a tool round trip in plain Node against a local server", async () => {
    buildProgram();
    // Asynchronously: the mock server runs in this process and must answer meanwhile.
    const { stdout: out } = await promisify(execFile)(process.execPath, [join(app, "build/main.js")], {
      cwd: app,
      encoding: "utf8",
      env: {
        ...process.env,
        MANTYX_URL: server.url,
        MANTYX_WORKSPACE: server.workspace,
        MANTYX_API_KEY: server.apiKey,
      },
    });
    const seen = JSON.parse(out) as string[];
    expect(seen).toContain("local_tool_call");
    expect(seen).toContain("posted:accepted");
    expect(seen.at(-1)).toBe("result");
  }, 240_000); // it compiles the program (tsc) when no test before did

  it("the same program completes its run against `mantyx-wire mock --port 0 --workspace demo --api-key mantyx_test` started from the installed bin", async () => {
    buildProgram();
    // The mock is the installed package's own process.
    const mock = spawn(bin, ["mock", "--port", "0", "--workspace", "demo", "--api-key", "mantyx_test"], {
      cwd: app,
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await firstLine(mock);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const { stdout: out } = await promisify(execFile)(process.execPath, [join(app, "build/main.js")], {
        cwd: app,
        encoding: "utf8",
        env: { ...process.env, MANTYX_URL: url, MANTYX_WORKSPACE: "demo", MANTYX_API_KEY: "mantyx_test" },
      });
      const seen = JSON.parse(out) as string[];
      expect(seen.filter((s) => s === "local_tool_call")).toHaveLength(1);
      expect(seen).toContain("posted:accepted");
      expect(seen.at(-1)).toBe("result");
    } finally {
      const exited = new Promise((resolve) => mock.once("exit", resolve));
      mock.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  }, 120_000);
});

/** The first line a child prints on stdout (the mock's URL), or its stderr if it exits first. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d));
    child.stdout!.on("data", (d: Buffer) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before printing its URL:\n${err}`)));
  });
}

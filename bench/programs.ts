/**
 * The programs whose bundles the size bars measure: what the README shows a
 * user writing, importing the package by name (`packageSources` maps the
 * names to this repository's sources). Shared by the bench (bench/client.ts
 * `sizeRows`) and the test that checks what each bundles
 * (test/client/bundles.test.ts).
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile, type Plugin } from "esbuild";
import { browserPlatform } from "../scripts/platform-variants.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));

/** The client options of every program (a test runs the programs against the mock server by replacing these values). */
export const PROGRAM_OPTIONS = { baseUrl: "https://mantyx.example", workspace: "acme", apiKey: "mantyx_key" } as const;
const CLIENT = JSON.stringify(PROGRAM_OPTIONS);
const STREAM = `const { runId } = await createRun(client, { systemPrompt: "You are helpful.", prompt: "Hello" });
for await (const event of streamRun(client, runId)) console.log(event.type);`;

export const PROGRAMS = {
  /** Create a run and stream it, with default validation (README, "Small bundles"). */
  createAndStream: `import { MantyxCore, createRun, streamRun } from "@mantyx/wire-types/operations";
const client = new MantyxCore(${CLIENT});
${STREAM}`,
  /** The same with validation off, as the README shows it: the functions without validators. */
  createAndStreamUnvalidated: `import { MantyxCore, createRun, streamRun } from "@mantyx/wire-types/operations/unvalidated";
const client = new MantyxCore(${CLIENT});
${STREAM}`,
  /** The same on the all-in-one class (every operation, every body validator). */
  createAndStreamClass: `import { MantyxClient } from "@mantyx/wire-types";
const client = new MantyxClient(${CLIENT});
const { runId } = await client.createRun({ systemPrompt: "You are helpful.", prompt: "Hello" });
for await (const event of client.streamRun(runId)) console.log(event.type);`,
  /** The agent loop with a local tool, on the core client. */
  runAgentWithTools: `import { MantyxCore } from "@mantyx/wire-types/operations";
import { runAgent, ToolRegistry } from "@mantyx/wire-types";
const client = new MantyxCore(${CLIENT});
const tools = new ToolRegistry().local({ name: "add", description: "Adds two numbers.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } }, handler: ({ a, b }) => String(Number(a) + Number(b)) });
console.log(await runAgent(client, { systemPrompt: "You are helpful.", prompt: "1 + 2?" }, { tools }));`,
  /** Every validator. */
  allValidators: `export * from "@mantyx/wire-types/validators";`,
  /** The usual alternative: openapi-fetch and eventsource-parser's stream. */
  peer: `export { default as createClient } from "openapi-fetch"; export { EventSourceParserStream } from "eventsource-parser/stream";`,
} as const;

export type ProgramName = keyof typeof PROGRAMS;

/** The package's entries, resolved to the sources they are built from. */
const ENTRIES: Record<string, string> = {
  "@mantyx/wire-types": "index.ts",
  "@mantyx/wire-types/operations": "generated/operations.ts",
  "@mantyx/wire-types/operations/unvalidated": "generated/operations-unvalidated.ts",
  "@mantyx/wire-types/validators": "generated/validators/index.js",
};

export const packageSources: Plugin = {
  name: "package-sources",
  setup(b) {
    b.onResolve({ filter: /^@mantyx\/wire-types/ }, (args) => {
      const file = ENTRIES[args.path];
      if (file === undefined) throw new Error(`bench/programs.ts: no source for ${args.path}`);
      return { path: fileURLToPath(new URL(file, `file://${root}`)) };
    });
  },
};

export interface Bundle {
  /** Bytes minified, and gzipped (-9), over every emitted file (chunks of dynamic imports included). */
  min: number;
  gz: number;
  /** The emitted code, entry first. */
  code: string[];
  /** The repository files in the bundle (paths relative to the root). */
  inputs: string[];
}

/**
 * esbuild, browser platform, ESM, minified, with code splitting: every
 * emitted chunk is counted. The client's platform module is its browser
 * variant, as the packed package's `browser` condition resolves it
 * (scripts/platform-variants.mjs).
 */
export async function bundle(source: string): Promise<Bundle> {
  const out = await build({
    stdin: { contents: source, resolveDir: root, loader: "ts", sourcefile: "program.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    splitting: true,
    outdir: "/bundle-out",
    write: false,
    metafile: true,
    plugins: [packageSources, browserPlatform],
    logLevel: "silent",
  });
  let min = 0;
  let gz = 0;
  for (const file of out.outputFiles) {
    min += file.contents.length;
    gz += gzipSync(file.contents, { level: 9 }).length;
  }
  return { min, gz, code: out.outputFiles.map((f) => f.text), inputs: inputsOf(out.metafile) };
}

function inputsOf(meta: Metafile): string[] {
  const files = new Set<string>();
  for (const output of Object.values(meta.outputs)) for (const input of Object.keys(output.inputs)) files.add(input);
  return [...files].sort();
}

/**
 * Generated (ahead-of-time) validators against ajv compiling at run time, on
 * the real schema and a realistic run spec (~2.3 KB, 8 tools of every kind).
 *
 *   cold start   a fresh `node` process imports the validator and checks one
 *                spec, vs one that imports ajv, `new Ajv2020`, compiles the
 *                same component (same options and vendor keywords) and checks
 *                once. Timed inside the child from before the first import
 *                to after the first validation (node's own boot excluded),
 *                and as whole-process wall time.
 *   throughput   validations per second, valid and invalid spec: generated
 *                vs ajv (discriminator: true) vs ajv on the same schema
 *                without discriminators (plain oneOf).
 *   size         esbuild bundle (browser) + minify + gzip of an entry
 *                importing one validator through index.js, of all of them,
 *                of the two a create-and-stream program uses, and of the
 *                ten largest modules each alone.
 *
 * Medians of several runs; every side is measured in the same run so the
 * ratios hold on a noisy machine. `npx tsx bench/validators.ts [--quick]`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { emitValidators } from "../generator/emit/validators.js";
import { addComponents, componentRef, createValidatorAjv } from "../generator/emit/validators/ajv.js";
import { withoutDiscriminators } from "../generator/emit/validators/prepare.js";
import { loadSchema } from "../generator/load/index.js";
import type { BenchRow } from "./table.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const require = createRequire(import.meta.url);

interface ColdStart {
  inProcess: number;
  wall: number;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** A realistic POST /agent-runs body: 8 tools covering every tool kind. */
export const runSpec = {
  name: "support-triage",
  modelId: "openai:gpt-5.5",
  systemPrompt:
    "You are the support triage agent for Acme. Classify the ticket, look up the customer, check recent incidents and either answer or hand off to a human. Keep answers under 150 words.",
  reasoningLevel: "medium",
  prompt:
    "Customer 4411 says invoices since March show the wrong VAT rate. What happened and what should we tell them?",
  tools: [
    { kind: "mantyx", id: "tool_cm6abc123" },
    { kind: "mantyx_plugin", name: "github_search_repos" },
    {
      kind: "local",
      name: "lookup_customer",
      description: "Fetch a customer record by id.",
      parameters: {
        type: "object",
        properties: { id: { type: "string" } },
        required: ["id"],
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { name: { type: "string" }, plan: { type: "string" } } },
    },
    {
      kind: "local",
      name: "send_email",
      description: "Send a transactional email.",
      parameters: {
        type: "object",
        properties: { to: { type: "string", format: "email" }, subject: { type: "string" }, body: { type: "string" } },
        required: ["to", "subject", "body"],
      },
      longRunning: false,
    },
    {
      kind: "a2a",
      name: "billing_agent",
      agentCardUrl: "https://billing.example/.well-known/agent-card.json",
      headers: { Authorization: "Bearer peer-token" },
    },
    {
      kind: "a2a_local",
      name: "intranet_hr_agent",
      agentCard: {
        name: "Acme HR",
        description: "Answers HR questions.",
        url: "https://hr.intranet.acme/a2a",
        skills: [],
      },
    },
    { kind: "mcp", name: "github", url: "https://mcp.example/github", toolFilter: ["search_repos", "get_issue"] },
    {
      kind: "mcp_local",
      name: "fs",
      serverInfo: { name: "mcp-server-filesystem", version: "0.4.1" },
      tools: [
        {
          name: "fs_read_file",
          description: "Read a file under /workspace.",
          inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        },
        {
          name: "fs_list_dir",
          inputSchema: { type: "object", properties: { path: { type: "string" } } },
          annotations: { readOnlyHint: true },
        },
      ],
    },
  ],
  budgets: { maxToolTurns: 32 },
  outputSchema: {
    name: "triage",
    schema: {
      type: "object",
      properties: { answer: { type: "string" }, handoff: { type: "boolean" } },
      required: ["answer"],
    },
  },
  loopDetection: { consecutiveThreshold: 3, hardCutoffThreshold: 6 },
  toolBudgets: { github_search_repos: { maxCalls: 4 }, send_email: { maxCalls: 1 } },
  supervisor: { interval: 5, modelId: "platform:demo" },
  plan: {
    brief: "Diagnose the VAT issue and draft a reply",
    steps: ["Look up customer", "Check incidents", "Draft reply"],
  },
  metadata: { customer: "acme", ticket: "T-4411" },
};

/** The same spec with one wrong tool ref: an a2a peer without its agentCardUrl. */
export const invalidRunSpec = {
  ...runSpec,
  tools: runSpec.tools.map((t) => (t.kind === "a2a" ? { kind: "a2a", name: "billing_agent" } : t)),
};

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/**
 * Median ops/s of each validator on `data`. Rounds are interleaved (every
 * candidate runs once per round, in rotating order) so that CPU frequency
 * and neighbours on a shared machine hit all candidates alike.
 */
function opsPerSecond(
  candidates: readonly Validate[],
  data: unknown,
  expected: boolean,
  rounds: number,
  ms: number,
): number[][] {
  for (const f of candidates) {
    if (f(data) !== expected)
      throw new Error(`bench validator returned ${!expected} for the ${expected ? "valid" : "invalid"} spec`);
    for (let i = 0; i < 5000; i++) f(data); // warm up (JIT)
  }
  const results: number[][] = candidates.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < candidates.length; k++) {
      const c = (k + r) % candidates.length;
      const f = candidates[c] as Validate;
      let n = 0;
      const start = performance.now();
      let elapsed = 0;
      while (elapsed < ms) {
        for (let i = 0; i < 100; i++) f(data);
        n += 100;
        elapsed = performance.now() - start;
      }
      results[c]?.push((n / elapsed) * 1000);
    }
  }
  return results;
}

/** Median of the per-round ratios a[i] / b[i] (paired: same round, same machine state). */
function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / (b[i] ?? NaN)));
}

/**
 * Runs each `node script` `runs` times, interleaved; per script the medians
 * of the in-process ms it prints and of the whole process's wall time.
 */
function coldStart(scripts: readonly string[], runs: number): Array<{ inProcess: number; wall: number }> {
  const inProcess: number[][] = scripts.map(() => []);
  const wall: number[][] = scripts.map(() => []);
  for (let i = 0; i < runs; i++) {
    scripts.forEach((script, s) => {
      const start = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [script], { encoding: "utf8" });
      wall[s]?.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (r.status !== 0) throw new Error(`node ${script} failed:\n${r.stderr}`);
      inProcess[s]?.push(Number(r.stdout.trim()));
    });
  }
  return scripts.map((_, s) => ({ inProcess: median(inProcess[s] ?? []), wall: median(wall[s] ?? []) }));
}

/** What a browser program bundles from `entry` (esbuild, browser, minify; every emitted file counted), and its gzip. */
async function gzipBundle(
  entry: string,
  resolveDir: string,
  external: string[] = [],
): Promise<{ min: number; gz: number }> {
  const out = await build({
    stdin: { contents: entry, resolveDir, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    external,
    write: false,
    logLevel: "silent",
  });
  let min = 0;
  let gz = 0;
  for (const file of out.outputFiles) {
    min += file.contents.length;
    gz += gzipSync(file.contents).length;
  }
  return { min, gz };
}

/**
 * The ten largest public validator modules, each bundled alone (`export *`
 * of the module: what a program importing it gets).
 */
async function largestModules(validatorsDir: string): Promise<BenchRow[]> {
  const modules = readdirSync(validatorsDir).filter((f) => f.endsWith(".js") && f !== "index.js");
  const sized = await Promise.all(
    modules.map(async (file) => ({ file, ...(await gzipBundle(`export * from "./${file}";`, validatorsDir)) })),
  );
  return sized
    .sort((a, b) => b.gz - a.gz)
    .slice(0, 10)
    .map(({ file, min, gz }) => ({
      group: "size: the ten largest modules (alone)",
      name: `validators/${file}`,
      value: gz,
      unit: "B gz",
      note: `${min} B minified`,
    }));
}

export async function runValidatorBench(opts: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const quick = opts.quick ?? false;
  const model = await loadSchema(join(root, "schema/openapi.yaml"), { cwd: root });
  // Under node_modules/ (gitignored) so the scripts resolve ajv from this repository's packages.
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
  const dir = mkdtempSync(join(root, "node_modules", ".cache", "wire-validators-bench-"));
  try {
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n'); // as in this package
    // The runtime contract the validators import, as plain JavaScript beside them (node runs the cold starts).
    await build({
      entryPoints: [join(root, "runtime/codegen/v1.ts")],
      bundle: true,
      format: "esm",
      platform: "neutral",
      outfile: join(dir, "runtime.mjs"),
      logLevel: "silent",
    });
    for (const file of emitValidators({ ...model, runtime: "./runtime.mjs" })) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.contents);
    }
    const rows: BenchRow[] = [];
    const specBytes = new TextEncoder().encode(JSON.stringify(runSpec)).length;
    const specNote = `${specBytes} B spec, ${runSpec.tools.length} tools`;

    // ── cold start ───────────────────────────────────────────────────────
    const validatorUrl = pathToFileURL(join(dir, "validators/run-create-request.js")).href;
    const genScript = join(dir, "cold-generated.mjs");
    writeFileSync(
      genScript,
      `const t0 = performance.now();
const { validateRunCreateRequest } = await import(${JSON.stringify(validatorUrl)});
const ok = validateRunCreateRequest(${JSON.stringify(runSpec)});
const ms = performance.now() - t0;
if (!ok) { console.error(JSON.stringify(validateRunCreateRequest.errors)); process.exit(1); }
console.log(ms);
`,
    );
    // The ajv side: ajv from node_modules (not bundled), plus the project's
    // ajv setup (options, vendor keywords, discriminator-mapping check)
    // bundled from TypeScript into one file so plain node runs it.
    const setup = join(dir, "ajv-setup.mjs");
    await build({
      entryPoints: [join(root, "generator/emit/validators/ajv.ts")],
      bundle: true,
      format: "esm",
      platform: "node",
      outfile: setup,
      logLevel: "silent",
      plugins: [
        {
          name: "ajv-from-node-modules",
          setup(b) {
            b.onResolve({ filter: /^ajv(\/|$)/ }, (args) => ({
              path: pathToFileURL(require.resolve(args.path)).href,
              external: true,
            }));
          },
        },
      ],
    });
    const ajvScript = join(dir, "cold-ajv.mjs");
    writeFileSync(
      ajvScript,
      `const schemas = JSON.parse(${JSON.stringify(JSON.stringify(model.schemas))});
const t0 = performance.now();
const { createValidatorAjv, addComponents, componentRef } = await import(${JSON.stringify(pathToFileURL(setup).href)});
const ajv = createValidatorAjv();
addComponents(ajv, schemas);
const validate = ajv.getSchema(componentRef("RunCreateRequest"));
const ok = validate(${JSON.stringify(runSpec)});
const ms = performance.now() - t0;
if (!ok) { console.error(JSON.stringify(validate.errors)); process.exit(1); }
console.log(ms);
`,
    );
    const emptyScript = join(dir, "cold-empty.mjs");
    writeFileSync(emptyScript, "console.log(0);\n");
    const runs = quick ? 5 : 11;
    const [empty, gen, live] = coldStart([emptyScript, genScript, ajvScript], runs) as [
      ColdStart,
      ColdStart,
      ColdStart,
    ];
    rows.push(
      {
        group: "cold start",
        name: "generated: import + first validation",
        value: gen.inProcess,
        unit: "ms",
        note: "in-process, RunCreateRequest",
      },
      {
        group: "cold start",
        name: "ajv: import + new Ajv + compile + first validation",
        value: live.inProcess,
        unit: "ms",
        ratio: live.inProcess / gen.inProcess,
        note: "ratio = ajv / generated",
      },
      {
        group: "cold start",
        name: "generated: whole node process",
        value: gen.wall,
        unit: "ms",
        note: `empty node process: ${empty.wall.toFixed(1)} ms`,
      },
      {
        group: "cold start",
        name: "ajv: whole node process",
        value: live.wall,
        unit: "ms",
        ratio: (live.wall - empty.wall) / (gen.wall - empty.wall),
        note: "ratio net of the empty process",
      },
    );

    // ── throughput ───────────────────────────────────────────────────────
    const generated = ((await import(validatorUrl)) as { validateRunCreateRequest: Validate }).validateRunCreateRequest;
    const withDiscriminator = createValidatorAjv();
    addComponents(withDiscriminator, model.schemas);
    const plainOneOf = createValidatorAjv();
    addComponents(plainOneOf, withoutDiscriminators(model.schemas));
    const liveDisc = withDiscriminator.getSchema(componentRef("RunCreateRequest")) as Validate;
    const livePlain = plainOneOf.getSchema(componentRef("RunCreateRequest")) as Validate;
    const rounds = quick ? 5 : 15;
    const ms = quick ? 100 : 200;
    for (const [label, data, expected] of [
      ["valid", runSpec, true],
      ["invalid (wrong tool ref)", invalidRunSpec, false],
    ] as const) {
      const [gs = [], ds = [], ps = []] = opsPerSecond([generated, liveDisc, livePlain], data, expected, rounds, ms);
      const [g, d, p] = [median(gs), median(ds), median(ps)];
      const errorCount = (f: Validate) => {
        f(data);
        return f.errors?.length ?? 0;
      };
      const errs = expected
        ? specNote
        : `errors: ${errorCount(generated)} generated / ${errorCount(liveDisc)} ajv+discriminator / ${errorCount(livePlain)} plain oneOf`;
      rows.push(
        { group: `throughput ${label}`, name: "generated", value: g, unit: "ops/s", ratio: 1, note: errs },
        {
          group: `throughput ${label}`,
          name: "ajv runtime-compiled, discriminator",
          value: d,
          unit: "ops/s",
          ratio: pairedRatio(ds, gs),
          note: "ratio = this / generated, median of per-round ratios",
        },
        {
          group: `throughput ${label}`,
          name: "ajv runtime-compiled, plain oneOf",
          value: p,
          unit: "ops/s",
          ratio: pairedRatio(ps, gs),
        },
      );
    }

    // ── size ─────────────────────────────────────────────────────────────
    const validatorsDir = join(dir, "validators");
    for (const name of [
      "validateRunCreateRequest",
      "validateAgentRunEvent",
      "validateToolRef",
      "validateToolResultRequest",
    ]) {
      const s = await gzipBundle(`import { ${name} } from "./index.js"; globalThis.v = ${name};`, validatorsDir);
      rows.push({
        group: "size (esbuild min+gzip)",
        name: `${name} via index.js`,
        value: s.gz,
        unit: "B gz",
        note: `${s.min} B minified`,
      });
    }
    const all = await gzipBundle(`import * as all from "./index.js"; globalThis.v = all;`, validatorsDir);
    rows.push({
      group: "size (esbuild min+gzip)",
      name: `all validators (index.js)`,
      value: all.gz,
      unit: "B gz",
      note: `${all.min} B minified; bar: <= 50 kB`,
    });
    // What a program that creates a run and streams it bundles of the validators (the client's body check, the stream's event check).
    const createAndStream = await gzipBundle(
      `import { validateRunCreateRequestAllErrors } from "./run-create-request.all-errors.js"; import { validateAgentRunEventReceive } from "./agent-run-event.receive.js"; globalThis.v = [validateRunCreateRequestAllErrors, validateAgentRunEventReceive];`,
      validatorsDir,
    );
    rows.push({
      group: "size (esbuild min+gzip)",
      name: "create-and-stream: RunCreateRequest all-errors + AgentRunEvent receive",
      value: createAndStream.gz,
      unit: "B gz",
      note: `${createAndStream.min} B minified`,
    });
    rows.push(...(await largestModules(validatorsDir)));
    const ajvSize = await gzipBundle(`import { Ajv2020 } from "ajv/dist/2020.js"; globalThis.v = Ajv2020;`, root);
    rows.push({
      group: "size (esbuild min+gzip)",
      name: "ajv/dist/2020 alone (for reference)",
      value: ajvSize.gz,
      unit: "B gz",
      note: `${ajvSize.min} B minified, before any schema`,
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { printTable } = await import("./table.js");
  printTable(await runValidatorBench({ quick: process.argv.includes("--quick") }));
}

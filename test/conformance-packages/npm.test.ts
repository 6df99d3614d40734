/**
 * The npm runner API from the packed package: `npm pack`, then a TypeScript
 * project in a scratch folder outside the repository installs the tarball
 * (and ajv, for the receive-level components the package has no receive
 * build of), builds adapters on the package's own SSE decoder, event layer,
 * validators and transcript validator, compiles with tsc (NodeNext, strict)
 * and runs the suite through `@mantyx/wire-types/conformance`. Its
 * known-failures file lists the transcript cases (this SDK passes no
 * sequence-rule checker): each tier's passed count must be the manifest's
 * minus those. Then a fixture file in the installed package is changed and
 * the run must stop with the manifest error naming it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmPack } from "../package/npm-pack.js";
import { casesOf, expectTierLines, knownFailuresFile, REPO, scratchDir } from "./support.js";

const require = createRequire(import.meta.url);
const AJV_VERSION = (require("ajv/package.json") as { version: string }).version;

const ADAPTERS = `
import { Ajv2020 } from "ajv/dist/2020.js";
import { decodeEventMessage } from "@mantyx/wire-types";
import { frameShapeOf } from "@mantyx/wire-types/events";
import { createSseParser, type SseMessage } from "@mantyx/wire-types/sse";
import * as validators from "@mantyx/wire-types/validators";
import type { ConformanceAdapters, LoadedSuite } from "@mantyx/wire-types/conformance";

const byName = validators as unknown as Record<string, ((data: unknown) => boolean) | undefined>;

/** This SDK's adapters; it checks no transcript sequence rules (no checkTranscript). */
export function adapters(suite: LoadedSuite): ConformanceAdapters {
  const receive = suite.json("schema.receive.json") as { $id: string };
  const ajv = new Ajv2020({ strict: false, validateFormats: false, unicodeRegExp: true });
  ajv.addSchema(receive);
  return {
    decodeSse(chunks) {
      const out: SseMessage[] = [];
      const parser = createSseParser({ onMessage: (m) => void out.push(m) });
      for (const chunk of chunks) parser.feed(chunk);
      parser.end();
      return out;
    },
    decodeEvent(data, eventLine) {
      const event = decodeEventMessage({ event: eventLine, data: JSON.stringify(data), id: "" }, { validation: "off" }) as object;
      return { event, shape: frameShapeOf(event) ?? "envelope" };
    },
    validate(level, component, instance) {
      const compiled = level === "strict" ? byName["validate" + component] : (byName["validate" + component + "Receive"] ?? ajv.getSchema(receive.$id + "#/components/schemas/" + component));
      if (compiled === undefined) throw new Error("no validator for " + component);
      return compiled(instance) as boolean;
    },
  };
}

`;

const RUN = `
import { runConformance } from "@mantyx/wire-types/conformance";
import { loadSuiteFromDisk, readKnownFailures } from "@mantyx/wire-types/conformance/node";
import { adapters } from "./adapters.js";

try {
  const suite = await loadSuiteFromDisk();
  const report = await runConformance(suite, adapters(suite), { knownFailures: readKnownFailures("known_failures.txt") });
  for (const line of report.lines()) console.log(line);
  for (const f of report.failures) console.error(f.id + " (" + f.tier + "): " + f.problem);
  for (const p of report.problems) console.error(p);
  process.exitCode = report.ok ? 0 : 1;
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 2;
}
`;

let scratch: string;
let app: string;
const transcripts = casesOf()
  .filter((c) => c.id.startsWith("transcripts.json::"))
  .map((c) => c.id);

beforeAll(() => {
  scratch = scratchDir("npm-conformance");
  const tarball = npmPack(scratch);
  app = join(scratch, "sdk");
  mkdirSync(join(app, "src"), { recursive: true });
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify(
      {
        name: "other-sdk",
        private: true,
        type: "module",
        dependencies: { "@mantyx/wire-types": `file:../${tarball}`, ajv: AJV_VERSION },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        outDir: "dist",
        rootDir: "src",
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [join(REPO, "node_modules/@types")],
      },
      include: ["src"],
    }),
  );
  writeFileSync(join(app, "src", "adapters.ts"), ADAPTERS);
  writeFileSync(join(app, "src", "run.ts"), RUN);
  writeFileSync(
    join(app, "known_failures.txt"),
    knownFailuresFile(
      "No sequence-rule checker yet (no checkTranscript adapter): every transcript case fails.",
      transcripts,
    ),
  );
  // The tarball and ajv from npm's cache (the repository's own install put ajv there).
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
    cwd: app,
    stdio: ["ignore", "ignore", "inherit"],
  });
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", app], { stdio: "inherit" });
}, 360_000);

// A venv or a module copy is thousands of files: removing them takes a while on a busy machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 120_000);

const runSuite = () => spawnSync(process.execPath, [join(app, "dist", "run.js")], { cwd: app, encoding: "utf8" });

describe("the packed package's runner API in a TypeScript project outside the repository", () => {
  it("runs the suite: per tier, the manifest's count minus the known failures", () => {
    const run = runSuite();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    console.log(run.stdout);
    expect(transcripts.length).toBeGreaterThan(0);
    expectTierLines(run.stdout, transcripts);
  }, 120_000);

  it("stops with the manifest error when a fixture in the installed package was changed", () => {
    appendFileSync(
      join(app, "node_modules", "@mantyx", "wire-types", "generated", "fixtures", "sse", "framing.json"),
      " ",
    );
    const run = runSuite();
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("does not match its manifest.json");
    expect(run.stderr).toMatch(/sse\/framing\.json: sha256 [0-9a-f]{64}, manifest says [0-9a-f]{64}/);
    expect(run.stdout).toBe("");
  }, 60_000);
});

/**
 * One document, `mantyx-wire gen` (every artefact, through the bundled bin)
 * and openapi-typescript, alternating, several runs: the medians of wall
 * time, CPU time and peak RSS of each, and gen's ratios to
 * openapi-typescript. What `npm run corpus -- --set big --only github`
 * measures once, without `tsc`, so that a few runs fit in minutes. Each
 * command is a fresh process with the corpus run's usage probe (./run.ts).
 *
 *   npx tsx bench/corpus/alternate.ts <runs> <document> [<bin>[;<node flags,...>][;<ENV=value,...>]]...
 *
 * Without a bin, the bin is built from the sources as published. Several
 * bins (two builds to compare, or one bin with `MANTYX_WIRE_LEVEL_THREAD=off`)
 * run in turn with openapi-typescript, the order rotating every round
 * (../alternate.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { alternate } from "../alternate.js";
import { buildBin } from "../corpus.js";
import { median, runNode } from "./run.js";
import { CACHE, ROOT } from "./sources.js";

const OTS = join(ROOT, "node_modules", "openapi-typescript", "bin", "cli.js");

const [runsArg, docArg, ...specs] = process.argv.slice(2);
if (runsArg === undefined || docArg === undefined)
  throw new Error(
    "usage: npx tsx bench/corpus/alternate.ts <runs> <document> [<bin>[;<node flags>][;<ENV=value,...>]]...",
  );
const doc = resolve(docArg);
const built = specs.length === 0 ? buildBin() : undefined;
const commands = specs.length === 0 ? [built!.bin] : specs;
mkdirSync(join(CACHE, "work"), { recursive: true });
const work = mkdtempSync(join(CACHE, "work", "alternate-"));
const usage = join(work, "usage.json");
const results = new Map<string, Array<{ wall: number; cpu: number; rss: number }>>();
let runs = 0;
/** One fresh process of `what` (openapi-typescript, or a bin with its node flags and environment): its usage. */
async function runOnce(what: string): Promise<void> {
  // A new folder per run, all deleted at the end: see run.ts `timeGen`.
  const out = join(work, `out-${runs++}`);
  const [bin, flags = "", envs = ""] = what.split(";");
  const args =
    what === "ots"
      ? [OTS, doc, "-o", join(work, "ots.ts")]
      : [
          ...flags.split(",").filter(Boolean),
          resolve(bin!),
          "gen",
          "--schema",
          doc,
          "--out",
          out,
          "--runtime",
          relative(out, join(ROOT, "runtime", "codegen", "v1.js")),
        ];
  const saved = { ...process.env };
  for (const pair of envs.split(",").filter(Boolean))
    process.env[pair.slice(0, pair.indexOf("="))] = pair.slice(pair.indexOf("=") + 1);
  const m = await runNode(args, work, 900_000, usage);
  process.env = saved;
  if (m.code !== 0) throw new Error(`${what} exited ${m.code ?? m.signal}:\n${m.stderr.slice(-2000)}`);
  const row = { wall: m.wallMs, cpu: m.cpuMs ?? Number.NaN, rss: (m.maxRssKb ?? Number.NaN) / 1024 };
  const rows = [...(results.get(what) ?? []), row];
  results.set(what, rows);
  console.error(
    `run ${rows.length} ${what}: wall ${(row.wall / 1000).toFixed(1)} s, cpu ${(row.cpu / 1000).toFixed(1)} s, peak ${row.rss.toFixed(0)} MB`,
  );
}
try {
  // No warm-up: every run is a fresh process. The usage is the child's (the probe's), not this process's.
  await alternate(
    ["ots", ...commands].map((what) => () => runOnce(what)),
    Number(runsArg),
    0,
  );
} finally {
  built?.remove();
  rmSync(work, { recursive: true, force: true });
}
const ots = results.get("ots")!;
const otsWall = median(ots.map((r) => r.wall));
const otsCpu = median(ots.map((r) => r.cpu));
console.log(
  "| command | wall (median) | CPU (median) | peak RSS (max) | wall vs ots | CPU vs ots |\n| --- | ---: | ---: | ---: | ---: | ---: |",
);
for (const [what, rows] of results) {
  const wall = median(rows.map((r) => r.wall));
  const cpu = median(rows.map((r) => r.cpu));
  const name =
    what === "ots"
      ? "openapi-typescript"
      : specs.length === 0
        ? "mantyx-wire gen (built from the sources)"
        : relative(ROOT, what);
  const ratios = what === "ots" ? "| | " : `| ${(wall / otsWall).toFixed(2)}x | ${(cpu / otsCpu).toFixed(2)}x `;
  console.log(
    `| ${name} | ${(wall / 1000).toFixed(1)} s | ${(cpu / 1000).toFixed(1)} s | ${Math.max(...rows.map((r) => r.rss)).toFixed(0)} MB ${ratios}|`,
  );
}

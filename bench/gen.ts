/**
 * Whole-process time of `mantyx-wire gen` against openapi-typescript's CLI
 * on the same document, each in a fresh process (what a build pipeline
 * pays). Medians of several runs, measured in the same run so the ratio is
 * fair on a noisy machine.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchRow } from "./table.js";

const root = fileURLToPath(new URL("../", import.meta.url));

function timeCommand(cmd: string, args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(cmd, args, { cwd: root, stdio: "pipe", encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${result.stderr}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function runGenBench(opts: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const runs = opts.quick ? 3 : 5;
  const out = mkdtempSync(join(tmpdir(), "mantyx-gen-bench-"));
  try {
    const ours: number[] = [];
    const peer: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate so drift on a shared machine hits both alike.
      ours.push(timeCommand("npm", ["run", "-s", "gen", "--", "--out", join(out, "generated")]));
      peer.push(timeCommand("node", ["node_modules/openapi-typescript/bin/cli.js", "schema/openapi.yaml", "-o", join(out, "ots.ts")]));
    }
    const o = median(ours);
    const p = median(peer);
    return [
      { group: "gen (whole process)", name: "npm run gen (all artefacts)", value: o, unit: "ms", ratio: p / o, note: `bar: < 3000 ms; median of ${runs}` },
      { group: "gen (whole process)", name: "openapi-typescript CLI (types only)", value: p, unit: "ms", ratio: 1, note: "peer" },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import("./table.js");
  printTable(await runGenBench({ quick: process.argv.includes("--quick") }));
}

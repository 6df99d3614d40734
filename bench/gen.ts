/**
 * The published `mantyx-wire` command as a build pipeline runs it: the
 * bundled bin (generator/scripts/build.mjs, what `npm i -D @mantyx/wire-gen`
 * installs), each run a fresh process with a fresh output folder (cold, no
 * cache). Side by side, in the same run:
 * - `mantyx-wire --help` against a bare `node -e 0` (bar: at most 2.5x);
 * - `mantyx-wire gen` of every artefact from the MANTYX schema against the
 *   openapi-typescript CLI on the same document, which emits types only
 *   (bar: faster). openapi-typescript reads the bundled generated/openapi.json
 *   (it validates examples with Redocly, which does not know our vendor
 *   keywords; the bundled document is the same schema with them expanded).
 * Medians, alternating the commands so drift on a shared machine hits both.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BenchRow } from "./table.js";

const root = fileURLToPath(new URL("../", import.meta.url));

function timeCommand(cmd: string, args: string[]): number {
  return measureCommand(cmd, args).wall;
}

const cpuProbe = fileURLToPath(new URL("./cpu-usage.mjs", import.meta.url));

/** Wall time of `node <args>` and the CPU time (user + system) the process reports at exit (./cpu-usage.mjs). */
function measureNode(args: string[], cpuFile: string): { wall: number; cpu: number } {
  const { wall } = measureCommand(process.execPath, ["--import", pathToFileURL(cpuProbe).href, ...args], {
    BENCH_CPU_OUT: cpuFile,
  });
  return { wall, cpu: Number(readFileSync(cpuFile, "utf8")) };
}

function measureCommand(cmd: string, args: string[], env: Record<string, string> = {}): { wall: number } {
  const start = process.hrtime.bigint();
  const result = spawnSync(cmd, args, { cwd: root, stdio: "pipe", encoding: "utf8", env: { ...process.env, ...env } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${result.stderr}`);
  return { wall: ms };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function runGenBench(opts: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const runs = opts.quick ? 3 : 5;
  // Built like the published package, beside the sources so its dependencies resolve as in an install.
  const binDir = mkdtempSync(join(root, "generator", ".test-bin-"));
  const out = mkdtempSync(join(tmpdir(), "mantyx-gen-bench-"));
  try {
    timeCommand(process.execPath, [join(root, "generator/scripts/build.mjs"), binDir]);
    const bin = join(binDir, "mantyx-wire.js");
    const help: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < runs * 2 + 1; i++) {
      help.push(timeCommand(process.execPath, [bin, "--help"]));
      bare.push(timeCommand(process.execPath, ["-e", "0"]));
    }
    const ours: number[] = [];
    const peer: number[] = [];
    const oursCpu: number[] = [];
    const peerCpu: number[] = [];
    const cpuFile = join(out, "cpu.txt");
    for (let i = 0; i < runs; i++) {
      const dir = join(out, `run-${i}`);
      const o = measureNode([bin, "gen", "--schema", "schema/openapi.yaml", "--out", join(dir, "generated")], cpuFile);
      const p = measureNode(
        ["node_modules/openapi-typescript/bin/cli.js", "generated/openapi.json", "-o", join(dir, "ots.ts")],
        cpuFile,
      );
      ours.push(o.wall);
      oursCpu.push(o.cpu);
      peer.push(p.wall);
      peerCpu.push(p.cpu);
    }
    const h = median(help);
    const b = median(bare);
    const o = median(ours);
    const p = median(peer);
    const oc = median(oursCpu);
    const pc = median(peerCpu);
    return [
      {
        group: "cli start (whole process)",
        name: "mantyx-wire --help (bundled bin)",
        value: h,
        unit: "ms",
        ratio: h / b,
        note: `x of node -e 0; bar: <= 2.5x; median of ${help.length}`,
      },
      { group: "cli start (whole process)", name: "node -e 0", value: b, unit: "ms", ratio: 1, note: "baseline" },
      {
        group: "gen (whole process, cold)",
        name: "mantyx-wire gen (every artefact, bundled bin)",
        value: o,
        unit: "ms",
        ratio: p / o,
        note: `x faster than the peer; bar: > 1x; median of ${runs}`,
      },
      {
        group: "gen (whole process, cold)",
        name: "openapi-typescript CLI (types only)",
        value: p,
        unit: "ms",
        ratio: 1,
        note: "peer",
      },
      {
        group: "gen (CPU time of the process, cold)",
        name: "mantyx-wire gen (every artefact, bundled bin)",
        value: oc,
        unit: "ms",
        ratio: pc / oc,
        note: `x less CPU than the peer; median of ${runs}; steadier than wall time on a busy machine`,
      },
      {
        group: "gen (CPU time of the process, cold)",
        name: "openapi-typescript CLI (types only)",
        value: pc,
        unit: "ms",
        ratio: 1,
        note: "peer",
      },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(binDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import("./table.js");
  printTable(await runGenBench({ quick: process.argv.includes("--quick") }));
}

/**
 * `npm run bench`: every performance bar of the project, side by side with
 * the peers named in the issues, as ratios measured in this one run.
 * `npm run bench -- --quick` for fewer repetitions; `--only sse,gen` to pick.
 * Figures are medians over several runs; the machine is shared, so compare
 * ratios, not absolute numbers. Nothing here is asserted by the tests.
 */
import { runClientBench } from "./client.js";
import { runCorpusBench } from "./corpus.js";
import { runGenBench } from "./gen.js";
import { runItemStreamBench } from "./item-streams.js";
import { runMockLoadBench } from "./mock-load.js";
import { runSseBench } from "./sse.js";
import { printTable, type BenchRow } from "./table.js";
import { runValidatorBench } from "./validators.js";

const benches: Record<string, (opts: { quick?: boolean }) => Promise<BenchRow[]>> = {
  gen: runGenBench,
  validators: runValidatorBench,
  sse: runSseBench,
  client: runClientBench,
  items: runItemStreamBench,
  "mock-load": runMockLoadBench,
  corpus: runCorpusBench,
};

const quick = process.argv.includes("--quick");
const onlyArg =
  process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length) ??
  (process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined);
const selected = onlyArg ? onlyArg.split(",") : Object.keys(benches);

const rows: BenchRow[] = [];
for (const name of selected) {
  const run = benches[name];
  if (!run) throw new Error(`unknown bench "${name}"; choose from ${Object.keys(benches).join(", ")}`);
  console.error(`running ${name}${quick ? " (quick)" : ""}…`);
  rows.push(...(await run({ quick })));
}
printTable(rows);

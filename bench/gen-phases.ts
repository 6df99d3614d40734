/**
 * Where `gen`'s time and memory go on one document, phase by phase:
 * loading, each validation level's ajv compile, then each emitter, with
 * the CPU time of each phase and the heap and RSS after it. From the
 * sources, on this thread (no level thread), so each phase is counted once.
 *
 *   npx tsx bench/gen-phases.ts <document>
 *
 * docs/corpus.md has figures for documents of growing size.
 */
import { EMITTERS } from "../generator/emit/index.js";
import { createLevels, levelComponents } from "../generator/emit/validators/levels.js";
import { loadSchema } from "../generator/load/index.js";

process.env["MANTYX_WIRE_LEVEL_THREAD"] = "off";
const file = process.argv[2];
if (file === undefined) throw new Error("usage: npx tsx bench/gen-phases.ts <document>");
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let last = cpu();
const started = last;
const rows: string[][] = [];
const lap = (what: string): void => {
  const now = cpu();
  const m = process.memoryUsage();
  rows.push([what, (now - last).toFixed(0), (m.heapUsed / 2 ** 20).toFixed(0), (m.rss / 2 ** 20).toFixed(0)]);
  last = now;
};
const model = await loadSchema(file);
lap(`load (${Object.keys(model.schemas).length} components)`);
// One cache for the compile phases and the emitters, as `generate` hands one to every emitter: they reuse these instances.
const levels = createLevels(model);
for (const level of ["strict", "all-errors", "receive"] as const) {
  levels.ajv(level);
  lap(`ajv compile, ${level} level (${levelComponents(model, level).length} components)`);
}
for (const emitter of EMITTERS) {
  await emitter.emit(model, { levelThread: () => undefined, levels, names: levels.names });
  lap(`emit ${emitter.name}`);
}
rows.push(["total", (cpu() - started).toFixed(0), "", ""]);
console.log("| phase | CPU ms | heap MB after | RSS MB after |\n| --- | --- | --- | --- |");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);

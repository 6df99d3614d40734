// Preloaded (`node --import`) into a benchmarked command: at exit, writes the
// process's CPU time (user + system, ms) to $BENCH_CPU_OUT. On a shared
// machine wall time also counts the waits for a core; CPU time does not.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  if (process.env.BENCH_CPU_OUT) writeFileSync(process.env.BENCH_CPU_OUT, String((user + system) / 1000));
});

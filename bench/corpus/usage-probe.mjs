// Preloaded (`node --import`) into each command the corpus run measures: at
// exit, writes the process's CPU time (user + system, ms) and its peak
// resident set (maxRSS, KiB: worker threads included, they share the
// process) as JSON to $CORPUS_USAGE_OUT. Portable (no /usr/bin/time).
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const { userCPUTime, systemCPUTime, maxRSS } = process.resourceUsage();
  if (process.env.CORPUS_USAGE_OUT)
    writeFileSync(
      process.env.CORPUS_USAGE_OUT,
      JSON.stringify({ cpuMs: (userCPUTime + systemCPUTime) / 1000, maxRssKb: maxRSS }),
    );
});

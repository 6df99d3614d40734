/**
 * The level thread's worker (./level-thread.ts): compiles the levels of the
 * model it is given and sends their modules' text, formatted, then (if it
 * `formats`) answers each batch
 * of the fixture cases' questions and formats the module texts it is sent,
 * in order.
 */
import { parentPort, workerData } from "node:worker_threads";
import { judgeVerdict, levelErrorsJudge, levelReceiveJudge } from "../fixtures/case-judges.js";
import type { LiveAjv } from "../fixtures/live-ajv.js";
import { levelModuleText } from "./level-module-text.js";
import { createLevels, levelComponents } from "./levels.js";
import { formatModuleSync } from "./format.js";
import { fixturesOptIn } from "../opt-in.js";
import { toThreadError, type FromWorker, type LevelThreadInput, type ToWorker } from "./level-thread.js";

const { model, levels, formats, runtimes } = workerData as LevelThreadInput;
const port = parentPort!;
// This thread's own levels: an instance exists on one thread only (./level-thread.ts). As on the main thread
// (../index.ts), their functions run only where the fixture suite judges its cases with them.
const cache = createLevels(model, undefined, { run: fixturesOptIn(model).skipped === undefined });
const post = (message: FromWorker): void => port.postMessage(message);

try {
  // The order one thread compiles them in: the same error comes first.
  for (const level of levels) {
    post({
      kind: "module",
      level,
      text: levelComponents(model, level).length > 0 ? levelModuleText(cache, level, runtimes[level]!) : undefined,
    });
  }
  // Without the fixture suite nothing more is asked (./level-thread.ts `threadPlan`): the thread ends, and its
  // heap (the strict level's ajv instance: hundreds of MB on GitHub's document) is freed while `gen` goes on.
  if (!formats) process.exit(0);
  const judges: Record<"errors" | "receive", () => LiveAjv> = {
    errors: lazy(() => levelErrorsJudge(cache)),
    receive: lazy(() => levelReceiveJudge(cache)),
  };
  port.on("message", (message: ToWorker) => {
    try {
      if (message.kind === "format") post({ kind: "formatted", text: formatModuleSync(message.source) });
      else
        post({
          kind: "verdicts",
          verdicts: message.items.map(([judge, pointer, json]) =>
            judgeVerdict(judges[judge](), pointer, JSON.parse(json)),
          ),
        });
    } catch (error) {
      post({ kind: "failed", error: toThreadError(error) });
    }
  });
} catch (error) {
  post({ kind: "failed", error: toThreadError(error) });
}

function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

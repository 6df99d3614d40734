/**
 * The level thread's worker (./level-thread.ts): compiles the levels of the
 * document it is sent first and sends their modules' text, printed (without
 * the fixture suite: in parts, printed by whichever thread claims each
 * first), then (if it `formats`) answers each batch of the fixture cases'
 * questions and prints the module texts it is sent, in order.
 */
import { parentPort } from "node:worker_threads";
import { judgeVerdict, levelErrorsJudge, levelReceiveJudge } from "../fixtures/case-judges.js";
import type { LiveAjv } from "../fixtures/live-ajv.js";
import { chunks, levelModuleStatementsOf, levelModuleText, printLevelModule } from "./level-module-text.js";
import { createLevels, levelComponents } from "./levels.js";
import { fixturesOptIn } from "../opt-in.js";
import {
  CLAIMED_BY_WORKER,
  PARTS,
  toThreadError,
  type FromWorker,
  type LevelThreadInput,
  type ToWorker,
} from "./level-thread.js";

const port = parentPort!;
const post = (message: FromWorker): void => port.postMessage(message);

/** What the fixture suite asks once the levels are printed (`formats`: ./level-thread.ts `threadPlan`). */
let answer: ((message: Exclude<ToWorker, LevelThreadInput>) => void) | undefined;

// Started before the document is read (./level-thread.ts `spareLevelWorker`): its first message is the work.
port.on("message", (message: ToWorker) => {
  try {
    if (message.kind === "start") answer = start(message);
    else answer!(message);
  } catch (error) {
    post({ kind: "failed", error: toThreadError(error) });
  }
});

/** Compiles and prints the levels of `input`, then ends the thread or (where it `formats`) says how it answers. */
function start({
  model,
  levels,
  formats,
  runtimes,
}: LevelThreadInput): (message: Exclude<ToWorker, LevelThreadInput>) => void {
  // This thread's own levels: an instance exists on one thread only (./level-thread.ts). As on the main thread
  // (../index.ts), their functions run only where the fixture suite judges its cases with them.
  const cache = createLevels(model, undefined, { run: fixturesOptIn(model).skipped === undefined });
  // The order one thread compiles them in: the same error comes first.
  for (const level of levels) {
    if (levelComponents(model, level).length === 0) post({ kind: "module", level, text: undefined });
    else if (formats) post({ kind: "module", level, text: levelModuleText(cache, level, runtimes[level]!) });
    else {
      // The main thread waits for this module by now: both print its parts, each claiming the next it prints
      // (./level-thread.ts `FromWorker`), this thread from the first on.
      const sources = chunks(levelModuleStatementsOf(cache, level, runtimes[level]!), PARTS);
      const claims = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * sources.length);
      post({ kind: "parts", level, sources, claims });
      const claimed = new Int32Array(claims);
      for (let i = 0; i < sources.length && Atomics.compareExchange(claimed, i, 0, CLAIMED_BY_WORKER) === 0; i++)
        post({ kind: "part", level, index: i, text: printLevelModule(level, sources[i]!, runtimes[level]!) });
    }
  }
  // Without the fixture suite nothing more is asked: the thread ends, and its heap (the strict level's ajv
  // instance: hundreds of MB on GitHub's document) is freed while `gen` goes on.
  if (!formats) process.exit(0);
  const judges: Record<"errors" | "receive", () => LiveAjv> = {
    errors: lazy(() => levelErrorsJudge(cache)),
    receive: lazy(() => levelReceiveJudge(cache)),
  };
  return (message) => {
    if (message.kind === "format")
      post({ kind: "formatted", text: printLevelModule(message.level, message.source, message.runtime) });
    else
      post({
        kind: "verdicts",
        verdicts: message.items.map(([judge, pointer, json]) =>
          judgeVerdict(judges[judge](), pointer, JSON.parse(json)),
        ),
      });
  };
}

function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

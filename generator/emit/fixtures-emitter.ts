/**
 * The "fixtures" emitter as `generate` runs it: `emitFixtures`
 * (./fixtures.ts) in a worker thread (./worker.ts), the largest emitter,
 * beside the others. `prepare` starts the worker while the schema loads; it
 * loads the emitter and reads the hand-written cases in the meantime, and
 * starts on the model as soon as the loader has built it (`start`), while
 * the loader's last checks run.
 *
 * This module loads nothing of the emitter itself (nor of the loader): on
 * the main thread the fixture code is never loaded.
 *
 * Opt-in (./opt-in.ts): for a document without `x-fixture-suite` the
 * worker is dropped unused and the emitter writes nothing.
 */
import { schemaSourceFile } from "../load/source-path.js";
import type { EmittedFile, Emitter, LoadedSchema, PrepareContext, PreparedEmitter } from "../model.js";
import { casesDirOf, schemaFileOf, type FixturesOptions } from "./fixtures/cases-dir.js";
import { fixturesOptIn } from "./opt-in.js";
import { EmitterWorker } from "./worker.js";

/** ./fixtures.ts, for the worker (without a query tsx may add to module URLs; the worker has its own loading). */
const FIXTURES_MODULE = new URL("./fixtures.ts", import.meta.url.replace(/[?#].*$/, ""));

export function createFixturesEmitter(options: FixturesOptions = {}): Emitter {
  let prepared: EmitterWorker | undefined;
  let started: { readonly model: LoadedSchema; readonly worker: EmitterWorker; readonly files: Promise<EmittedFile[]> } | undefined;
  return {
    name: "fixtures",
    prepare(context: PrepareContext): PreparedEmitter {
      // The cases folder the model will name (emitFixtures checks that it does before using what was read).
      const casesDir = casesDirOf(schemaSourceFile(context.schemaPath, context.cwd), options);
      const worker = (prepared ??= fixturesWorker(casesDir));
      return {
        start: (model) => {
          if (prepared !== worker || fixturesOptIn(model).skipped !== undefined) return;
          prepared = undefined;
          const files = worker.run(model, [options]);
          files.catch(() => {}); // awaited by emit
          started = { model, worker, files };
        },
        release: () => {
          if (prepared === worker) prepared = undefined;
          if (started?.worker === worker) started = undefined;
          void worker.close();
        },
      };
    },
    emit(model) {
      if (fixturesOptIn(model).skipped !== undefined) return [];
      if (started?.model === model) {
        const { files } = started;
        started = undefined;
        return files;
      }
      const worker = prepared ?? fixturesWorker(casesDirOf(schemaFileOf(model), options));
      prepared = undefined;
      return worker.run(model, [options]);
    },
  };
}

export const fixturesEmitter: Emitter = createFixturesEmitter();

/** A worker loading ./fixtures.ts and running `prepareFixtures(casesDir)`, to run `emitFixtures`. */
function fixturesWorker(casesDir: string): EmitterWorker {
  return new EmitterWorker(FIXTURES_MODULE, "emitFixtures", { name: "prepareFixtures", args: [casesDir] });
}

/**
 * The emitters, in order. Adding an artefact is adding one emitter here
 * (protobuf-es `createEcmaScriptPlugin` style): each is
 * `(model, context) -> { files, diagnostics }` (../model.ts). `generate`
 * runs them all, owns what they share (the context: the validators' level
 * thread, which it ends when the run ends, the levels' ajv instances, and the
 * components' names), and hands the files to the
 * header step (generator/header.ts).
 */
import type { Diagnostic } from "../diagnostics.js";
import { finalizeFiles, type Produced } from "../header.js";
import type { EmitContext, EmitResult, EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { clientEmitter } from "./client.js";
import { componentNames } from "./component-names.js";
import { eventsEmitter } from "./events.js";
import { fixturesEmitter } from "./fixtures.js";
import { typesEmitter } from "./types.js";
import { validatorsEmitter } from "./validators.js";
import { openLevelThread, type LevelThread, type SpareWorker, type ThreadModel } from "./validators/level-thread.js";
import { createLevels } from "./validators/levels.js";
import { fixturesOptIn } from "./opt-in.js";
import { transcriptEmitter } from "../transcript/emit.js";

/** `openapi.json`: the bundled document (internal `$ref`s only), what other languages load. Author order, 2-space indent. */
export const openApiJsonEmitter: Emitter = {
  name: "openapi-json",
  emit: (model) => ({
    files: [{ path: "openapi.json", contents: `${JSON.stringify(model.document, null, 2)}\n` }],
    diagnostics: [],
  }),
};

/** Every emitter, in order. A new artefact: add one line here. */
export const EMITTERS: readonly Emitter[] = [
  openApiJsonEmitter,
  typesEmitter,
  validatorsEmitter,
  eventsEmitter,
  clientEmitter,
  transcriptEmitter,
  fixturesEmitter,
];

/** What a run of the emitters gives: the finalized files, and the emitters' diagnostics in emitter order. */
export interface Generated {
  readonly files: EmittedFile[];
  readonly diagnostics: Diagnostic[];
}

/** A run's level thread, started before `generate` (`startLevelThread`); `value` undefined: the run has none. */
export interface StartedThread {
  readonly value: LevelThread | undefined;
}

/** Whether a run of `emitters` has a level thread: the validators emitter's (the fixtures emitter's questions go to it too). */
export function usesLevelThread(emitters: readonly Emitter[]): boolean {
  return emitters.some((emitter) => emitter.name === "validators");
}

/**
 * The level thread a run of `emitters` on `model` would start, started
 * now (on `spare`, a worker started before the model was known, which is
 * closed if the run has no use for it): `gen` starts it as soon as the
 * document and its components are final and hands it to `generate`,
 * which ends it.
 */
export function startLevelThread(model: ThreadModel, emitters: readonly Emitter[], spare?: SpareWorker): StartedThread {
  if (usesLevelThread(emitters)) return { value: openLevelThread(model, spare) };
  spare?.close();
  return { value: undefined };
}

/**
 * Run the emitters in order and finalize their files (headers, manifest,
 * sorted). Each emitter starts once the one before it has done its own
 * work or is waiting (the validators and fixtures emitters wait for the
 * level thread, ./validators/level-thread.ts), so the next one works
 * meanwhile; the files, and the error reported when several fail, are in
 * emitter order. After an emitter fails on this thread, no further one starts.
 * The level thread is this run's: `started` before, or started when an
 * emitter first asks for it (`context.levelThread()`), and ended here when
 * every emitter has settled.
 */
export async function generate(
  model: LoadedSchema,
  emitters: readonly Emitter[] = EMITTERS,
  started?: StartedThread,
): Promise<Generated> {
  const runs: Array<Promise<EmitResult>> = [];
  let thread: StartedThread | undefined = started;
  const names = componentNames(model);
  const context: EmitContext = {
    levelThread: () => (thread ??= { value: openLevelThread(model) }).value,
    // Only the fixture suite runs the levels' functions (it judges its cases with them); otherwise they are printed only.
    levels: createLevels(model, names, { run: fixturesOptIn(model).skipped === undefined }),
    names,
  };
  // Started before the first emitter, the validators' level thread works while the types are emitted.
  if (usesLevelThread(emitters)) context.levelThread();
  try {
    for (const emitter of emitters) {
      let run: Promise<EmitResult>;
      try {
        run = Promise.resolve(emitter.emit(model, context));
      } catch (error) {
        run = Promise.reject(error);
      }
      // Every run gets a handler at once: one that fails while an earlier one is awaited is no unhandled rejection.
      run.catch(() => undefined);
      runs.push(run);
      if (await failedAlready(run)) break;
    }
    const produced: Produced[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const [i, run] of runs.entries()) {
      const result = await run;
      for (const file of result.files) produced.push({ emitter: emitters[i]!.name, file });
      diagnostics.push(...result.diagnostics);
    }
    return { files: finalizeFiles(produced, model), diagnostics };
  } finally {
    // The validators and fixtures emitters share it; it ends with the run, whichever of them ran.
    await Promise.allSettled(runs);
    thread?.value?.close();
  }
}

/** Whether `run` has already rejected (a synchronous throw, or a failure before its first wait); never waits for it. */
async function failedAlready(run: Promise<unknown>): Promise<boolean> {
  try {
    // A settled `run` wins the race against the value after it; a pending one loses.
    await Promise.race([run, undefined]);
    return false;
  } catch {
    return true;
  }
}

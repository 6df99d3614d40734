/**
 * The emitters, in order. Adding an artefact is adding one emitter here
 * (protobuf-es `createEcmaScriptPlugin` style): each is a pure function of
 * the loaded model; `generate` runs them all and hands the files to the
 * header step (generator/header.ts).
 *
 * The list loads no emitter module: each is imported when it first emits
 * (`lazyEmitter`), and the fixtures emitter runs in a worker thread. So
 * `gen` starts that worker and loads the schema before the main thread pays
 * for the emitters' modules (ajv's standalone code, esbuild, Handlebars...).
 */
import { finalizeFiles, type Produced } from "../header.js";
import type { EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { fixturesEmitter } from "./fixtures-emitter.js";

/** `openapi.json`: the bundled document (internal `$ref`s only), what other languages load. Author order, 2-space indent. */
export const openApiJsonEmitter: Emitter = {
  name: "openapi-json",
  emit: (model) => [{ path: "openapi.json", contents: `${JSON.stringify(model.document, null, 2)}\n` }],
};

/** The emitter `load()` resolves to; its module is imported on the first `emit`. */
export function lazyEmitter(name: string, load: () => Promise<Emitter>): Emitter {
  let loaded: Promise<Emitter> | undefined;
  return { name, emit: async (model) => (await (loaded ??= load())).emit(model) };
}

/** Every emitter, in order. A new artefact: add one line here. */
export const EMITTERS: readonly Emitter[] = [
  openApiJsonEmitter,
  lazyEmitter("types", async () => (await import("./types.js")).typesEmitter),
  lazyEmitter("validators", async () => (await import("./validators.js")).validatorsEmitter),
  lazyEmitter("client", async () => (await import("./client.js")).clientEmitter),
  lazyEmitter("transcript", async () => (await import("../transcript/emit.js")).transcriptEmitter),
  fixturesEmitter,
];

/**
 * Run the emitters and finalize their files (headers, manifest, sorted).
 *
 * Every emitter is started before any result is awaited: those that work in
 * a worker thread (the ones with `prepare`) first, then the others in order.
 * So the background work runs beside everything on this thread, and what an
 * emitter does asynchronously (validators: esbuild in a worker thread)
 * overlaps with the emitters after it. Results are taken in the emitters'
 * order; the first emitter (in that order) that failed is the error
 * reported, and none is started after one that failed synchronously.
 */
export async function generate(model: LoadedSchema, emitters: readonly Emitter[] = EMITTERS): Promise<EmittedFile[]> {
  const started = new Map<Emitter, Promise<EmittedFile[]>>();
  for (const emitter of [...emitters.filter((e) => e.prepare), ...emitters.filter((e) => !e.prepare)]) {
    let files: Promise<EmittedFile[]>;
    let failed = false;
    try {
      files = Promise.resolve(emitter.emit(model));
    } catch (error) {
      files = Promise.reject(error);
      failed = true;
    }
    // Awaited below, in order; until then a rejection is not "unhandled".
    files.catch(() => {});
    started.set(emitter, files);
    if (failed) break;
  }
  const produced: Produced[] = [];
  for (const emitter of emitters) {
    const files = started.get(emitter);
    if (files === undefined) continue; // not started because another failed, whose error is thrown below
    for (const file of await files) produced.push({ emitter: emitter.name, file });
  }
  return finalizeFiles(produced, model);
}

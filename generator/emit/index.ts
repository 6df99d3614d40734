/**
 * The emitters, in order. Adding an artefact is adding one emitter here
 * (protobuf-es `createEcmaScriptPlugin` style): each is a pure function of
 * the loaded model; `generate` runs them all and hands the files to the
 * header step (generator/header.ts).
 */
import { finalizeFiles, type Produced } from "../header.js";
import type { EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { clientEmitter } from "./client.js";
import { fixturesEmitter } from "./fixtures-emitter.js";
import { transcriptEmitter } from "../transcript/emit.js";
import { typesEmitter } from "./types.js";
import { validatorsEmitter } from "./validators.js";

/** `openapi.json`: the bundled document (internal `$ref`s only), what other languages load. Author order, 2-space indent. */
export const openApiJsonEmitter: Emitter = {
  name: "openapi-json",
  emit: (model) => [{ path: "openapi.json", contents: `${JSON.stringify(model.document, null, 2)}\n` }],
};

/** Every emitter, in order. A new artefact: import its emitter above and add one line here. */
export const EMITTERS: readonly Emitter[] = [
  openApiJsonEmitter,
  typesEmitter,
  validatorsEmitter,
  clientEmitter,
  transcriptEmitter,
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

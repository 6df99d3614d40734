/**
 * The emitters, in order. Adding an artefact is adding one emitter here
 * (protobuf-es `createEcmaScriptPlugin` style): each is a pure function of
 * the loaded model; `generate` runs them all and hands the files to the
 * header step (generator/header.ts).
 */
import { finalizeFiles, type Produced } from "../header.js";
import type { EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { clientEmitter } from "./client.js";
import { eventsEmitter } from "./events.js";
import { fixturesEmitter } from "./fixtures.js";
import { typesEmitter } from "./types.js";
import { validatorsEmitter } from "./validators.js";
import { closeReceiveThread } from "./validators/receive-thread.js";
import { transcriptEmitter } from "../transcript/emit.js";

/** `openapi.json`: the bundled document (internal `$ref`s only), what other languages load. Author order, 2-space indent. */
export const openApiJsonEmitter: Emitter = {
  name: "openapi-json",
  emit: (model) => [{ path: "openapi.json", contents: `${JSON.stringify(model.document, null, 2)}\n` }],
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

/** Run the emitters in order and finalize their files (headers, manifest, sorted). */
export async function generate(model: LoadedSchema, emitters: readonly Emitter[] = EMITTERS): Promise<EmittedFile[]> {
  const produced: Produced[] = [];
  try {
    for (const emitter of emitters) {
      for (const file of await emitter.emit(model)) produced.push({ emitter: emitter.name, file });
    }
  } finally {
    // The validators and fixtures emitters share it; it ends with the run, whichever of them ran.
    closeReceiveThread(model);
  }
  return finalizeFiles(produced, model);
}

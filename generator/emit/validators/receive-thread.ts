/**
 * The receive level on a thread of its own, in the published bin: while
 * this thread compiles the strict and all-errors levels and builds the
 * fixture cases, a worker (./receive-thread-worker.ts) compiles the
 * receive level (the third of the validators' compile time), prints its
 * module (validators/internal/receive.js) and judges the fixture cases at
 * that level. Nothing is compiled twice: the receive level's ajv instance
 * exists only there, built from the loaded model, which the worker gets by
 * structured clone (not by loading the schema again).
 *
 * Where there is no worker file beside the bundle (the sources run by tsx,
 * the tests) `receiveThread` is undefined and the emitters do the same work
 * on this thread, with the same functions, so the bytes are the same either
 * way (test/generator/prebuilt.test.ts compares the bin's output with the
 * committed one).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { EmitError, type EmitErrorCode } from "../../errors.js";
import type { LoadedSchema } from "../../model.js";
import type { Json } from "../fixtures/json.js";
import type { ReceiveJudge, ReceiveVerdict } from "../fixtures/receive-judge.js";
import { runtimeImport } from "../runtime-import.js";
import { LEVEL_MODULES } from "./level-module-text.js";
import { levelComponents } from "./levels.js";

/** The worker's file name, beside the bundle's entry (generator/scripts/build.mjs). */
export const RECEIVE_THREAD_WORKER_FILE = "receive-thread-worker.js";

/** What the worker is given. */
export interface ReceiveThreadInput {
  readonly model: LoadedSchema;
  /** The specifier validators/internal/receive.js imports the runtime by. */
  readonly runtime: string;
}

/** An error of the worker, as it crosses to this thread. */
export type ThreadError =
  | { readonly kind: "emit"; readonly code: EmitErrorCode; readonly emitter: string; readonly message: string; readonly fix: string; readonly pointer: string | undefined; readonly related: readonly string[] }
  | { readonly kind: "other"; readonly message: string; readonly stack: string | undefined };

/** Messages from the worker: the module once, then one `verdicts` per batch of cases, in order. */
export type FromWorker = { readonly kind: "module"; readonly text: string } | { readonly kind: "verdicts"; readonly verdicts: readonly ReceiveVerdict[] } | { readonly kind: "failed"; readonly error: ThreadError };

/** A batch of cases to judge, to the worker. */
export interface JudgeBatch {
  readonly items: ReadonlyArray<readonly [pointer: string, data: Json]>;
}

export interface ReceiveThread {
  /** The receive level's module text, formatted, without its header. */
  module(): Promise<string>;
  /** Asks the worker for receive-level verdicts; read them after `settled`. */
  readonly judge: ReceiveJudge;
  /** Resolves when every verdict asked for has arrived. */
  settled(): Promise<void>;
  close(): void;
}

/** Cases sent to the worker at a time: often enough that it judges while this thread builds the next cases. */
const BATCH = 32;

const threads = new WeakMap<object, ReceiveThread>();

/** The worker's file in the published bin, or undefined when running from the sources. */
function workerFile(): string | undefined {
  for (const dir of [".", ".."]) {
    const file = fileURLToPath(new URL(`${dir}/${RECEIVE_THREAD_WORKER_FILE}`, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * The receive thread of `model` (one per loaded document, started on the
 * first call), or undefined where there is no worker file or nothing at the
 * receive level.
 */
export function receiveThread(model: LoadedSchema): ReceiveThread | undefined {
  const started = threads.get(model.document);
  if (started !== undefined) return started;
  if (levelComponents(model, "receive").length === 0) return undefined;
  const file = workerFile();
  if (file === undefined) return undefined;
  const thread = startThread(file, { model: plainModel(model), runtime: runtimeImport(model, `validators/${LEVEL_MODULES.receive.module}`) });
  threads.set(model.document, thread);
  return thread;
}

/** Ends the receive thread of `model`, if one was started. */
export function closeReceiveThread(model: LoadedSchema): void {
  threads.get(model.document)?.close();
  threads.delete(model.document);
}

/** The model's data fields: what the worker needs, clonable. */
function plainModel(model: LoadedSchema): LoadedSchema {
  const { document, schemas, sourcePath, sourceFile, hash, generatorVersion, runtime } = model;
  return { document, schemas, sourcePath, hash, generatorVersion, ...(sourceFile !== undefined && { sourceFile }), ...(runtime !== undefined && { runtime }) };
}

function startThread(file: string, input: ReceiveThreadInput): ReceiveThread {
  const worker = new Worker(file, { workerData: input });
  let failure: Error | undefined;
  let moduleText: string | undefined;
  const waiting: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  const answers: ReceiveVerdict[] = [];
  let asked = 0;
  let batch: Array<readonly [string, Json]> = [];

  const wake = (): void => {
    for (const w of waiting.splice(0)) failure !== undefined ? w.reject(failure) : w.resolve();
  };
  worker.on("message", (message: FromWorker) => {
    if (message.kind === "module") moduleText = message.text;
    else if (message.kind === "verdicts") answers.push(...message.verdicts);
    else failure ??= fromThreadError(message.error);
    wake();
  });
  worker.on("error", (error) => {
    failure ??= error;
    wake();
  });
  worker.on("exit", (code) => {
    failure ??= new Error(`the receive-level worker stopped (exit code ${code}) before it answered`);
    wake();
  });
  const send = (): void => {
    if (batch.length === 0) return;
    worker.postMessage({ items: batch } satisfies JudgeBatch);
    batch = [];
  };
  const until = async (done: () => boolean): Promise<void> => {
    while (!done()) {
      if (failure !== undefined) throw failure;
      await new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
    }
  };
  return {
    async module() {
      await until(() => moduleText !== undefined);
      return moduleText!;
    },
    judge: {
      ask(pointer, data) {
        const index = asked++;
        batch.push([pointer, data]);
        if (batch.length >= BATCH) send();
        return () => {
          const verdict = answers[index];
          if (verdict === undefined) throw new Error("a receive-level verdict was read before the receive thread settled");
          return verdict;
        };
      },
    },
    async settled() {
      send();
      await until(() => answers.length === asked);
    },
    close() {
      void worker.terminate();
    },
  };
}

/** `error` as it crosses from the worker (a generator error keeps its type, so `gen` reports it with its place). */
export function toThreadError(error: unknown): ThreadError {
  if (error instanceof EmitError) {
    return { kind: "emit", code: error.code, emitter: error.emitter, message: error.message, fix: error.fix, pointer: error.pointer, related: error.related };
  }
  return { kind: "other", message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
}

function fromThreadError(error: ThreadError): Error {
  if (error.kind === "emit") return new EmitError(error.code, error.emitter, error.message, error.fix, error.pointer, error.related);
  const rebuilt = new Error(error.message);
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}

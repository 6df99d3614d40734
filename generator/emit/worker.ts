/**
 * An emitter's work in a worker thread: it runs beside the emitters on the
 * main thread instead of after them and, when the worker is started before
 * the schema is loaded (`Emitter.prepare`), its start-up (a thread, the
 * module graph) overlaps with loading the schema too.
 *
 * The worker (./worker-entry.mjs, plain JavaScript) loads the emitter's
 * TypeScript module itself, bundled from the sources by esbuild in memory,
 * so it needs no loader and works however the generator was started:
 * `tsx`, `node --import tsx`, bin/, vitest.
 *
 * The function runs on a structured clone of the model (plain JSON data), so
 * it must be a pure function of the model and its plain-data arguments, like
 * every emitter; the files come back the same way.
 */
import { Worker } from "node:worker_threads";
import { EmitError, type EmitErrorCode } from "../errors.js";
import type { EmittedFile, LoadedSchema } from "../model.js";

interface Reply {
  readonly files?: EmittedFile[];
  readonly error?: {
    readonly name: string;
    readonly message: string;
    readonly stack?: string;
    /** Set when the worker threw an `EmitError`: its fields, to rebuild it here (a structured clone loses the class). */
    readonly emitError?: { readonly code: EmitErrorCode; readonly emitter: string; readonly fix: string; readonly pointer?: string };
  };
}

/** One call of `exportName(model, ...args)` from TypeScript module `module`, in its own worker thread. */
export class EmitterWorker {
  private readonly worker: Worker;
  private readonly reply: Promise<Reply>;
  private used = false;

  /**
   * Starts the worker, which loads `module` at once and then calls
   * `prepare.name(...prepare.args)` if given; `run` hands it the model, and
   * what `prepare` returned (`undefined` if it threw) as the last argument.
   */
  constructor(module: URL, exportName: string, prepare?: { readonly name: string; readonly args: readonly unknown[] }) {
    this.worker = new Worker(new URL("./worker-entry.mjs", import.meta.url), {
      // Loader flags of this process (tsx's --import/--require) are not
      // repeated: the worker needs no loader.
      execArgv: [],
      workerData: { module: module.href, exportName, prepare },
    });
    // Until `run`, the worker must not keep the process alive (e.g. when the schema fails to load).
    this.worker.unref();
    this.reply = new Promise<Reply>((resolve, reject) => {
      this.worker.once("message", resolve);
      this.worker.once("error", reject);
      this.worker.once("exit", (code) => reject(new Error(`The worker running ${exportName} exited (code ${code}) without an answer.`)));
    });
    this.reply.catch(() => {}); // observed in `run`
  }

  /** The files `exportName(model, ...args, prepared)` returns in the worker. Once per worker; the worker ends after it. */
  async run(model: LoadedSchema, args: readonly unknown[] = []): Promise<EmittedFile[]> {
    if (this.used) throw new Error("EmitterWorker.run: a worker runs one call.");
    this.used = true;
    this.worker.ref();
    try {
      this.worker.postMessage({ model, args });
      const reply = await this.reply;
      if (reply.error) throw rebuildError(reply.error);
      return reply.files ?? [];
    } finally {
      await this.close();
    }
  }

  /** Ends the worker (a no-op once it has ended). */
  async close(): Promise<void> {
    this.worker.removeAllListeners("exit");
    await this.worker.terminate();
  }
}

/** The worker's error on this thread: an `EmitError` again when it was one (so the CLI reports it as such), else a plain `Error`. */
function rebuildError(error: NonNullable<Reply["error"]>): Error {
  const { emitError } = error;
  const rebuilt = emitError ? new EmitError(emitError.code, emitError.emitter, error.message, emitError.fix, emitError.pointer) : Object.assign(new Error(error.message), { name: error.name });
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}

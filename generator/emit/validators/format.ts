/**
 * Formatting of the validator modules: esbuild's printer (`transform`, no
 * minifying) turns ajv's one-line output into readable, ASCII-only code.
 *
 * Two ways to the same bytes (same esbuild, same options, one call per
 * module):
 * - `formatModuleSync`: `transformSync`, for callers that need the files
 *   synchronously (`emitValidators`, the tests).
 * - `BackgroundFormatter`: the esbuild calls run in a worker thread with
 *   esbuild's async API. `transformSync` would block this thread for the
 *   whole esbuild run (~0.3 s CPU in esbuild for ~1.3 MB, plus the round
 *   trips), and esbuild's async API on this thread stalls as soon as this
 *   thread is busy (the pipe to esbuild is only served when its event loop
 *   runs). In a worker, esbuild works while this thread runs the emitters
 *   after the validators emitter (see `generate` in ../index.ts).
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { transformSync, type TransformOptions } from "esbuild";

export const FORMAT_OPTIONS: Readonly<TransformOptions> = { format: "esm", charset: "ascii", legalComments: "inline" };

/** `code` as esbuild prints it (ES module, ASCII only, legal comments kept in place). */
export function formatModuleSync(code: string): string {
  return transformSync(code, FORMAT_OPTIONS).code;
}

/**
 * The worker: plain CommonJS, so it needs no TypeScript loader and starts in
 * a few tens of milliseconds; it loads the same esbuild package as this
 * module (resolved here, passed in `workerData`).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const esbuild = require(workerData.esbuild);
parentPort.on("message", ({ id, code }) => {
  esbuild.transform(code, workerData.options).then(
    (result) => parentPort.postMessage({ id, code: result.code }),
    (error) => parentPort.postMessage({ id, error: String((error && error.message) || error) }),
  );
});
`;

interface Reply {
  readonly id: number;
  readonly code?: string;
  readonly error?: string;
}

/** Formats modules in a worker thread; `close()` when done (also after a failure). */
export class BackgroundFormatter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (code: string) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private failure: Error | undefined;

  constructor() {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // No loader flags (tsx's --import/--require) in the worker: it runs plain JS.
      execArgv: [],
      workerData: { esbuild: createRequire(import.meta.url).resolve("esbuild"), options: FORMAT_OPTIONS },
    });
    // Referenced only while a module is being formatted, so an idle formatter never keeps the process alive.
    this.worker.unref();
    this.worker.on("message", (reply: Reply) => this.settle(reply));
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => this.fail(new Error(`The esbuild worker exited (code ${code}) before formatting every validator module.`)));
  }

  /** Resolves to `formatModuleSync(code)`, computed in the worker. */
  format(code: string): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const promise = new Promise<string>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    if (this.waiting.size === 1) this.worker.ref();
    this.worker.postMessage({ id, code });
    return promise;
  }

  /** Stops the worker (and with it esbuild's service process). */
  async close(): Promise<void> {
    // Requests still open (the caller failed before awaiting them) are dropped unsettled.
    this.failure ??= new Error("The esbuild worker is closed.");
    this.waiting.clear();
    this.worker.removeAllListeners("exit");
    await this.worker.terminate();
  }

  private settle(reply: Reply): void {
    const waiter = this.waiting.get(reply.id);
    if (!waiter) return;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.worker.unref();
    if (reply.error !== undefined) waiter.reject(new Error(reply.error));
    else waiter.resolve(reply.code ?? "");
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const { reject } of this.waiting.values()) reject(this.failure);
    this.waiting.clear();
    this.worker.unref();
  }
}

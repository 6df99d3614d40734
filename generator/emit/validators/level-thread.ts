/**
 * Validation levels on a thread of their own, in the published bin: while
 * this thread does the rest of `gen`, a worker (./level-thread-worker.ts)
 * compiles some of the levels, prints their modules
 * (validators/internal/<level>.js) and, where the fixture suite is
 * generated, answers what its cases ask of them. Nothing is compiled twice:
 * a level's ajv instance exists on one thread only, built from the loaded
 * document and components, which the worker gets by structured clone (not
 * by loading the schema again).
 *
 * Which levels go there (`threadPlan`):
 * - a document that generates the fixture suite (the MANTYX schema): the
 *   all-errors and receive levels. This thread compiles the strict level
 *   (the fixture cases' verdicts need its functions) and builds the cases,
 *   the worker answers their full error lists and receive-level verdicts
 *   (../fixtures/case-judges.ts) and formats every module's text (./format.ts);
 * - any other document: the strict and all-errors levels (both compile
 *   the same prepared components, ./levels.ts, made once there), the
 *   largest part of `gen` (every component), while this thread does the
 *   types, the receive level and the client. This thread prints its own
 *   module; the strict module both threads print, in parts (`FromWorker`).
 *
 * Where there is no worker file beside the bundle (the sources run by tsx,
 * the tests), or no core to spare (below), `openLevelThread` gives none and
 * the emitters do the same work on this thread, with the same functions, so
 * the bytes are the same either way (test/generator/prebuilt.test.ts
 * compares the bin's output both ways).
 *
 * A core to spare: the worker costs CPU of its own (a second isolate loads
 * and warms up ajv, and the model crosses to it: about 0.3-0.5 s for the
 * MANTYX schema), which pays only when it runs beside this thread, not in
 * turns with it. So it is started only with two cores or more and, for a
 * document of ordinary size, a one-minute load average below their number;
 * a document with `LARGE_DOCUMENT_COMPONENTS` components or more gives the
 * worker seconds of work against that fixed cost, and gets it whatever the
 * load. `MANTYX_WIRE_LEVEL_THREAD=on` or `off` decides instead (the tests
 * run both ways).
 *
 * Started early: where a core is free before the document is read (or
 * the root file is `LARGE_DOCUMENT_BYTES` or more, so that it will be
 * used whatever the load), `spareLevelWorker` starts the worker then, so
 * that it loads its modules while this thread reads the document, and
 * `openLevelThread` hands it the document and its components (`gen` does
 * so as soon as they are final, while the loader hashes and checks the
 * document: load/index.ts `onModel`). A spare never handed them keeps
 * nothing alive and is ended with the run.
 */
import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { EmitError, type EmitErrorCode } from "../../errors.js";
import type { LoadedSchema, SchemaContent } from "../../model.js";
import type { CaseJudges, DeferredJudge, JudgeVerdict } from "../fixtures/case-judges.js";
import { fixturesOptIn } from "../opt-in.js";
import { runtimeImport } from "../runtime-import.js";
import { LEVEL_MODULES, printLevelModule } from "./level-module-text.js";
import { levelComponents, type LevelName } from "./levels.js";

/** The worker's file name, beside the bundle's entry (generator/scripts/build.mjs). */
export const LEVEL_THREAD_WORKER_FILE = "level-thread-worker.js";

/** Every level, in the order one thread compiles them (and reports the first error of). */
export const LEVELS: readonly LevelName[] = ["strict", "all-errors", "receive"];

/** A document of this many components or more starts the worker whatever the machine's load (see the file's comment). */
export const LARGE_DOCUMENT_COMPONENTS = 500;

/** A root file this large (bytes) holds hundreds of components, as a rule: its worker is started before it is read, whatever the load. */
export const LARGE_DOCUMENT_BYTES = 1_000_000;

/** What a level thread is opened for: the content it is sent, and the runtime specifier its modules import. */
export type ThreadModel = SchemaContent & Pick<LoadedSchema, "runtime">;

/** How many texts a module is printed in, where both threads print it (`FromWorker` "parts"). */
export const PARTS = 8;
export const CLAIMED_BY_WORKER = 1;
export const CLAIMED_HERE = 2;

/** What the worker does for a document (see the file's comment). */
export interface ThreadPlan {
  /** The levels it compiles, in LEVELS order. */
  readonly levels: readonly LevelName[];
  /** Whether it also formats this thread's modules' text (./format.ts, through `format`); its own levels' it always formats. */
  readonly formats: boolean;
}

export function threadPlan(model: SchemaContent): ThreadPlan {
  return fixturesOptIn(model).skipped === undefined
    ? { levels: ["all-errors", "receive"], formats: true }
    : { levels: ["strict", "all-errors"], formats: false };
}

/** What the worker is given, its first message. */
export interface LevelThreadInput extends ThreadPlan {
  readonly kind: "start";
  readonly model: SchemaContent;
  /** The specifier each of those levels' module imports the runtime by. */
  readonly runtimes: Readonly<Partial<Record<LevelName, string>>>;
}

/** An error of the worker, as it crosses to this thread. */
export type ThreadError =
  | {
      readonly kind: "emit";
      readonly code: EmitErrorCode;
      readonly emitter: string;
      readonly message: string;
      readonly fix: string;
      readonly pointer: string | undefined;
      readonly related: readonly string[];
    }
  | { readonly kind: "other"; readonly message: string; readonly stack: string | undefined };

/**
 * Messages from the worker: each of its levels' module once (in LEVELS
 * order, formatted), then one `verdicts` per batch and one `formatted` per
 * text to format, in the order asked.
 *
 * Where this thread waits for the modules (no fixture suite: `formats`
 * false), a module comes in parts instead: first `parts`, its statements
 * cut into `PARTS` texts (level-module-text.ts `chunks`) and a shared array
 * of claims, then a `part` for each text the worker printed. Each text is
 * printed by the thread that claims it first (Atomics): the worker from
 * the first on, this thread from the last on, as soon as it is free (its
 * message handler runs only while it waits), so the two finish together
 * however busy this thread still is. The module is the texts joined.
 */
export type FromWorker =
  | {
      readonly kind: "parts";
      readonly level: LevelName;
      readonly sources: readonly string[];
      /** One Int32 per text: 0 unclaimed, else `CLAIMED_BY_WORKER` or `CLAIMED_HERE`. */
      readonly claims: SharedArrayBuffer;
    }
  | { readonly kind: "part"; readonly level: LevelName; readonly index: number; readonly text: string }
  | { readonly kind: "module"; readonly level: LevelName; readonly text: string | undefined }
  | { readonly kind: "verdicts"; readonly verdicts: readonly JudgeVerdict[] }
  | { readonly kind: "formatted"; readonly text: string }
  | { readonly kind: "failed"; readonly error: ThreadError };

/**
 * A batch of cases to judge, to the worker: which judge (`errors` or
 * `receive`), where, what (as JSON text: a string crosses threads as one
 * copy, where a structured clone of the value walks it on both sides; JSON
 * is all a case holds).
 */
export interface JudgeBatch {
  readonly kind: "judge";
  readonly items: ReadonlyArray<readonly [judge: keyof CaseJudges, pointer: string, json: string]>;
}

/** A level module's text for the worker to print (./level-module-text.ts `printLevelModule`): the strict level's, where this thread compiles it. */
export interface FormatRequest {
  readonly kind: "format";
  readonly level: LevelName;
  readonly source: string;
  /** The specifier the module imports the runtime by. */
  readonly runtime: string;
}

export type ToWorker = LevelThreadInput | JudgeBatch | FormatRequest;

export interface LevelThread extends ThreadPlan {
  /** `level`'s module text (one of `levels`), formatted, without its header (undefined for a level without components). */
  module(level: LevelName): Promise<string | undefined>;
  /** `level`'s module `source` printed by the worker, as `printLevelModule` prints it here (while this thread goes on with the fixture cases). */
  format(level: LevelName, source: string, runtime: string): Promise<string>;
  /** Ask the worker; read the answers after `settled`. */
  readonly judges: CaseJudges;
  /** Resolves when every verdict asked for has arrived. */
  settled(): Promise<void>;
  /** Ends the worker (`generate` does, when the run ends). */
  close(): void;
}

/** Cases sent to the worker at a time: often enough that it judges while this thread builds the next cases. */
const BATCH = 32;

/** The worker's file in the published bin, or undefined when running from the sources. */
function workerFile(): string | undefined {
  for (const dir of [".", ".."]) {
    const file = fileURLToPath(new URL(`${dir}/${LEVEL_THREAD_WORKER_FILE}`, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** A worker started before the model is known, waiting for it (`openLevelThread`), or ended (`close`). */
export interface SpareWorker {
  readonly worker: Worker;
  /** What ended it before it was handed a model (an error, or its exit code). */
  readonly ended: { error?: Error; code?: number };
  close(): void;
}

/**
 * The level thread's worker, started now, before the document is read,
 * where a core is free whatever the document, or the root file is
 * `bytes` long (see the file's comment); undefined where there is no
 * worker file or none is free.
 */
export function spareLevelWorker(bytes: number): SpareWorker | undefined {
  const file = workerFile();
  if (file === undefined || !coreToSpare(undefined, bytes >= LARGE_DOCUMENT_BYTES)) return undefined;
  const worker = new Worker(file);
  // Until it has work, it keeps no run alive (a run whose loading fails ends without it).
  worker.unref();
  const ended: SpareWorker["ended"] = {};
  worker.on("error", (error) => {
    ended.error ??= error;
  });
  worker.on("exit", (code) => {
    ended.code ??= code;
  });
  return { worker, ended, close: () => void worker.terminate() };
}

/**
 * Starts a level thread for `model` (on `spare` where given) and hands it
 * over, or undefined where there is no worker file, no core to spare, or
 * none of its levels has components (a document whose clients read nothing
 * and send no body; one without components): then `spare` is closed. Its
 * caller (`gen`, through emit/index.ts) asks as soon as the document and
 * its components are final, so that it works while the rest is done, and
 * closes it with `close` when the run ends.
 */
export function openLevelThread(model: ThreadModel, spare?: SpareWorker): LevelThread | undefined {
  const plan = threadPlan(model);
  const file = workerFile();
  if (
    file === undefined ||
    plan.levels.every((level) => levelComponents(model, level).length === 0) ||
    // A spare has cost what the worker costs already.
    (spare === undefined && !coreToSpare(model))
  ) {
    spare?.close();
    return undefined;
  }
  const runtimes = Object.fromEntries(
    plan.levels.map((level) => [level, runtimeImport(model, `validators/${LEVEL_MODULES[level].module}`)]),
  );
  return startThread(spare ?? { worker: new Worker(file), ended: {}, close() {} }, {
    kind: "start",
    // What the worker reads, and no more: it crosses by structured clone.
    model: { document: model.document, schemas: model.schemas },
    ...plan,
    runtimes,
  });
}

/** Whether a worker would run beside this thread for `model` (see the file's comment); for undefined, whatever the document, unless it is `large`. */
function coreToSpare(model: SchemaContent | undefined, large = false): boolean {
  const forced = process.env["MANTYX_WIRE_LEVEL_THREAD"];
  if (forced === "on" || forced === "off") return forced === "on";
  const cores = availableParallelism();
  large ||= model !== undefined && Object.keys(model.schemas).length >= LARGE_DOCUMENT_COMPONENTS;
  return cores >= 2 && (large || (loadavg()[0] ?? 0) < cores);
}

function startThread({ worker, ended }: SpareWorker, input: LevelThreadInput): LevelThread {
  worker.ref();
  worker.postMessage(input);
  let failure: Error | undefined = ended.error;
  if (failure === undefined && ended.code !== undefined)
    failure = new Error(`the validators' level thread stopped (exit code ${ended.code}) before it was started`);
  const modules = new Map<LevelName, string | undefined>();
  const waiting: Array<() => void> = [];
  const answers: JudgeVerdict[] = [];
  const formatted: string[] = [];
  let formatsAsked = 0;
  let asked = 0;
  let batch: Array<readonly [keyof CaseJudges, string, string]> = [];

  const wake = (): void => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  /** A module that comes in parts: its texts as printed so far, and how many are still to come. */
  const parts = new Map<LevelName, { readonly texts: string[]; missing: number }>();
  const partPrinted = (level: LevelName, index: number, text: string): void => {
    const module = parts.get(level)!;
    module.texts[index] = text;
    if (--module.missing === 0) modules.set(level, module.texts.join(""));
  };
  worker.on("message", (message: FromWorker) => {
    if (message.kind === "parts") {
      const { level, sources } = message;
      parts.set(level, { texts: [], missing: sources.length });
      const claims = new Int32Array(message.claims);
      try {
        // From the last text on, until one the worker has claimed: it claims from the first on.
        for (let i = sources.length - 1; i >= 0 && Atomics.compareExchange(claims, i, 0, CLAIMED_HERE) === 0; i--)
          partPrinted(level, i, printLevelModule(level, sources[i]!, input.runtimes[level]!));
      } catch (error) {
        failure ??= error as Error;
      }
    } else if (message.kind === "part") partPrinted(message.level, message.index, message.text);
    else if (message.kind === "module") modules.set(message.level, message.text);
    else if (message.kind === "verdicts") answers.push(...message.verdicts);
    else if (message.kind === "formatted") formatted.push(message.text);
    else failure ??= fromThreadError(message.error);
    wake();
  });
  worker.on("error", (error) => {
    failure ??= error;
    wake();
  });
  worker.on("exit", (code) => {
    // Done: it sent every module and is asked nothing more (it ends by itself then: ./level-thread-worker.ts).
    const done = code === 0 && !input.formats && input.levels.every((level) => modules.has(level));
    if (!done) failure ??= new Error(`the validators' level thread stopped (exit code ${code}) before it answered`);
    wake();
  });
  const send = (): void => {
    if (batch.length === 0) return;
    worker.postMessage({ kind: "judge", items: batch } satisfies JudgeBatch);
    batch = [];
  };
  const until = async (done: () => boolean): Promise<void> => {
    while (!done()) {
      if (failure !== undefined) throw failure;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  const judge = (which: keyof CaseJudges): DeferredJudge => ({
    ask(pointer, _data, json) {
      const index = asked++;
      batch.push([which, pointer, json]);
      if (batch.length >= BATCH) send();
      return () => {
        const verdict = answers[index];
        if (verdict === undefined) throw new Error("a verdict of the level thread was read before it settled");
        return verdict;
      };
    },
  });
  return {
    levels: input.levels,
    formats: input.formats,
    async module(level) {
      await until(() => modules.has(level));
      return modules.get(level);
    },
    async format(level, source, runtime) {
      // The cases asked for before go first: the worker answers in order.
      send();
      const index = formatsAsked++;
      worker.postMessage({ kind: "format", level, source, runtime } satisfies FormatRequest);
      await until(() => formatted.length > index);
      return formatted[index]!;
    },
    judges: { errors: judge("errors"), receive: judge("receive") },
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
    return {
      kind: "emit",
      code: error.code,
      emitter: error.emitter,
      message: error.message,
      fix: error.fix,
      pointer: error.pointer,
      related: error.related,
    };
  }
  return {
    kind: "other",
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  };
}

function fromThreadError(error: ThreadError): Error {
  if (error.kind === "emit")
    return new EmitError(error.code, error.emitter, error.message, error.fix, error.pointer, error.related);
  const rebuilt = new Error(error.message);
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}

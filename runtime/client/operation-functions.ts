/**
 * Operations as standalone functions, `createRun(client, body, options)`:
 * what a generated `operations.ts` exports, one per operation, each
 * referencing only its own table entry (and so its own body validator) and
 * the machinery of its kind. A program bundles the operations it calls and
 * nothing of the others, which a class whose methods all reference their
 * validators cannot offer (./define.ts).
 */
import { callOperation, type ClientBase, type Operation, type OperationKind } from "./core.js";

/**
 * The function of one operation: `(client, ...the method's arguments)`,
 * typed `F` by the generated code; `kind` for a stream, an item stream or
 * pages (./stream-run.ts `eventStreamKind`, ./item-stream.ts, ./pages.ts).
 */
export const operationFunction = <F>(id: string, operation: Operation, kind?: OperationKind): F =>
  ((client: ClientBase, ...args: unknown[]) => callOperation(client, id, operation, args, kind)) as F;

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
export function operationFunction<F>(id: string, operation: Operation & { readonly body?: undefined; readonly once?: undefined }, kind?: OperationKind): F;
/**
 * An entry with a body validator or `once` needs the kind that makes them
 * hold (`checkedBody(…)`, `onceKind`): without it the body would go
 * unchecked, or be sent again.
 */
export function operationFunction<F>(id: string, operation: Operation, kind: OperationKind): F;
export function operationFunction<F>(id: string, operation: Operation, kind?: OperationKind): F {
  return ((client: ClientBase, ...args: unknown[]) => callOperation(client, id, operation, args, kind)) as F;
}

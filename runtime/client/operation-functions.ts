/**
 * Operations as standalone functions, `createRun(client, body, options)`:
 * what a generated `operations.ts` exports, one per operation, each
 * referencing only its own table entry (and so its own body validator) and
 * the machinery of its kind. A program bundles the operations it calls and
 * nothing of the others, which a class whose methods all reference their
 * validators cannot offer (./define.ts).
 */
import { callOperation, type HttpClient, type OperationKind } from "./core.js";
import type { Operation, OperationExtras } from "./operation.js";
import { operationExtras } from "./extras.js";

/** An entry with parameters, styled path parameters or a body that is not JSON carries the code that sends them (`extras`): without it they could not be sent. */
type Lean = Operation &
  (
    | { readonly params?: undefined; readonly bodyMedia?: undefined; readonly pathStyles?: undefined }
    | { readonly extras: OperationExtras }
  );

/**
 * The function of one operation: `(client, ...the method's arguments)`,
 * typed `F` by the generated code; `kind` for a stream, an item stream or
 * pages (./stream-run.ts `eventStreamKind`, ./item-stream.ts, ./pages.ts).
 * The entry's `params` and its basic, query and cookie credentials are sent
 * only when it carries `extras` (`operationExtras`, ./extras.ts): generated
 * code (revision 5 on) passes it in the entries that need it.
 */
export function operation<F>(
  id: string,
  entry: Lean & { readonly body?: undefined; readonly once?: undefined },
  kind?: OperationKind,
): F;
/**
 * An entry with a body validator or `once` needs the kind that makes them
 * hold (`checkedBody(…)`, `onceKind`): without it the body would go
 * unchecked, or be sent again.
 */
export function operation<F>(id: string, entry: Lean, kind: OperationKind): F;
export function operation<F>(id: string, entry: Operation, kind?: OperationKind): F {
  return ((client: HttpClient, ...args: unknown[]) => callOperation(client, id, entry, args, kind)) as F;
}

/**
 * `operation` for code generated before revision 5, whose entries carry no
 * `extras`: every entry gets it (so such a program bundles it).
 */
export function operationFunction<F>(
  id: string,
  entry: Operation & { readonly body?: undefined; readonly once?: undefined },
  kind?: OperationKind,
): F;
export function operationFunction<F>(id: string, entry: Operation, kind: OperationKind): F;
export function operationFunction<F>(id: string, entry: Operation, kind?: OperationKind): F {
  return operation(id, { extras: operationExtras, ...entry }, kind!);
}

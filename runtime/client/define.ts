/**
 * The all-in-one client: one method per entry of a generated operation
 * table, installed on a client class's prototype (a generated client calls
 * `defineOperations` once). Convenient, and it bundles every operation's
 * machinery and validators; a program that wants only what it calls uses
 * the operation functions instead (./operation-functions.ts).
 */
import { ClientBase } from "./client-base.js";
import { callOperation, type HttpClient, type OperationKind } from "./core.js";
import type { Operation } from "./operation.js";
import { operationExtras } from "./extras.js";
import { eitherKind, itemStreamKind } from "./item-stream.js";
import { pagesKind } from "./pages.js";
import { onceKind } from "./once.js";
import { checkedBody } from "./request-check.js";
import { eventStreamKind } from "./stream-run.js";

/** What a client class is to `defineOperations`. */
type ClientClass = abstract new (...args: never[]) => HttpClient;

/**
 * Installs one method per operation on `target`'s prototype, and
 * `<operation>Pages` for each with `pages`. A stream's status probe calls
 * the method the probe names.
 */
export function defineOperations(target: ClientClass, operations: Readonly<Record<string, Operation>>): void {
  const methods = target.prototype as Record<string, unknown>;
  for (const id in operations) {
    // Every entry sends its parameters and any credential (./extras.ts): a class bundles all its operations' machinery anyway.
    const operation: Operation = { extras: operationExtras, ...operations[id]! };
    const { stream, items, pages } = operation;
    const probe = stream?.status?.operation;
    const kind: OperationKind | undefined = stream
      ? eventStreamKind(
          probe === undefined
            ? undefined
            : () =>
                (client, ...args) =>
                  (client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[probe]!(...args),
        )
      : items
        ? operation.either
          ? operation.body
            ? checkedBody(eitherKind)
            : eitherKind
          : itemStreamKind
        : operation.body
          ? checkedBody(operation.once && onceKind)
          : operation.once && onceKind;
    methods[id] = function (this: HttpClient, ...args: unknown[]) {
      return callOperation(this, id, operation, args, kind);
    };
    if (pages) {
      // Same arguments as the operation; the parameters object is the one before the options.
      methods[`${id}Pages`] = function (this: HttpClient, ...args: unknown[]) {
        return callOperation(this, id, operation, args, pagesKind);
      };
    }
  }
}

/**
 * `ClientBase` with a static `define`: the base class of clients generated
 * for contract revisions 1 to 3 (`class X extends ClientCore {}`,
 * `X.define(operations)`); newer ones call `defineOperations`.
 */
export class ClientCore extends ClientBase {
  /** Installs one method per operation on this class's prototype. */
  static define(operations: Readonly<Record<string, Operation>>): void {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass define() is called on (its prototype gets the methods)
    defineOperations(this, operations);
  }
}

/**
 * At-most-once operations (the schema's `x-once-per`, `x-outcomes`; MANTYX:
 * `postToolResult`, one POST per `toolUseId`, wire-protocol.md §5) as an
 * operation kind (core.ts): a second call with the same key returns the
 * first call's outcome without sending, and the statuses the schema names
 * are outcomes, not errors.
 */
import type { HttpClient, OperationKind } from "./core.js";
import type { OnceOutcome } from "./operation.js";
import { ApiError } from "./errors.js";

/** Outcomes by client, then by URL and key (a WeakMap: a client's ledger goes with it, and is in no `inspect` of it). */
const ledgers = new WeakMap<HttpClient, Map<string, Promise<OnceOutcome>>>();

/** The most keys a client remembers; the oldest is forgotten first. */
const LEDGER_LIMIT = 1e4;

export const onceKind: OperationKind = async ({ client, operation, args, paramsIndex, url, respond }) => {
  const once = operation.once!;
  let posted = ledgers.get(client);
  if (!posted) ledgers.set(client, (posted = new Map()));
  // At most one request per key: a second call returns the first outcome
  // without sending. A request that failed (thrown error, nothing decided)
  // is forgotten, so it can be retried; if it did reach the server, the
  // retry gets the outcome the server gives a repeat.
  const key = `${url()}\0${(args[paramsIndex - 1] as Record<string, unknown> | undefined)?.[once.key]}`;
  let outcome = posted.get(key);
  if (!outcome) {
    posted.set(
      key,
      (outcome = respond().then(
        // A 2xx is the acceptance whatever its body (older servers answer 200, maybe with text).
        (response) => {
          response.body?.cancel().catch(() => undefined);
          return { status: "accepted", httpStatus: response.status };
        },
        (error) => {
          // A listed status is that outcome when the body names that code.
          const name = error instanceof ApiError && once.outcomes[error.status];
          if (name && error.code == name) return { status: name, error } as OnceOutcome;
          throw error;
        },
      )),
    );
    const own = outcome;
    const ledger = posted;
    // (Only its own entry: after an eviction the key may hold a newer request.)
    own.catch(() => ledger.get(key) === own && ledger.delete(key));
    if (posted.size > LEDGER_LIMIT) posted.delete(posted.keys().next().value!);
  }
  return outcome;
};

/**
 * Everything of a reported value a log, an error tracker or a curious
 * caller would see: `util.inspect` (hidden fields too), each error's
 * message, stack and JSON down its cause chain, and what an API error hands
 * out on demand (its headers, MANTYX's details read from them and the
 * body). The secrets suites look for a credential in this text.
 */
import { inspect } from "node:util";
import { candidatesOf, isMantyxApiError, rateLimitOf, requiredScopesOf } from "../../index.js";

export function shown(value: unknown): string {
  const parts = [inspect(value, { depth: 12, showHidden: true, breakLength: Infinity })];
  for (let e = value, depth = 0; e instanceof Error && depth < 12; e = e.cause, depth++) {
    parts.push(e.message, String(e.stack));
    try {
      parts.push(JSON.stringify(e) ?? "");
    } catch {
      // (a cycle: inspect covered it)
    }
  }
  if (typeof value === "string") parts.push(value);
  if (isMantyxApiError(value)) {
    for (const name of [
      "content-type",
      "x-request-id",
      "www-authenticate",
      "retry-after",
      "x-echo-forms",
      "x-ratelimit-remaining",
      "location",
    ])
      parts.push(String(value.headers.get(name)));
    parts.push(JSON.stringify([rateLimitOf(value), requiredScopesOf(value), candidatesOf(value)]));
  }
  return parts.join("\n");
}

/**
 * Faults asked for by an HTTP request: the `X-Mock-Fault` header and the
 * `?mockFault=` query parameter (for clients that cannot set headers, such
 * as a browser's EventSource). On the create-run request they apply to the
 * run's stream connections (`@` selects which); on a stream request, to
 * that connection, unless they repeat the create-run request's spec word
 * for word: a client that sends one header on every call (runAgent passes
 * its `headers` to both) gets the run's faults once, as asked, not the
 * first connection's faults on every connection.
 */
import type { IncomingMessage } from "node:http";
import { NO_FAULTS, parseFaultSpec, type FaultSpec, type SpecContext } from "./spec.js";

export const FAULT_HEADER = "x-mock-fault";
export const FAULT_QUERY = "mockFault";

/** The spec text a request carries (header and query joined) and where it came from; undefined when it carries none. */
export function faultTextOfRequest(
  req: IncomingMessage,
  url: URL,
): { readonly text: string; readonly source: string } | undefined {
  // node joins a repeated header with ", ", which is the spec's own separator.
  const header = req.headers[FAULT_HEADER];
  const queries = url.searchParams.getAll(FAULT_QUERY).filter((q) => q.trim() !== "");
  const parts: string[] = [];
  const sources: string[] = [];
  if (typeof header === "string" && header.trim() !== "") {
    parts.push(header);
    sources.push("X-Mock-Fault header");
  }
  if (queries.length > 0) {
    parts.push(queries.join(","));
    sources.push("?mockFault=");
  }
  return parts.length === 0 ? undefined : { text: parts.join(","), source: sources.join(" and ") };
}

/** The request's spec (header and query together; a fault named in both is an error). Throws FaultSpecError. */
export function faultSpecOfRequest(req: IncomingMessage, url: URL, context: SpecContext): FaultSpec {
  const given = faultTextOfRequest(req, url);
  return given === undefined ? NO_FAULTS : parseFaultSpec(given.text, given.source, context);
}

/**
 * The spec of one stream connection: the request's own faults (none when
 * they repeat `firstGiven`, the spec text of the request that started the
 * stream, word for word), after a queued spec (a test queue's entry, named
 * `queueSource`) when there is one. Throws FaultSpecError.
 */
export function connectionSpecOf(
  req: IncomingMessage,
  url: URL,
  firstGiven: string | undefined,
  queued: string | undefined,
  queueSource: string,
): FaultSpec {
  const repeated = firstGiven !== undefined && firstGiven !== "" && faultTextOfRequest(req, url)?.text === firstGiven;
  const own = repeated ? NO_FAULTS : faultSpecOfRequest(req, url, "connection");
  if (queued === undefined) return own;
  const fromQueue = parseFaultSpec(queued, `${queueSource} entry`, "connection");
  return own.text === ""
    ? fromQueue
    : parseFaultSpec(`${fromQueue.text},${own.text}`, `${queueSource} entry and the stream request`, "connection");
}

/**
 * A streamed answer of any document (not MANTYX's resumable event stream,
 * stream-run.ts), as a typed async iterable of its items:
 * - `"sse"` (OpenAPI 3.2 `itemSchema` on `text/event-stream`, or a 3.0/3.1
 *   event-shaped `schema`): each SSE message as `{ event, data, id, retry? }`;
 * - `"sse-json"`: the same, `data` JSON-decoded (the item schema says it is
 *   JSON: `contentMediaType: application/json`, or a `data` typed as an
 *   object or array);
 * - `"sse-data"` (`x-item-schema`, or a 3.0/3.1 payload-shaped `schema`):
 *   each message's `data`, JSON-decoded;
 * - `"jsonl"` (`application/jsonl`, `application/x-ndjson`): each line's
 *   JSON value.
 *
 * Where the data is JSON (docs/event-streams.md, "Sentinels and stray data"):
 * a message whose data is the operation's `sentinel` (`x-sse-sentinel`,
 * `[DONE]` by default) ends the stream cleanly; an `event: error` message
 * with JSON data is thrown as a `ServerSentError` carrying it; other data
 * that is not JSON is thrown as a `StreamDecodeError` (`invalid-json`) whose
 * `frame.data` is the raw text. Never a crash, never a silent skip.
 *
 * Resume (docs/event-streams.md, "Resume"): a stream whose operation says
 * its server resumes (`resume`: `x-sse-resume: true`, or the call's
 * `{ resume: true }`) and whose messages carry ids reconnects after a drop
 * with `Last-Event-ID`, waiting the server's `retry:` when it sent one, else
 * the client's back-off, at most `maxReconnects` drops in a row without a new
 * message. Otherwise a drop is a `ConnectionError` naming the last id
 * (`lastEventId`): reconnecting to a server that does not resume would
 * replay the stream from its start, or start a new one. A stream answered
 * to a request with a body is never resumed (resending the body could start
 * another generation).
 *
 * Protocol-neutral: the items are not validated (their types come from the
 * schema). The request is sent on the first `next()` (a JSON-or-stream call:
 * when called, `eitherKind`); `break` (or `signal`) cancels the body.
 */
import { parseJsonLines } from "../jsonl/index.js";
import type { SseMessage } from "../sse/index.js";
import { items, iterate } from "../sse/iterate.js";
import { StreamDecodeError } from "../events/errors.js";
import type { CallContext, OperationKind } from "./core.js";
import type { ItemStreamMode } from "./operation.js";
import { ConnectionError, unexpectedResponse, UnexpectedResponseError } from "./errors.js";
import { backoff, sleep, type BackoffOptions } from "./internal/backoff.js";
import { redactError, type Redact } from "./internal/redact.js";

/** Options of a call of an item stream (beside the call's own). */
export interface ItemStreamOptions {
  signal?: AbortSignal | undefined;
  /** Reconnect after a drop with `Last-Event-ID` (default: as the document says, `x-sse-resume`). */
  resume?: boolean | undefined;
  /** Resume after this event id (a stream given up on earlier: its `ConnectionError`'s `lastEventId`). */
  lastEventId?: string | undefined;
  /** Drops in a row without a new message before giving up with ConnectionError. Default 8. */
  maxReconnects?: number | undefined;
  /** Back-off between reconnects when the server sent no `retry:` (default 500 ms doubling to 10 s). */
  reconnectDelay?: BackoffOptions | undefined;
}

/** The media types each mode reads (a 2xx of another type is an UnexpectedResponseError: a proxy's page, not items). */
const SSE = /^text\/event-stream/i;
const MEDIA: Record<ItemStreamMode, RegExp> = {
  sse: SSE,
  "sse-json": SSE,
  "sse-data": SSE,
  jsonl: /^application\/(jsonl|x-ndjson|x-jsonlines|json-lines)/i,
};

const ITEM_STREAM_ACCEPT: Record<ItemStreamMode, string> = {
  sse: "text/event-stream",
  "sse-json": "text/event-stream",
  "sse-data": "text/event-stream",
  jsonl: "application/jsonl, application/x-ndjson",
};

/**
 * An `event: error` message of a stream whose data is JSON: the error the
 * server reports in the stream (after its 200), with its data parsed.
 */
export class ServerSentError extends Error {
  override readonly name: string = "ServerSentError";
  /** The operation whose stream it ended. */
  declare readonly operationId: string;
  /** The message's data, parsed (credential redacted). */
  declare readonly data: unknown;
  /** The message as received (its `data` the raw text). */
  declare readonly frame: SseMessage;
  constructor(operationId: string, frame: SseMessage, data: unknown) {
    const d = data as { message?: unknown; error?: { message?: unknown } | string } | null;
    const text = d?.message ?? (typeof d?.error == "string" ? d.error : d?.error?.message) ?? frame.data.slice(0, 300);
    super(`${operationId}: the stream reported an error: ${String(text)}`);
    Object.assign(this, { operationId, data, frame });
  }
}

/** True for a ServerSentError, also one from another copy of this module. */
export const isServerSentError = (e: unknown): e is ServerSentError =>
  (e as Error | null)?.name == "ServerSentError" && typeof (e as ServerSentError).frame == "object";

/** What `itemStream` needs of the operation. */
export interface ItemStreamSpec {
  readonly mode: ItemStreamMode;
  readonly sentinel?: string | undefined;
  readonly resume?: boolean | undefined;
}

/** One message as an item, or what ends the stream (`undefined`: the sentinel). Throws the typed errors of the top of this file. */
function itemOf(id: string, message: SseMessage, { mode, sentinel }: ItemStreamSpec): unknown {
  if (mode == "sse") return sseItem(message, message.data);
  if (message.data === sentinel) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch (cause) {
    throw new StreamDecodeError("invalid-json", message, [], cause);
  }
  if (message.event == "error") throw new ServerSentError(id, message, data);
  return mode == "sse-data" ? data : sseItem(message, data);
}

function sseItem(message: SseMessage, data: unknown): Record<string, unknown> {
  const item: Record<string, unknown> = { event: message.event, data, id: message.id };
  if (message.retry !== undefined) item.retry = message.retry;
  return item;
}

/**
 * The items of the answers `open` gives (it is called again with the last
 * event id to resume). `hide` removes the credential from what the stream
 * reports: a server may echo it into the content type or the body (whose
 * bytes a failed read's error may quote).
 */
export function itemStream<T>(
  id: string,
  spec: ItemStreamSpec | ItemStreamMode,
  open: (lastEventId: string | undefined) => Promise<Response>,
  options: ItemStreamOptions = {},
  hide: Redact = (text) => text,
  canResume = true,
): AsyncIterable<T> {
  const s: ItemStreamSpec = typeof spec == "string" ? { mode: spec } : spec;
  const { mode } = s;
  const { signal, maxReconnects = 8, reconnectDelay } = options;
  const resume = canResume && mode != "jsonl" && (options.resume ?? s.resume ?? false);
  async function* batches(): AsyncGenerator<T[], void> {
    let lastEventId = options.lastEventId;
    let retryMs: number | undefined;
    let drops = 0;
    for (;;) {
      let progressed = false;
      // What opening fails with is thrown as it is (the request retried what may be retried): an error status, a network failure, a caller's mistake.
      const response = await open(lastEventId);
      const contentType = hide(response.headers.get("content-type") ?? "");
      if (!MEDIA[mode].test(contentType) || !response.body) {
        await response.body?.cancel().catch(() => undefined);
        throw new UnexpectedResponseError(
          `${id}: ${response.status} ${contentType || "without a content type"}, not ${ITEM_STREAM_ACCEPT[mode]}`,
          { operationId: id, status: response.status, contentType },
        );
      }
      try {
        if (mode == "jsonl") {
          // One value per batch: a JSON-lines stream is not resumed, and its parser yields values.
          for await (const value of parseJsonLines(response.body, { signal })) yield [value as T];
          return;
        }
        // One batch per chunk read: the messages a chunk completes become items in one synchronous step (no await per item).
        // The last event id is that of the last message decoded, which is the last one delivered when a read fails: the
        // batches are delivered whole before the next read.
        yield* iterate<T>(response.body, { signal, onRetry: (ms) => (retryMs = ms) }, (messages, out) => {
          for (const message of messages) {
            let item: unknown;
            try {
              item = itemOf(id, message, s);
            } catch (error) {
              throw redactError(error, hide);
            }
            if (item === undefined) return true;
            if (message.id) {
              if (message.id !== lastEventId) progressed = true;
              lastEventId = message.id;
            } else progressed = true;
            if (progressed) drops = 0;
            out.push(item as T);
          }
        });
        return;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        // Not a drop: a message in error.
        if (error instanceof StreamDecodeError || error instanceof ServerSentError) throw error;
        if (!resume || !lastEventId || ++drops > maxReconnects) {
          const reason = redactError(error, hide);
          const hint = lastEventId
            ? `; the last event id was ${JSON.stringify(hide(lastEventId))}${resume ? "" : " (the document does not say the server resumes: pass { resume: true, lastEventId } to resume)"}`
            : "";
          throw new ConnectionError(`${id}: the stream broke off${hint}`, {
            operationId: id,
            cause: reason,
            attempts: drops,
            lastEventId,
          });
        }
      }
      await sleep(backoff(drops, reconnectDelay, retryMs), signal);
    }
  }
  // One item per next() over the batches, answered from the current batch without a generator step.
  return { [Symbol.asyncIterator]: () => items(batches(), signal) };
}

/** Item streams as an operation kind (core.ts): a call of an operation with an `items` mode. A caller mistake (a missing path value) is thrown by the first `next()`. */
export const itemStreamKind: OperationKind = (ctx) => {
  const { id, operation, callOptions, url, headers, request, hide } = ctx;
  const mode = operation.items!;
  const options = (callOptions ?? {}) as ItemStreamOptions;
  let target: string;
  let redact: Redact;
  try {
    target = url();
    redact = hide();
  } catch (e) {
    return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(e) }) };
  }
  // A body is sent by the call's own request (and never resent), with the stream's Accept among the call's headers (they come after the default one); without one, each connection is a GET-like request of its own.
  const withBody = operation.takesBody || operation.body;
  if (withBody) headers["accept"] = ITEM_STREAM_ACCEPT[mode];
  return itemStream(
    id,
    { mode, sentinel: operation.sentinel, resume: operation.resume },
    (last) =>
      withBody
        ? ctx.respond()
        : request(
            target,
            -1,
            options.signal,
            ITEM_STREAM_ACCEPT[mode],
            last ? { ...headers, "last-event-id": last } : headers,
          ),
    options,
    redact,
    !withBody,
  );
};

/**
 * A JSON-or-stream answer as an operation kind: the call sends its request
 * and resolves, by the answer's `Content-Type` (never a guess), with the
 * JSON value read, or with the item stream of the operation's `items` mode
 * (its sentinel, its errors; not resumed: the request had a body). Another
 * content type is an UnexpectedResponseError.
 */
export const eitherKind: OperationKind = (ctx: CallContext) => {
  // The call's Accept: its headers come after the default one (core.ts).
  ctx.headers["accept"] = `application/json, ${ITEM_STREAM_ACCEPT[ctx.operation.items!]}`;
  return ctx.respond().then(async (response) => {
    const { id, operation, callOptions } = ctx;
    const type = response.headers.get("content-type") ?? "";
    if (MEDIA[operation.items!].test(type)) {
      return itemStream(
        id,
        { mode: operation.items!, sentinel: operation.sentinel },
        async () => response,
        callOptions as ItemStreamOptions,
        ctx.hide(),
        false,
      );
    }
    const text = await response.text();
    if (/^application\/([\w.+-]*\+)?json/i.test(type)) {
      try {
        return text ? JSON.parse(text) : undefined;
      } catch {
        // (Not JSON: below.)
      }
    }
    throw unexpectedResponse(id, response, ctx.hide(), `JSON or ${ITEM_STREAM_ACCEPT[operation.items!]}`);
  });
};

/**
 * Narrows the answer of a JSON-or-stream call (`Json | AsyncIterable<Item>`)
 * to its stream: `if (isStream(answer)) for await (const item of answer) …`.
 */
export const isStream = <T>(answer: T): answer is Extract<T, AsyncIterable<unknown>> =>
  typeof (answer as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] == "function";

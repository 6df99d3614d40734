/**
 * A streamed answer without resume, as a typed async iterable of its items:
 * - `"sse"` (OpenAPI 3.2 `itemSchema` on `text/event-stream`): each SSE
 *   message as `{ event, data, id, retry? }`, `data` JSON-decoded when the
 *   item schema says it is JSON (`contentMediaType: application/json`);
 * - `"sse-data"` (3.1 `x-item-schema` on `text/event-stream`): each
 *   message's `data`, JSON-decoded;
 * - `"jsonl"` (`application/jsonl`, `application/x-ndjson`): each line's
 *   JSON value.
 * Protocol-neutral: the items are not validated (their types come from the
 * schema); the resumable, validated event stream is stream-run.ts. The
 * request is sent on the first `next()`; `break` (or `signal`) cancels the
 * body.
 */
import { parseJsonLines } from "../jsonl/index.js";
import { parseSse, type SseMessage } from "../sse/index.js";
import type { OperationKind } from "./core.js";
import { UnexpectedResponseError } from "./errors.js";
import { redactError, type Redact } from "./internal/redact.js";

export type ItemStreamMode = "sse" | "sse-json" | "sse-data" | "jsonl";

/** The media types each mode reads (a 2xx of another type is an UnexpectedResponseError: a proxy's page, not items). */
const MEDIA: Record<ItemStreamMode, RegExp> = {
  sse: /^text\/event-stream/i,
  "sse-json": /^text\/event-stream/i,
  "sse-data": /^text\/event-stream/i,
  jsonl: /^application\/(jsonl|x-ndjson|x-jsonlines|json-lines)/i,
};

const ITEM_STREAM_ACCEPT: Record<ItemStreamMode, string> = {
  sse: "text/event-stream",
  "sse-json": "text/event-stream",
  "sse-data": "text/event-stream",
  jsonl: "application/jsonl, application/x-ndjson",
};

/** One SSE message as an item (`"sse-json"`: its data JSON-decoded). */
function sseItem(message: SseMessage, json: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = { event: message.event, data: json ? JSON.parse(message.data) : message.data, id: message.id };
  if (message.retry !== undefined) item.retry = message.retry;
  return item;
}

/** `hide` removes the credential from what the stream reports: a server may echo it into the content type or the body (whose bytes a failed read's error may quote). */
export function itemStream<T>(id: string, mode: ItemStreamMode, open: () => Promise<Response>, signal: AbortSignal | undefined, hide: Redact = (text) => text): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      const response = await open();
      const contentType = hide(response.headers.get("content-type") ?? "");
      if (!MEDIA[mode].test(contentType) || !response.body) {
        await response.body?.cancel().catch(() => undefined);
        throw new UnexpectedResponseError(`${id}: ${response.status} ${contentType || "without a content type"}, not ${ITEM_STREAM_ACCEPT[mode]}`, { operationId: id, status: response.status, contentType });
      }
      try {
        if (mode === "jsonl") {
          yield* parseJsonLines(response.body, { signal }) as AsyncIterable<T>;
          return;
        }
        for await (const message of parseSse(response.body, { signal })) {
          yield (mode === "sse-data" ? JSON.parse(message.data) : sseItem(message, mode === "sse-json")) as T;
        }
      } catch (error) {
        throw redactError(error, hide);
      }
    },
  };
}

/** Item streams as an operation kind (core.ts): a call of an operation with an `items` mode. A caller mistake (a missing path value) is thrown by the first `next()`. */
export const itemStreamKind: OperationKind = ({ id, operation, callOptions, url, headers, request, hide }) => {
  const mode = operation.items!;
  let target: string;
  let redact: Redact;
  try {
    target = url();
    redact = hide();
  } catch (e) {
    return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(e) }) };
  }
  return itemStream(id, mode, () => request(target, -1, callOptions?.signal, ITEM_STREAM_ACCEPT[mode], headers), callOptions?.signal, redact);
};

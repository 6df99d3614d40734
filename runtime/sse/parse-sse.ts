/**
 * Public API of the Server-Sent-Events decoder: bytes in, messages out.
 *
 * Three shapes over the same core (LineSplitter -> EventParser):
 * - parseSse: an async iterable of messages;
 * - parseSseBatches: an async iterable of arrays, one per input chunk that
 *   completed messages (cheaper per message: one await per chunk);
 * - createSseParser: push-style, the caller owns the loop.
 *
 * Input is bytes only (`Uint8Array` chunks, e.g. `fetch` `response.body`):
 * decoding is part of the spec (UTF-8 only, BOM handling), so pre-decoded
 * strings are rejected with a TypeError rather than silently re-interpreted.
 * Uses only standard web APIs (TextDecoder, ReadableStream, AbortSignal,
 * typed arrays): runs in Node 20+, browsers, Deno, Bun and edge workers.
 * Protocol-neutral: nothing here knows what the `data` means.
 */
import type { SseParseError } from "./errors.js";
import { isSseParseError } from "./errors.js";
import { EventParser, type SseMessage } from "./event-parser.js";
import { LineSplitter } from "./line-splitter.js";
import { BatchIterator, isReadableStream, MessageIterator, type SseSource } from "./message-iterator.js";

export type { SseMessage } from "./event-parser.js";
export type { SseSource } from "./message-iterator.js";

/** 16 MiB. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

export interface SseParseOptions {
  /**
   * Max bytes one event may buffer (data+field lines of the event being
   * built, or one unterminated line). Default 16 MiB. Exceeding ends parsing
   * with SseParseError type "max-event-bytes-exceeded".
   */
  maxEventBytes?: number;
  /** Called for every valid retry field, even when no message is dispatched. */
  onRetry?: (ms: number) => void;
  /** Called for each comment line (without the leading ':'); lets callers see heartbeats. */
  onComment?: (comment: string) => void;
  /** Optional AbortSignal: aborting stops reading and cancels the source. */
  signal?: AbortSignal;
}

export interface SseParserCallbacks {
  onMessage(message: SseMessage): void;
  /** Every valid `retry` field, even when no message is dispatched. */
  onRetry?(ms: number): void;
  /** Every comment line, without the leading ':'. */
  onComment?(comment: string): void;
  /** A decoding error. Without this callback, feed() throws it instead. */
  onError?(error: SseParseError): void;
}

export interface SseParser {
  /** Decode the next chunk; callbacks run synchronously before it returns. */
  feed(chunk: Uint8Array): void;
  /**
   * End of stream: flushes the decoder and discards an incomplete event (and
   * an unterminated last line), as the spec requires. The parser is then
   * ready for a new stream (last event ID and retry start afresh).
   */
  end(): void;
  /** Drop all state now (e.g. after an error or an abort) and start afresh. */
  reset(): void;
}

/**
 * Decode an event stream into messages.
 *
 * Breaking out of `for await` cancels the source. Source errors propagate;
 * when `maxEventBytes` is exceeded the iterator throws an SseParseError after
 * delivering the messages completed before it.
 */
export function parseSse(source: SseSource, options?: SseParseOptions): AsyncIterable<SseMessage> {
  checkSource(source);
  return new MessageIterator(source, iteratorOptions(options));
}

/**
 * Like parseSse, but yields one array with the messages completed by each
 * input chunk (never an empty array): one await per chunk instead of per
 * message, for consumers that handle messages in a synchronous loop.
 */
export function parseSseBatches(source: SseSource, options?: SseParseOptions): AsyncIterable<SseMessage[]> {
  checkSource(source);
  return new BatchIterator(source, iteratorOptions(options));
}

/**
 * Push-style decoder: call feed() with each chunk and end() at the end of
 * the stream. After an error (a SseParseError, or an exception thrown by one
 * of your callbacks) the parser stops: feed() ignores input until end() or
 * reset().
 */
export function createSseParser(
  callbacks: SseParserCallbacks,
  options?: { maxEventBytes?: number },
): SseParser {
  const max = checkMaxEventBytes(options?.maxEventBytes);
  // Callbacks are called as methods of `callbacks` (so `this` works in them).
  const events = new EventParser(callbacks, max);
  const lines = new LineSplitter(events, max);
  let stopped = false;
  const reset = (): void => {
    lines.reset();
    events.reset();
    stopped = false;
  };
  return {
    feed(chunk: Uint8Array): void {
      if (stopped) return;
      try {
        lines.push(chunk);
      } catch (error) {
        stopped = true;
        lines.reset();
        events.reset();
        if (isSseParseError(error) && callbacks.onError !== undefined) callbacks.onError(error);
        else throw error;
      }
    },
    end: reset,
    reset,
  };
}

function iteratorOptions(options: SseParseOptions | undefined) {
  return {
    maxEventBytes: checkMaxEventBytes(options?.maxEventBytes),
    onRetry: options?.onRetry,
    onComment: options?.onComment,
    signal: options?.signal,
  };
}

function checkMaxEventBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_EVENT_BYTES;
  if (typeof value !== "number" || !(value > 0)) {
    throw new RangeError(`maxEventBytes must be a positive number of bytes (or Infinity), got ${String(value)}`);
  }
  return value;
}

function checkSource(source: unknown): void {
  if (isReadableStream(source)) return;
  if (typeof (source as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === "function") return;
  throw new TypeError("parseSse expects a ReadableStream<Uint8Array> or an AsyncIterable<Uint8Array>");
}

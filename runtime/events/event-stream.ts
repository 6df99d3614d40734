/**
 * Bytes -> typed events as async iterables, over the batch SSE decoder (one
 * await per network chunk, not per event).
 *
 * Lifecycle: iteration ends after a terminal event (the source is cancelled
 * then: the server closes the stream after it anyway), when the source ends,
 * or when the consumer stops (`break` cancels the source). Source errors,
 * SSE decoding errors and the abort reason propagate unchanged.
 */
import { parseSseBatches, type SseSource } from "../sse/index.js";
import { decodeBatch, defaultWarning, type DecodedItem, type DecodeOptions } from "./decode.js";
import type { StreamDecodeError } from "./errors.js";

export interface DecodeEventsOptions extends DecodeOptions {
  /** Largest event to buffer, in bytes (the SSE decoder's `maxEventBytes`, default 16 MiB). */
  maxEventBytes?: number | undefined;
  /** Every valid SSE `retry:` value (ms): the server's suggested reconnection delay. */
  onRetry?: ((ms: number) => void) | undefined;
  /** Every SSE comment line (heartbeats), without the leading ':'. */
  onComment?: ((comment: string) => void) | undefined;
  /** Stops reading and cancels the source; the iterator throws the abort reason. */
  signal?: AbortSignal | undefined;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** Hand-written rather than `async function*`: cheaper per batch, and return() reaches the source at once. */
class EventBatchIterator implements AsyncIterableIterator<DecodedItem[]> {
  private readonly inner: AsyncIterator<import("../sse/index.js").SseMessage[]>;
  private readonly onInvalid;
  private readonly validation;
  private readonly onWarning;
  private pending: StreamDecodeError | undefined = undefined;
  private done = false;

  constructor(source: SseSource, options: DecodeEventsOptions) {
    this.onInvalid = options.onInvalid ?? "throw";
    this.validation = options.validation ?? "throw";
    this.onWarning = options.onWarning ?? defaultWarning;
    const sse: import("../sse/index.js").SseParseOptions = {};
    if (options.maxEventBytes !== undefined) sse.maxEventBytes = options.maxEventBytes;
    if (options.onRetry !== undefined) sse.onRetry = options.onRetry;
    if (options.onComment !== undefined) sse.onComment = options.onComment;
    if (options.signal !== undefined) sse.signal = options.signal;
    this.inner = parseSseBatches(source, sse)[Symbol.asyncIterator]();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<DecodedItem[]>> {
    for (;;) {
      if (this.pending !== undefined) {
        const error = this.pending;
        this.pending = undefined;
        throw error;
      }
      if (this.done) return DONE;
      let r: IteratorResult<import("../sse/index.js").SseMessage[]>;
      try {
        r = await this.inner.next();
      } catch (error) {
        this.done = true;
        throw error;
      }
      if (r.done === true) {
        this.done = true;
        return DONE;
      }
      const out: DecodedItem[] = [];
      const stop = decodeBatch(r.value, out, this.onInvalid, this.validation, this.onWarning);
      if (stop !== undefined) {
        this.done = true;
        // The run is over (or the stream is unusable): let go of the connection.
        await this.inner.return?.().catch(() => undefined);
        if (stop !== "terminal") {
          if (out.length === 0) throw stop;
          this.pending = stop;
        }
      }
      if (out.length > 0) return { done: false, value: out };
    }
  }

  async return(): Promise<IteratorResult<DecodedItem[]>> {
    this.pending = undefined;
    if (!this.done) {
      this.done = true;
      await this.inner.return?.();
    }
    return DONE;
  }
}

/** Per-item view over the batches. */
class EventIterator implements AsyncIterableIterator<DecodedItem> {
  private batch: DecodedItem[] = [];
  private index = 0;
  constructor(private readonly batches: EventBatchIterator) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<DecodedItem>> {
    while (this.index >= this.batch.length) {
      const r = await this.batches.next();
      if (r.done === true) return DONE;
      this.batch = r.value;
      this.index = 0;
    }
    return { done: false, value: this.batch[this.index++]! };
  }

  async return(): Promise<IteratorResult<DecodedItem>> {
    this.batch = [];
    await this.batches.return();
    return DONE;
  }
}

/**
 * Typed events of one stream, one per `next()`. Items are `AgentRunEvent`s,
 * plus StreamDecodeErrors when `onInvalid` is `"deliver"`.
 */
export function decodeEvents(source: SseSource, options: DecodeEventsOptions = {}): AsyncIterableIterator<DecodedItem> {
  return new EventIterator(new EventBatchIterator(source, options));
}

/** Like decodeEvents, but one array per network chunk (never empty): the fast path. */
export function decodeEventBatches(source: SseSource, options: DecodeEventsOptions = {}): AsyncIterableIterator<DecodedItem[]> {
  return new EventBatchIterator(source, options);
}

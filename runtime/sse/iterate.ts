/**
 * Async iteration over a byte source: parseSse (one message per next()),
 * parseSseBatches (one array per chunk), and the same machinery for the
 * typed event layer (runtime/events), which plugs in its own per-message
 * handler.
 *
 * A hand-written iterator rather than `async function*`: a generator costs
 * about three times as much per item, and this one answers next() from the
 * queue of decoded messages without touching the source.
 *
 * Lifecycle: the source is locked lazily on the first next(). It is released
 * when it ends or fails, and cancelled (ReadableStream `cancel()`, iterator
 * `return()`) when the consumer stops early (`return()`, i.e. `break` in
 * `for await`), when the AbortSignal fires, when decoding fails, or when the
 * handler ends the stream. Source errors reach the consumer unchanged; a
 * decoding error is thrown after the items completed before it have been
 * delivered. After an error the iterator is done.
 */
import { decoder, maxBytes, type SseMessage } from "./decoder.js";

/** What can be decoded: a byte stream (e.g. `fetch` `response.body`) or any async iterable of byte chunks. */
export type SseSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface SseParseOptions {
  /**
   * Max bytes one event may buffer (its field lines, or one unterminated
   * line). Default 16 MiB. Exceeding it ends parsing with an SseParseError.
   */
  maxEventBytes?: number | undefined;
  /** Called for every valid retry field, even when no message is dispatched. */
  onRetry?: ((ms: number) => void) | undefined;
  /** Called for each comment line (without the leading ':'); lets callers see heartbeats. */
  onComment?: ((comment: string) => void) | undefined;
  /** Aborting stops reading, cancels the source, and the iterator throws the abort reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Turns a message into items pushed on `queue`. Returns true to end the
 * stream after it; throws to fail it (after the items queued before).
 */
export type MessageHandler<T> = (message: SseMessage, queue: T[]) => boolean | void;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
/** Thrown through the decoder when the handler ends the stream. */
const END = {};

/** The iterator. `batch`: one array per chunk that produced items, else one item per next(). */
export function iterate<T>(source: SseSource, options: SseParseOptions = {}, batch: boolean, handle: MessageHandler<T>): AsyncIterableIterator<any> {
  const stream = !!(source as ReadableStream | null)?.getReader;
  if (!stream && !(source as AsyncIterable<Uint8Array> | null)?.[Symbol.asyncIterator]) {
    throw new TypeError("parseSse expects a ReadableStream or an AsyncIterable");
  }
  const { signal } = options;
  let queue: T[] = [];
  let head = 0;
  /** No more reads: the source ended, failed, was cancelled or aborted. */
  let done = false;
  /** An error to throw once the queue is drained (boxed: any value can be thrown). */
  let failure: [unknown] | undefined;
  /** A pull under way: concurrent next() calls wait for it, so they keep their order. */
  let busy: Promise<IteratorResult<unknown>>;
  let pulling = false;
  /** The open source: a reader or an iterator; undefined before, null after. */
  let src: any;
  /** Rejects the pending read (abort). */
  let reject: ((reason: unknown) => void) | undefined;

  const feed = decoder(
    {
      ...options,
      onMessage(m) {
        if (handle(m, queue)) throw END;
      },
    },
    maxBytes(options.maxEventBytes),
  )[0];

  /**
   * Lets go of the source, cancelling it if asked (not opened yet: the
   * stream itself). Errors while cancelling are not the consumer's concern.
   */
  const close = async (cancel: boolean, reason?: unknown): Promise<void> => {
    signal?.removeEventListener("abort", onAbort);
    const s = src;
    src = null;
    try {
      const p = cancel && (s ? (stream ? s.cancel(reason) : s.return?.()) : stream && !(source as ReadableStream).locked && (source as ReadableStream).cancel(reason));
      if (stream) s?.releaseLock();
      await p;
    } catch {
      // ignore
    }
  };

  const onAbort = (): void => {
    if (done) return;
    const reason = signal!.reason;
    done = true;
    failure = [reason];
    queue = [];
    reject?.(reason);
    void close(true, reason);
  };

  const pull = async (): Promise<IteratorResult<unknown>> => {
    try {
      if (!batch) queue.length = head = 0;
      for (;;) {
        if (failure) {
          const [error] = failure;
          failure = undefined;
          throw error;
        }
        if (done) return DONE;
        if (src === undefined) {
          try {
            src = stream ? (source as ReadableStream).getReader() : (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
          } catch (error) {
            // E.g. the stream is locked by another reader: fail once, then done.
            done = true;
            throw error;
          }
          signal?.addEventListener("abort", onAbort);
          if (signal?.aborted) onAbort();
          continue;
        }
        let r;
        try {
          const p = stream ? src.read() : src.next();
          // With a signal, a pending read ends at once on abort, even from a
          // source that only acts on cancellation once its next chunk arrives.
          r = await (signal ? new Promise<any>((ok, fail) => ((reject = fail), p.then(ok, fail))) : p);
        } catch (error) {
          if (failure) continue; // aborted while reading: throw the reason
          done = true;
          void close(false);
          throw error;
        }
        if (done) continue;
        if (r.done) {
          done = true;
          void close(false);
          return DONE;
        }
        try {
          feed(r.value);
        } catch (error) {
          done = true;
          if (error !== END) failure = [error];
          void close(true, failure?.[0]);
        }
        if (head < queue.length) {
          if (!batch) return { done: false, value: queue[head++] };
          const value = queue;
          queue = [];
          return { done: false, value };
        }
      }
    } finally {
      pulling = false;
    }
  };

  const it: AsyncIterableIterator<unknown> = {
    next() {
      if (pulling) return busy.then(it.next, it.next);
      if (!batch && head < queue.length) return Promise.resolve({ done: false, value: queue[head++] });
      pulling = true;
      return (busy = pull());
    },
    /** Stop early: cancel the source and release it. */
    async return() {
      queue = [];
      if (!done) {
        done = true;
        // A read may be in flight (return() called concurrently); an async
        // generator source would only act on return() after it, so don't wait.
        const p = close(true);
        if (!pulling) await p;
      }
      return DONE;
    },
    [Symbol.asyncIterator]() {
      return it;
    },
  };
  return it;
}

/**
 * Decode an event stream into messages.
 *
 * Breaking out of `for await` cancels the source. Source errors propagate;
 * when `maxEventBytes` is exceeded the iterator throws an SseParseError after
 * delivering the messages completed before it.
 */
export function parseSse(source: SseSource, options?: SseParseOptions): AsyncIterableIterator<SseMessage> {
  return iterate(source, options, false, push);
}

/**
 * Like parseSse, but yields one array with the messages completed by each
 * input chunk (never an empty array): one await per chunk instead of per
 * message, for consumers that handle messages in a synchronous loop.
 */
export function parseSseBatches(source: SseSource, options?: SseParseOptions): AsyncIterableIterator<SseMessage[]> {
  return iterate(source, options, true, push);
}

function push(m: SseMessage, queue: SseMessage[]): void {
  queue.push(m);
}

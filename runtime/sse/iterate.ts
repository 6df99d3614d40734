/**
 * Async iteration over a byte source: parseSseBatches (one array per chunk),
 * parseSse (one message per next()), and the same machinery for the typed
 * event layer (runtime/events), which plugs in a handler mapping each
 * chunk's messages to its items.
 *
 * The arrays come from one `async function*` (its try/finally holds the whole
 * source lifecycle; a generator step per chunk costs nothing that matters).
 * Single items come from a hand-written iterator over those arrays: an
 * `async function*` yielding per item costs about three times as much.
 *
 * Lifecycle: the source is locked lazily on the first next(). It is released
 * when it ends or fails, and cancelled (ReadableStream `cancel()`, iterator
 * `return()`) when the consumer stops early (`return()`, i.e. `break` in
 * `for await`, even before the first next()), when the AbortSignal fires
 * (at once: a pending read is abandoned, and a source idle while the
 * consumer holds an item is cancelled then), when decoding fails, or when the
 * handler ends the stream. Source errors reach the consumer unchanged; a
 * decoding error is thrown after the items completed before it have been
 * delivered. After an error the iterator is done.
 */
import { maxBytes, type SseMessage } from "./fields.js";
import { decoder } from "./framing.js";

/** What can be decoded: a byte stream (e.g. `fetch` `response.body`) or any async iterable of byte chunks. */
export type SseSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface SseParseOptions {
  /**
   * Max bytes (of UTF-8) of one event's field lines, and of any one line.
   * Default 16 MiB. Exceeding it ends parsing with an SseParseError. Comment
   * lines are not part of an event and do not count toward its size, but a
   * line longer than the limit fails whatever it is (comment or field) and
   * however it is chunked: an unterminated line must stay bounded in memory.
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
 * Turns the messages completed by one chunk into items pushed on `out`.
 * Returns true to end the stream after them; throws to fail it (after the
 * items pushed before).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that never ends the stream returns nothing
export type BatchHandler<T> = (messages: SseMessage[], out: T[]) => boolean | void;

/**
 * One array of items per chunk that produced any: the messages, or what
 * `map` makes of them. The checks run at once; the source is opened by the
 * first next().
 */
export function iterate<T = SseMessage>(
  source: SseSource,
  options: SseParseOptions = {},
  map?: BatchHandler<T>,
): AsyncGenerator<T[], void> {
  const stream = !!(source as ReadableStream | null)?.getReader;
  if (!stream && !(source as AsyncIterable<Uint8Array> | null)?.[Symbol.asyncIterator]) {
    throw new TypeError("parseSse expects a ReadableStream or an AsyncIterable");
  }
  const max = maxBytes(options.maxEventBytes);
  /** The reader or iterator of the source: undefined until the first next() opens it, null if opening failed. */
  // biome-ignore lint/suspicious/noExplicitAny: a ReadableStream reader or an AsyncIterator, told apart by `stream`
  let src: any;
  const batches = (async function* () {
    const { signal } = options;
    let queue: SseMessage[] = [];
    /** Between reads (the consumer may hold an item): cancel the source when done. False while a read is pending, and after the source ended or failed. */
    let live = true;
    /** The cancel reason: the abort reason or the decoding error. */
    let reason: unknown;
    /** Rejects the pending read (abort). */
    let reject: ((reason: unknown) => void) | undefined;
    /** The source's cancellation, started once. */
    let cancelling: Promise<unknown> | undefined;
    const cancel = (): Promise<unknown> =>
      (cancelling ??= Promise.resolve(stream ? src.cancel(reason) : src.return?.()));
    const onAbort = (): void => {
      reason = signal!.reason;
      // A pending read ends at once; a source idle while the consumer holds an item is let go now, not at its next next().
      if (live) cancel().catch(() => {});
      else reject?.(reason);
    };
    const feed = decoder({ ...options, onMessage: (m) => void queue.push(m) }, max);
    try {
      src = null;
      // Throws if the stream is locked by another reader.
      src = stream
        ? (source as ReadableStream).getReader()
        : (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
      signal?.addEventListener("abort", onAbort);
      for (;;) {
        if (signal?.aborted) throw (reason = signal.reason);
        const p = stream ? src.read() : src.next();
        // A read that fails leaves nothing to cancel (unless aborted).
        live = false;
        // With a signal, a pending read ends at once on abort, even from a
        // source that only acts on cancellation once its next chunk arrives.
        const r = await (signal
          ? // biome-ignore lint/suspicious/noExplicitAny: a reader's or an iterator's result, told apart by `stream`
            new Promise<any>((ok, fail) => {
              reject = fail;
              p.then(ok, fail);
            })
          : p);
        if (r.done) return;
        live = true;
        let error: [unknown] | undefined;
        try {
          feed(r.value);
        } catch (e) {
          error = [e];
        }
        // biome-ignore lint/suspicious/noExplicitAny: the messages, then what `map` makes of them (T)
        let out: any[] = queue;
        let end: ReturnType<BatchHandler<T>> = false;
        queue = [];
        if (map && out.length) {
          const messages = out;
          out = [];
          try {
            end = map(messages, out);
          } catch (e) {
            // An earlier message than the decoding error, if any.
            error = [e];
          }
        }
        // Deliver what was completed before an error (or the end). An end
        // (a terminal event) came before a decoding error in the same chunk,
        // and nothing after it is read: that error is moot.
        if (out.length) yield out;
        if (end) return;
        if (error) throw (reason = error[0]);
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (src) {
        try {
          const aborted = signal?.aborted;
          const p = (live || aborted) && cancel();
          if (stream) src.releaseLock();
          // A source stuck in a read (abort) may never finish cancelling.
          if (!aborted) await p;
        } catch {
          // Errors while cancelling are not the consumer's concern.
        }
      }
    }
  })();
  // return() before the first next(): the generator body never ran, so its
  // finally cannot cancel the source. Cancel it here, as a ReadableStream's
  // own async iterator would (a source locked elsewhere is left alone).
  const giveUp = batches.return.bind(batches);
  batches.return = async (value) => {
    if (src === undefined) {
      src = null;
      try {
        await (stream
          ? (source as ReadableStream).cancel()
          : (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]().return?.());
      } catch {
        // Locked by another reader, or a source that fails to cancel: not the consumer's concern.
      }
    }
    return giveUp(value);
  };
  return batches;
}

/**
 * One item per next() over the arrays of `iterate`. Hand-written, not
 * `async function*`: the common next() answers from the current array with
 * no generator step, about three times cheaper.
 */
export function items<T>(batches: AsyncGenerator<T[], void>, signal?: AbortSignal): AsyncIterableIterator<T> {
  let batch: T[] = [];
  let i = 0;
  /** Steps under way: next() calls queue behind them, so they keep their order. */
  let waiting = 0;
  let busy: Promise<IteratorResult<T, void>>;
  const step = async (): Promise<IteratorResult<T, void>> => {
    try {
      while (i >= batch.length) {
        const r = await batches.next();
        if (r.done) return r;
        batch = r.value;
        i = 0;
      }
      return { done: false, value: batch[i++]! };
    } finally {
      waiting--;
    }
  };
  const it: AsyncIterableIterator<T> = {
    next: () => {
      // After an abort the iterator throws the reason: no more items.
      if (signal?.aborted) batch = [];
      return !waiting && i < batch.length
        ? Promise.resolve({ done: false, value: batch[i++]! })
        : (busy = waiting++ ? busy.then(step, step) : step());
    },
    return: () => {
      batch = [];
      return batches.return() as Promise<IteratorResult<T>>;
    },
    [Symbol.asyncIterator]: () => it,
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
  return items(iterate(source, options), options?.signal);
}

/**
 * Like parseSse, but yields one array with the messages completed by each
 * input chunk (never an empty array): one await per chunk instead of per
 * message, for consumers that handle messages in a synchronous loop.
 */
export function parseSseBatches(source: SseSource, options?: SseParseOptions): AsyncIterableIterator<SseMessage[]> {
  return iterate(source, options);
}

/**
 * Pull-style decoding: reads a byte source and hands out messages (or one
 * array of messages per chunk) through hand-written async iterators.
 *
 * Hand-written rather than `async function*`: a generator costs over twice
 * as much per yielded item (about 440 vs 190 ns in Node 20), and the
 * iterator object lets next() answer from the queue of already-decoded
 * messages without touching the source.
 *
 * Lifecycle: the source is locked lazily on the first next(). It is released
 * when it ends, and cancelled (ReadableStream `cancel()`, iterator `return()`)
 * when the consumer stops early (`return()`, i.e. `break` in `for await`),
 * when the AbortSignal fires, or when decoding fails. Source errors reach the
 * consumer unchanged; a decoding error is thrown after the messages completed
 * before it have been delivered. After an error the iterator is done.
 */
import { EventParser, type SseMessage } from "./event-parser.js";
import { LineSplitter } from "./line-splitter.js";

/** What can be decoded: a byte stream (e.g. `fetch` `response.body`) or any async iterable of byte chunks. */
export type SseSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface MessageIteratorOptions {
  maxEventBytes: number;
  onRetry?: ((ms: number) => void) | undefined;
  onComment?: ((comment: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

type ReadResult = { done: false; value: Uint8Array } | { done: true; value?: unknown };

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

export function isReadableStream(source: unknown): source is ReadableStream<Uint8Array> {
  return typeof (source as ReadableStream | null)?.getReader === "function";
}

abstract class SourceIterator<T> implements AsyncIterableIterator<T> {
  /** Messages decoded and not yet handed out: `queue[head..]`. */
  protected queue: SseMessage[] = [];
  protected head = 0;
  private readonly lines: LineSplitter;
  private readonly events: EventParser;
  private readonly source: SseSource;
  private readonly signal: AbortSignal | undefined;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined = undefined;
  private iterator: AsyncIterator<Uint8Array> | undefined = undefined;
  private started = false;
  /** No more reads: the source ended, failed, was cancelled or aborted. */
  private finished = false;
  /** An error to throw once the queue is drained. */
  private failure: { error: unknown } | undefined = undefined;
  /** A pull is under way; concurrent next() calls wait for it. */
  protected pulling = false;
  private pullPromise: Promise<IteratorResult<T>> | undefined = undefined;
  private abortReject: ((reason: unknown) => void) | undefined = undefined;
  private readonly onAbort = (): void => this.abort();

  constructor(source: SseSource, options: MessageIteratorOptions) {
    this.source = source;
    this.signal = options.signal;
    this.events = new EventParser(
      {
        onMessage: (m) => {
          this.queue.push(m);
        },
        onRetry: options.onRetry,
        onComment: options.onComment,
      },
      options.maxEventBytes,
    );
    this.lines = new LineSplitter(this.events, options.maxEventBytes);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  abstract next(): Promise<IteratorResult<T>>;

  /** Stop early: cancel the source and release it. */
  async return(): Promise<IteratorResult<T>> {
    this.queue = [];
    this.head = 0;
    if (!this.finished) {
      this.finished = true;
      // A read may be in flight (return() called concurrently); an async
      // generator source would only act on return() after it, so don't wait.
      const done = this.cancelSource(undefined);
      if (!this.pulling) await done;
    }
    this.started = true;
    return DONE;
  }

  /**
   * Run one pull (`read` must clear `pulling` in a finally). A next() while a
   * pull is suspended waits for it, so concurrent calls keep their order.
   */
  protected pull(read: () => Promise<IteratorResult<T>>): Promise<IteratorResult<T>> {
    if (this.pulling) {
      const again = (): Promise<IteratorResult<T>> => this.next();
      return this.pullPromise!.then(again, again);
    }
    this.pulling = true;
    const p = read();
    this.pullPromise = p;
    return p;
  }

  /**
   * Read chunks until the queue holds messages (true) or the source is done
   * (false). Throws the source's error, the abort reason or a decoding error.
   */
  protected async fill(): Promise<boolean> {
    if (!this.started) this.start();
    for (;;) {
      if (this.failure !== undefined) {
        const { error } = this.failure;
        this.failure = undefined;
        throw error;
      }
      if (this.finished) return false;
      let r: ReadResult;
      try {
        r = await this.read();
      } catch (error) {
        if (this.failure === undefined) {
          // The source failed: nothing to cancel, just let go of it.
          this.finished = true;
          this.release();
          throw error;
        }
        continue; // aborted while reading: throw the abort reason above
      }
      if (this.finished) continue;
      if (r.done) {
        this.finished = true;
        this.lines.reset();
        this.events.reset();
        this.release();
        return false;
      }
      try {
        this.lines.push(r.value);
      } catch (error) {
        this.fail(error);
      }
      if (this.head < this.queue.length) return true;
    }
  }

  private start(): void {
    this.started = true;
    const signal = this.signal;
    try {
      if (isReadableStream(this.source)) this.reader = this.source.getReader();
      else this.iterator = this.source[Symbol.asyncIterator]();
    } catch (error) {
      // E.g. the stream is already locked by another reader: fail once, then done.
      this.finished = true;
      throw error;
    }
    if (signal !== undefined) {
      if (signal.aborted) this.abort();
      else signal.addEventListener("abort", this.onAbort, { once: true });
    }
  }

  private read(): Promise<ReadResult> {
    const p = (this.reader !== undefined ? this.reader.read() : this.iterator!.next()) as Promise<ReadResult>;
    if (this.signal === undefined) return p;
    // With a signal, a pending read must end at once on abort, even from a
    // source whose cancellation waits for its next chunk.
    return new Promise<ReadResult>((resolve, reject) => {
      this.abortReject = reject;
      Promise.resolve(p).then(resolve, reject);
    });
  }

  private abort(): void {
    if (this.finished) return;
    const reason = this.signal!.reason;
    this.finished = true;
    this.failure = { error: reason };
    this.queue = [];
    this.head = 0;
    this.abortReject?.(reason);
    void this.cancelSource(reason);
  }

  /** A decoding error: deliver what was completed, then throw it. */
  private fail(error: unknown): void {
    this.finished = true;
    this.failure = { error };
    this.lines.reset();
    this.events.reset();
    void this.cancelSource(error);
  }

  private detach(): void {
    this.abortReject = undefined;
    this.signal?.removeEventListener("abort", this.onAbort);
  }

  private release(): void {
    this.detach();
    const reader = this.reader;
    this.reader = undefined;
    this.iterator = undefined;
    reader?.releaseLock();
  }

  /** Cancel and release the source; errors while cancelling are not the consumer's concern. */
  private async cancelSource(reason: unknown): Promise<void> {
    this.detach();
    const reader = this.reader;
    const iterator = this.iterator;
    this.reader = undefined;
    this.iterator = undefined;
    if (!this.started) {
      // Never locked: cancel the stream itself; an iterable has nothing open yet.
      this.started = true;
      if (isReadableStream(this.source) && !this.source.locked) await this.source.cancel(reason).catch(ignore);
      return;
    }
    try {
      if (reader !== undefined) {
        await reader.cancel(reason);
        reader.releaseLock();
      } else if (iterator?.return !== undefined) {
        await iterator.return();
      }
    } catch {
      // ignore
    }
  }
}

function ignore(): void {}

/** One message per next(). */
export class MessageIterator extends SourceIterator<SseMessage> {
  next(): Promise<IteratorResult<SseMessage>> {
    if (this.head < this.queue.length && !this.pulling) {
      return Promise.resolve({ done: false, value: this.queue[this.head++]! });
    }
    return this.pull(() => this.pullOne());
  }

  private async pullOne(): Promise<IteratorResult<SseMessage>> {
    try {
      this.queue.length = 0;
      this.head = 0;
      if (!(await this.fill())) return DONE;
      return { done: false, value: this.queue[this.head++]! };
    } finally {
      this.pulling = false;
    }
  }
}

/** One array per source chunk that completed at least one message. */
export class BatchIterator extends SourceIterator<SseMessage[]> {
  next(): Promise<IteratorResult<SseMessage[]>> {
    return this.pull(() => this.pullBatch());
  }

  private async pullBatch(): Promise<IteratorResult<SseMessage[]>> {
    try {
      if (!(await this.fill())) return DONE;
      const batch = this.queue;
      this.queue = [];
      this.head = 0;
      return { done: false, value: batch };
    } finally {
      this.pulling = false;
    }
  }
}

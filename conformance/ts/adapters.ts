/** What an SDK passes to the runner: its own decoder, event decoding and validators. */

/** One decoded SSE message, the suite's shape (`retry` once a valid retry field was seen). */
export interface SuiteSseMessage {
  readonly event: string;
  readonly data: string;
  readonly id: string;
  readonly retry?: number;
}

export type ValidationLevel = "receive" | "strict";

/** A validator's answer; `rules`: what it found broken, when it can name it (then an expected rule must be among them). */
export interface Verdict {
  readonly valid: boolean;
  readonly rules?: readonly string[];
}

type MaybePromise<T> = T | Promise<T>;

export interface ConformanceAdapters {
  /** A text/event-stream body fed in these chunks, in order -> its messages. */
  decodeSse(chunks: readonly Uint8Array[]): MaybePromise<readonly SuiteSseMessage[]>;
  /** One message's parsed data and its `event:` line -> the typed event as the envelope `{ seq, type, data }`, and the frame shape read. */
  decodeEvent(
    data: unknown,
    eventLine: string,
  ): MaybePromise<{ readonly event: unknown; readonly shape: "envelope" | "flat" }>;
  /** `instance` against `components/schemas/<component>` at a level. */
  validate(level: ValidationLevel, component: string, instance: unknown): MaybePromise<boolean | Verdict>;
  /**
   * Optional: the ids of the sequence rules (`x-transcript-rules`) a whole
   * run `{ events: [...] }` breaks (events in either frame shape). Without
   * it the transcript cases fail, and flows skip that check.
   */
  checkTranscript?(transcript: unknown): MaybePromise<readonly string[]>;
}

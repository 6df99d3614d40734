/** The push-style parser: createSseParser over the decoder's core (./framing.ts). */
import { SseParseError } from "./errors.js";
import { maxBytes, type SseParserCallbacks } from "./fields.js";
import { decoder } from "./framing.js";

export interface SseParser {
  /** Decode the next chunk; callbacks run synchronously before it returns. */
  feed(chunk: Uint8Array): void;
  /**
   * End of stream: discards an incomplete event (and an unterminated last
   * line), as the spec requires. The parser is then ready for a new stream
   * (last event ID and retry start afresh).
   */
  end(): void;
  /** Drop all state now (e.g. after an error or an abort) and start afresh. */
  reset(): void;
}

/**
 * Push-style decoder: call feed() with each chunk and end() at the end of
 * the stream. After an error (an SseParseError, or an exception thrown by
 * one of your callbacks) the parser stops: feed() ignores input until end()
 * or reset().
 */
export function createSseParser(callbacks: SseParserCallbacks, options?: { maxEventBytes?: number }): SseParser {
  const max = maxBytes(options?.maxEventBytes);
  let feed: (chunk: Uint8Array) => void;
  const end = (): void => {
    feed = decoder(callbacks, max);
  };
  end();
  return {
    feed(chunk) {
      try {
        feed(chunk);
      } catch (error) {
        feed = () => {};
        if (error instanceof SseParseError && callbacks.onError) callbacks.onError(error);
        else throw error;
      }
    },
    end,
    reset: end,
  };
}

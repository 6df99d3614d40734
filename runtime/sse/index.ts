/**
 * Server-Sent-Events decoder: public entry point (explicit exports only, so
 * the public surface is exactly this list).
 */
export {
  createSseParser,
  DEFAULT_MAX_EVENT_BYTES,
  parseSse,
  parseSseBatches,
  type SseMessage,
  type SseParseOptions,
  type SseParser,
  type SseParserCallbacks,
  type SseSource,
} from "./parse-sse.js";
export { isSseParseError, SseParseError, type SseParseErrorType } from "./errors.js";
